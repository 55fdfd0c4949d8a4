/**
 * `BENCH_BASE=/path/to/other/checkout node bench/restricted-books-paired.ts DIR`: a restricted and an
 * unrestricted reader's 20-row book lists (series then number, and latest books) on one database
 * (DIR, made by `node bench/awaiting-rating-cost.ts generate DIR` and opened, so migrated, by this
 * checkout), run by the other checkout's searchBooks and this one's in the same process, alternately,
 * RUNS times each (default 40); prints the medians. The pairing cancels most of the machine's other
 * work, which moves absolute figures by 2-3x on a shared machine; the unrestricted pairs show the
 * noise band left. The other checkout must read this database's schema (its SQL only is run here).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/database.ts';
import * as after from '../server/db/search/book-search.ts';
import type { User } from '../server/db/user-repository.ts';
import { median, round } from './lib/stats.ts';

const dir = process.argv[2];
const base = process.env.BENCH_BASE;
if (!dir || !base) throw new Error('usage: BENCH_BASE=/other/checkout node bench/restricted-books-paired.ts DIR');
const before = (await import(join(base, 'server/db/search/book-search.ts'))) as typeof after;
const RUNS = Number(process.env.RUNS ?? 40);
const db = openDatabase(dir);
const user = (ageRestrictionType: User['ageRestrictionType'], ageRestriction: number | null): User => ({
  id: 'bench', email: 'bench@example.org', passwordHash: '', roles: [], sharedAllLibraries: true, sharedLibraryIds: [],
  labelsAllow: [], labelsExclude: [], ageRestriction, ageRestrictionType, created: 0, lastModified: 0,
});
const restricted = user('EXCLUDE', 16);
const open = user(null, null);
const latest = [{ property: 'createdDate', direction: 'desc' as const }];
const lists: Record<string, (search: typeof after.searchBooks) => unknown> = {
  'book list, EXCLUDE 16': (search) => search(db, { userId: 'bench', restrictedTo: restricted, sort: [], limit: 20, offset: 0 }),
  'book list, unrestricted': (search) => search(db, { userId: 'bench', restrictedTo: open, sort: [], limit: 20, offset: 0 }),
  'latest books, EXCLUDE 16': (search) => search(db, { userId: 'bench', restrictedTo: restricted, sort: latest, limit: 20, offset: 0 }),
  'latest books, unrestricted': (search) => search(db, { userId: 'bench', restrictedTo: open, sort: latest, limit: 20, offset: 0 }),
};
const samples = new Map(Object.keys(lists).map((name) => [name, { before: [] as number[], after: [] as number[] }]));
for (const list of Object.values(lists)) (list(before.searchBooks), list(after.searchBooks)); // statements prepared, pages warm
for (let run = 0; run < RUNS; run++) {
  for (const [name, list] of Object.entries(lists)) {
    // Which build goes first alternates too.
    const order = run % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const side of order) {
      const start = performance.now();
      list(side === 'before' ? before.searchBooks : after.searchBooks);
      samples.get(name)![side].push(performance.now() - start);
    }
  }
}
db.close();
console.log(JSON.stringify({ load: loadavg().map((l) => round(l)), runs: RUNS }));
for (const [name, { before: b, after: a }] of samples) console.log(`${name}: before ${round(median(b))} ms, after ${round(median(a))} ms`);
