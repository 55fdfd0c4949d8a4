/**
 * `node bench/awaiting-rating-cost.ts generate DIR` then `node bench/awaiting-rating-cost.ts time DIR`:
 * what an age-restricted reader's lists cost while a large import waits for analysis. An age rule
 * also hides every series none of whose live books is analysed yet (content-restriction.ts,
 * notYetRated), a set read from the books awaiting analysis, and keeps back a book awaiting analysis
 * in a series shown (awaitingAnalysis). The library: 50 series × 1,000 books analysed (READY) plus
 * 2 new series × 1,000 books awaiting analysis (UNKNOWN), and BENCH_NEW_IN_SHOWN new books of shown
 * series, written straight through the repositories. `time` runs, in process, RUNS times each: a 20-row series list and a
 * 20-row book list for a reader with EXCLUDE 16, and the same for an unrestricted one, in turn,
 * and prints their medians (ms). Compare two builds by copying the generated data dir for each
 * and running their `time` alternately (the machine's other work moves absolute figures).
 */
import { cpSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/database.ts';
import { createRepositories } from '../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../server/db/book-metadata-repository.ts';
import { newId } from '../server/db/ids.ts';
import { searchBooks } from '../server/db/search/book-search.ts';
import { searchSeries } from '../server/db/search/series-search.ts';
import type { User } from '../server/db/user-repository.ts';
import { median, round } from './lib/stats.ts';

const [mode, dir, copyTo] = process.argv.slice(2);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const READY_SERIES = 50;
/** The books awaiting analysis: BENCH_WAITING series of BENCH_WAITING_BOOKS books each (2 × 1,000 by default). */
const WAITING_SERIES = Number(process.env.BENCH_WAITING ?? 2);
const WAITING_BOOKS = Number(process.env.BENCH_WAITING_BOOKS ?? 1_000);
const BOOKS_PER_SERIES = 1_000;
/**
 * New books of series already shown (BENCH_NEW_IN_SHOWN books, one in each of as many analysed series,
 * UNKNOWN; BENCH_NEW_STATUS=OUTDATED for replaced files instead): an age rule keeps them back one by
 * one (content-restriction.ts, awaitingAnalysis), so their series' books are the set it reads.
 */
const NEW_IN_SHOWN = Number(process.env.BENCH_NEW_IN_SHOWN ?? 0);
const NEW_STATUS = process.env.BENCH_NEW_STATUS === 'OUTDATED' ? 'OUTDATED' : 'UNKNOWN';

function generate(dataDir: string): void {
  const db = openDatabase(dataDir);
  const repos = createRepositories(db);
  const now = Date.now();
  const libraryId = newId(now);
  db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraryId, 'Big', join(dataDir, 'big'), now, now);
  repos.inTransaction(() => {
    for (let s = 0; s < READY_SERIES + WAITING_SERIES; s++) {
      const waiting = s >= READY_SERIES;
      const seriesId = newId(now);
      const title = `series ${s}`;
      repos.series.insert({ id: seriesId, libraryId, name: title, url: `/big/${s}`, fileLastModified: now, oneshot: false, deletedDate: null, created: now, lastModified: now });
      repos.seriesMetadata.insert({ ...defaultSeriesMetadata(seriesId, title, now), ageRating: waiting ? null : [6, 12, 16, 18][s % 4]! });
      for (let b = 1; b <= (waiting ? WAITING_BOOKS : BOOKS_PER_SERIES); b++) {
        const bookId = newId(now);
        repos.books.insert({ id: bookId, seriesId, libraryId, name: `${title} v${b}`, url: `/big/${s}/${b}.cbz`, number: b, fileLastModified: now, fileSize: 1000, fileHash: '', oneshot: false, deletedDate: null, created: now + b, lastModified: now + b });
        repos.bookMetadata.insert(defaultBookMetadata(bookId, `Volume ${b}`, b, now));
        repos.media.insert({ bookId, status: waiting ? 'UNKNOWN' : 'READY', mediaType: waiting ? null : 'application/zip', comment: null, pageCount: waiting ? 0 : 20, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
      }
      if (!waiting && s < NEW_IN_SHOWN) {
        const bookId = newId(now);
        repos.books.insert({ id: bookId, seriesId, libraryId, name: `${title} new`, url: `/big/${s}/new.cbz`, number: BOOKS_PER_SERIES + 1, fileLastModified: now, fileSize: 1000, fileHash: '', oneshot: false, deletedDate: null, created: now + BOOKS_PER_SERIES + 1, lastModified: now });
        repos.bookMetadata.insert(defaultBookMetadata(bookId, 'New volume', BOOKS_PER_SERIES + 1, now));
        repos.media.insert({ bookId, status: NEW_STATUS, mediaType: null, comment: null, pageCount: 0, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
      }
    }
  });
  db.close();
}

function time(dataDir: string): void {
  const db = openDatabase(dataDir);
  const user = (ageRestrictionType: User['ageRestrictionType'], ageRestriction: number | null): User => ({
    id: 'bench', email: 'bench@example.org', passwordHash: '', roles: [], sharedAllLibraries: true, sharedLibraryIds: [],
    labelsAllow: [], labelsExclude: [], ageRestriction, ageRestrictionType, created: 0, lastModified: 0,
  });
  const restricted = user('EXCLUDE', 16);
  const open = user(null, null);
  const lists = {
    'series list, EXCLUDE 16': () => searchSeries(db, { userId: 'bench', restrictedTo: restricted, sort: [], limit: 20, offset: 0 }),
    'series list, unrestricted': () => searchSeries(db, { userId: 'bench', restrictedTo: open, sort: [], limit: 20, offset: 0 }),
    'book list, EXCLUDE 16': () => searchBooks(db, { userId: 'bench', restrictedTo: restricted, sort: [], limit: 20, offset: 0 }),
    'book list, unrestricted': () => searchBooks(db, { userId: 'bench', restrictedTo: open, sort: [], limit: 20, offset: 0 }),
    'latest books, EXCLUDE 16': () => searchBooks(db, { userId: 'bench', restrictedTo: restricted, sort: [{ property: 'createdDate', direction: 'desc' }], limit: 20, offset: 0 }),
    'latest books, unrestricted': () => searchBooks(db, { userId: 'bench', restrictedTo: open, sort: [{ property: 'createdDate', direction: 'desc' }], limit: 20, offset: 0 }),
  };
  const samples = new Map<string, number[]>(Object.keys(lists).map((k) => [k, []]));
  for (const list of Object.values(lists)) list(); // prepared statements and pages warm
  for (let run = 0; run < RUNS; run++) {
    for (const [name, list] of Object.entries(lists)) {
      const start = performance.now();
      list();
      samples.get(name)!.push(performance.now() - start);
    }
  }
  db.close();
  const result = Object.fromEntries([...samples].map(([k, v]) => [k, round(median(v))]));
  console.log(JSON.stringify({ load: loadavg().map((l) => round(l)), runs: RUNS, p50ms: result }));
}

if (mode === 'generate' && dir) {
  generate(dir);
  if (copyTo) cpSync(dir, copyTo, { recursive: true });
} else if (mode === 'time' && dir) time(dir);
else throw new Error('usage: node bench/awaiting-rating-cost.ts generate DIR [COPY] | time DIR');
