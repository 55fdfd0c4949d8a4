import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../server/db/database.ts';
import { type Repositories, createRepositories } from '../../../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../server/db/book-metadata-repository.ts';
import type { User } from '../../../server/db/user-repository.ts';
import { newId } from '../../../server/db/ids.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';
import { searchSeries } from '../../../server/db/search/series-search.ts';
import { BOOK_COLUMNS, SERIES_COLUMNS, contentRestriction } from '../../../server/db/search/content-restriction.ts';
import { withPlans } from './query-plans.ts';

/**
 * A reader restricted by labels or age rating paid a check per book: each row's series metadata
 * was read again and its labels parsed (a correlated EXISTS with json_each and label_key), and with
 * those tests on the book the planner drove "keep reading" from every book of the library instead
 * of from the reader's own progress (bench/big-library.ts, 55,000 books: 50-350 ms against 4-75 ms
 * for the admin). These check, on a library mixing labels and age ratings, that every kind of
 * restriction keeps exactly the series a plain reading of the rules keeps (SPEC §6, Komga's
 * semantics), and that restricted plans are the admin's plans, with no per-row subquery.
 */

interface SeriesRow { id: string; libraryId: string; age: number | null; labels: string[] }
const AGES = [null, 6, 12, 16, 18];
const LABELS = [[], ['Adult'], ['kids'], ['ADULT', 'kids'], ['Érotique'], []];
const BOOKS = 3;

let dir: string;
let db: Db;
let repos: Repositories;
const libraries: string[] = [];
const series: SeriesRow[] = [];
const books: { id: string; seriesId: string }[] = [];
const users: Record<string, User> = {};

function user(id: string, rules: Partial<User>): User {
  const now = Date.now();
  const u: User = {
    id, email: `${id}@example.org`, passwordHash: '', roles: [], sharedAllLibraries: true, sharedLibraryIds: [],
    labelsAllow: [], labelsExclude: [], ageRestriction: null, ageRestrictionType: null, created: now, lastModified: now, ...rules,
  };
  repos.users.insert(u);
  return u;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-restriction-plans-'));
  db = openDatabase(join(dir, 'data'));
  repos = createRepositories(db);
  const now = Date.now();
  for (const name of ['A', 'B']) {
    const id = newId(now);
    libraries.push(id);
    db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(id, name, `/nowhere/${name}`, now, now);
  }
  users.admin = user('admin', {});
  users.allowAge = user('allowAge', { ageRestriction: 12, ageRestrictionType: 'ALLOW_ONLY' });
  users.excludeAge = user('excludeAge', { ageRestriction: 16, ageRestrictionType: 'EXCLUDE' });
  users.allowLabel = user('allowLabel', { labelsAllow: ['KIDS'] });
  users.excludeLabel = user('excludeLabel', { labelsExclude: ['adult', 'érotique'] });
  users.allowBoth = user('allowBoth', { ageRestriction: 6, ageRestrictionType: 'ALLOW_ONLY', labelsAllow: ['kids'] });
  users.everything = user('everything', {
    sharedAllLibraries: false, sharedLibraryIds: [libraries[0]!], ageRestriction: 12, ageRestrictionType: 'ALLOW_ONLY', labelsAllow: ['kids'], labelsExclude: ['adult'],
  });
  users.excludeBoth = user('excludeBoth', { ageRestriction: 16, ageRestrictionType: 'EXCLUDE', labelsExclude: ['adult'] });
  users.noLibrary = user('noLibrary', { sharedAllLibraries: false, sharedLibraryIds: [] });
  let readDate = now - 1_000_000;
  for (let s = 0; s < 60; s++) {
    const row: SeriesRow = { id: newId(now), libraryId: libraries[s % 2]!, age: AGES[s % AGES.length]!, labels: LABELS[Math.floor(s / 2) % LABELS.length]! };
    series.push(row);
    repos.series.insert({ id: row.id, libraryId: row.libraryId, name: `S${s}`, url: `/s/${s}`, fileLastModified: now, oneshot: false, deletedDate: null, created: now, lastModified: now });
    repos.seriesMetadata.insert({ ...defaultSeriesMetadata(row.id, `S${s}`, now), ageRating: row.age, sharingLabels: row.labels });
    for (let b = 1; b <= BOOKS; b++) {
      const id = newId(now);
      books.push({ id, seriesId: row.id });
      repos.books.insert({ id, seriesId: row.id, libraryId: row.libraryId, name: `S${s} ${b}`, url: `/s/${s}/${b}.cbz`, number: b, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: null, created: now + b, lastModified: now + b });
      repos.bookMetadata.insert(defaultBookMetadata(id, `S${s} ${b}`, b, now));
      repos.media.insert({ bookId: id, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 3, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
      // Every user has finished the first book of every series and is reading the second.
      if (b < 3) {
        for (const u of Object.values(users)) {
          readDate += 1_000;
          repos.readProgress.upsert({ bookId: id, userId: u.id, page: b === 1 ? 3 : 2, completed: b === 1, readDate, deviceId: '', deviceName: '', created: readDate, lastModified: readDate });
        }
      }
    }
  }
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const key = (label: string) => label.normalize('NFC').toLowerCase();

/** SPEC §6 read plainly: shared libraries; allow rules are alternatives; every exclusion must pass. */
function sees(u: User, s: SeriesRow): boolean {
  if (!u.sharedAllLibraries && !u.sharedLibraryIds.includes(s.libraryId)) return false;
  const labels = s.labels.map(key);
  const allows: boolean[] = [];
  if (u.ageRestrictionType === 'ALLOW_ONLY') allows.push(s.age !== null && s.age <= u.ageRestriction!);
  if (u.labelsAllow.length > 0) allows.push(u.labelsAllow.some((l) => labels.includes(key(l))));
  if (allows.length > 0 && !allows.some(Boolean)) return false;
  if (u.ageRestrictionType === 'EXCLUDE' && s.age !== null && s.age >= u.ageRestriction!) return false;
  return !u.labelsExclude.some((l) => labels.includes(key(l)));
}

const visibleSeries = (u: User) => series.filter((s) => sees(u, s)).map((s) => s.id);
const visibleBooks = (u: User) => new Set(visibleSeries(u));
const restricted = Object.keys({ allowAge: 1, excludeAge: 1, allowLabel: 1, excludeLabel: 1, allowBoth: 1, everything: 1, excludeBoth: 1, noLibrary: 1 });

describe('restricted lists keep exactly the series the rules keep', () => {
  it.each(['admin', ...restricted])('%s: series, books, keep reading, on deck', (name) => {
    const u = users[name]!;
    const shown = visibleBooks(u);
    if (name !== 'noLibrary') expect(shown.size).toBeGreaterThan(0);
    if (name !== 'admin') expect(shown.size).toBeLessThan(series.length);
    const allSeries = searchSeries(db, { userId: u.id, restrictedTo: u, sort: [], limit: null, offset: 0 });
    expect(new Set(allSeries.ids)).toEqual(new Set(visibleSeries(u)));
    expect(allSeries.total).toBe(shown.size);
    const allBooks = searchBooks(db, { userId: u.id, restrictedTo: u, sort: [], limit: null, offset: 0 });
    expect(new Set(allBooks.ids)).toEqual(new Set(books.filter((b) => shown.has(b.seriesId)).map((b) => b.id)));
    const reading = searchBooks(db, { userId: u.id, restrictedTo: u, condition: { readStatus: { operator: 'is', value: 'IN_PROGRESS' } }, sort: [{ property: 'readProgress.readDate', direction: 'desc' }], limit: 5, offset: 0 });
    expect(reading.total).toBe(shown.size);
    const secondBooks = books.filter((_, i) => i % BOOKS === 1 && shown.has(books[i]!.seriesId)).map((b) => b.id);
    expect(reading.ids).toEqual(secondBooks.reverse().slice(0, 5));
    for (const id of series.map((s) => s.id)) expect(repos.series.isVisible(id, u)).toBe(shown.has(id));
  });
});

describe('a restricted reader gets the admin plan, with no per-row test', () => {
  const keepReading = (u: User) => () =>
    searchBooks(db, { userId: u.id, restrictedTo: u, condition: { allOf: [{ libraryId: { operator: 'is', value: libraries[0] } }, { readStatus: { operator: 'is', value: 'IN_PROGRESS' } }] }, sort: [{ property: 'readProgress.readDate', direction: 'desc' }], limit: 1, offset: 0 });

  it.each(restricted)('keep reading for %s is read from the reader progress', (name) => {
    const { plan } = withPlans(db, keepReading(users[name]!));
    // The restriction is a set built once per statement, never a subquery run for each book, and
    // built from the indexes, not by reading every series' row.
    expect(plan).not.toMatch(/CORRELATED|SCAN rsm USING INDEX sqlite_autoindex_series_metadata_1/);
    // An age rule's set of series not rated yet (content-restriction.ts notYetRated) is read from
    // the series' own counts (migration 016), not from the books awaiting analysis: that cost a few
    // searches per such book on every statement, 5 ms each with 2,000 of them.
    if (users[name]!.ageRestrictionType !== null) expect(plan).toMatch(/wc USING (COVERING )?INDEX series_media_counts_awaiting/);
    // Its books awaiting analysis (kept back even in a series shown) are asked of the mixed series'
    // partial index (migration 017) once per statement, and folded into the series test: as a term
    // of its own it made the planner count from every book of the library (the book_library test below).
    if (users[name]!.ageRestrictionType !== null) expect(plan).toMatch(/wn USING (COVERING )?INDEX series_media_counts_mixed/);
    expect(plan).not.toMatch(/SEARCH pm USING INDEX media_status/);
    // The page and its count (a page of 1 is full, so the total is counted: page-total.ts) start
    // from the reader's few progress rows, as the admin's do, not from every book of the library.
    expect(plan).toMatch(/SEARCH r USING INDEX read_progress_user/);
    expect(plan).not.toMatch(/SEARCH b USING INDEX book_library|SEARCH r USING INDEX sqlite_autoindex_read_progress_1/);
  });

  it('the admin plan is the one compared against', () => {
    const { plan } = withPlans(db, keepReading(users.admin!));
    expect(plan.match(/SEARCH r USING INDEX read_progress_user/g)?.length).toBe(2);
    expect(plan).not.toMatch(/SEARCH b USING INDEX book_library|SEARCH r USING INDEX sqlite_autoindex_read_progress_1/);
  });

  it.each(restricted)('series and on deck for %s have no per-row test', (name) => {
    const u = users[name]!;
    const { plan } = withPlans(db, () => {
      searchSeries(db, { userId: u.id, restrictedTo: u, sort: [{ property: 'metadata.titleSort', direction: 'asc' }], limit: 20, offset: 0 });
      searchBooks(db, { userId: u.id, restrictedTo: u, onDeck: true, sort: [{ property: 'seriesLastRead', direction: 'desc' }], limit: 20, offset: 0 });
    });
    expect(plan).not.toMatch(/CORRELATED SCALAR SUBQUERY \d+\n.*rsm/);
    expect(plan).not.toMatch(/SEARCH rsm USING INDEX sqlite_autoindex_series_metadata_1 \(series_id=\?\)/);
    // On deck still reads the candidate series' books through book_series.
    expect(plan).toMatch(/SEARCH yb USING INDEX book_series/);
  });
});

describe('one item is checked against its own series only', () => {
  it.each(restricted)('book and series checks for %s look the series up by key', (name) => {
    const u = users[name]!;
    // The statements books.isVisible and series.isVisible run (they are cached once prepared, so
    // explained here from the same restriction).
    const plans = [
      ['SELECT 1 FROM book b WHERE b.id = ?', BOOK_COLUMNS, books[0]!.id],
      ['SELECT 1 FROM series s WHERE s.id = ?', SERIES_COLUMNS, series[0]!.id],
    ].map(([head, columns, id]) => {
      const restriction = contentRestriction(u, columns as typeof BOOK_COLUMNS, 'item');
      if (!restriction) return '';
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${head as string} AND (${restriction.sql})`).all(id, ...restriction.params) as { detail: string }[];
      return rows.map((r) => r.detail).join('\n');
    });
    // The content guard asks this on every page of a restricted reader: building whole sets of
    // series for one row cost 3 ms a call at 5,500 series, a lookup of the row's series 0.05 ms.
    for (const plan of plans) expect(plan).not.toMatch(/SCAN rsm|INDEX series_metadata_age_rating \(age_rating|INDEX series_metadata_labelled \(series_id>/);
    if (name !== 'noLibrary') expect(plans.join('\n')).toMatch(/SEARCH rsm USING .*\(series_id=\?/);
  });
});
