import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../../../server/db/database.ts';
import { type Repositories, createRepositories } from '../../../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../server/db/book-metadata-repository.ts';
import type { User } from '../../../server/db/user-repository.ts';
import { newId } from '../../../server/db/ids.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';
import { searchSeries } from '../../../server/db/search/series-search.ts';
import { withPlans } from './query-plans.ts';

/**
 * A reader shared one small library among big ones paid what the admin pays: the shared-library
 * test was always a filter, so "latest books" walked the whole date index (looking each book's
 * library up) to find the small library's newest, and every count scanned every book. When the
 * shared libraries hold a small part of the rows, the lists now start from them; a reader shared
 * a big library keeps its former plan. Results are the same either way.
 */
let dir: string;
let db: Db;
let repos: Repositories;
const libraries: Record<'big' | 'small', string> = { big: '', small: '' };
const books: { id: string; libraryId: string; lastModified: number }[] = [];
const series: { id: string; libraryId: string; created: number }[] = [];
const users: Record<string, User> = {};

function addSeries(libraryId: string, name: string, created: number, count: number): void {
  const now = Date.now();
  const id = newId(now);
  series.push({ id, libraryId, created });
  repos.series.insert({ id, libraryId, name, url: `/${name}`, fileLastModified: now, oneshot: false, deletedDate: null, created, lastModified: created });
  repos.seriesMetadata.insert(defaultSeriesMetadata(id, name, now));
  for (let b = 1; b <= count; b++) {
    const bookId = newId(now);
    // Ties on the date across series: the id decides.
    const lastModified = created + (b % 3);
    books.push({ id: bookId, libraryId, lastModified });
    repos.books.insert({ id: bookId, seriesId: id, libraryId, name: `${name} ${b}`, url: `/${name}/${b}.cbz`, number: b, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: null, created: lastModified, lastModified });
    repos.bookMetadata.insert(defaultBookMetadata(bookId, `${name} ${b}`, b, now));
    repos.media.insert({ bookId, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 3, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
  }
}

function user(id: string, libraryIds: string[]): User {
  const now = Date.now();
  const u: User = {
    id, email: `${id}@example.org`, passwordHash: '', roles: [], sharedAllLibraries: false, sharedLibraryIds: libraryIds,
    labelsAllow: [], labelsExclude: [], ageRestriction: null, ageRestrictionType: null, created: now, lastModified: now,
  };
  repos.users.insert(u);
  return u;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-small-share-'));
  db = openDatabase(join(dir, 'data'));
  repos = createRepositories(db);
  const now = Date.now();
  for (const name of ['big', 'small'] as const) {
    libraries[name] = newId(now);
    db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraries[name], name, `/nowhere/${name}`, now, now);
  }
  // The small library is the oldest: a walk in date order meets its books last.
  for (let s = 0; s < 3; s++) addSeries(libraries.small, `small ${s}`, now - 1_000_000 + s, 4);
  for (let s = 0; s < 40; s++) addSeries(libraries.big, `big ${s}`, now - 500_000 + s * 10, 4);
  users.small = user('small', [libraries.small]);
  users.big = user('big', [libraries.big]);
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.useRealTimers();
});

const newest = (libraryId: string) =>
  books.filter((b) => b.libraryId === libraryId).sort((a, b) => b.lastModified - a.lastModified || (a.id < b.id ? -1 : 1)).map((b) => b.id);
const latest = (u: User, limit: number, offset: number) =>
  searchBooks(db, { userId: u.id, restrictedTo: u, condition: { deleted: { operator: 'isFalse' } }, sort: [{ property: 'lastModified', direction: 'desc' }], limit, offset });

describe('a reader shared one small library', () => {
  it('gets the latest books from that library, in order, with exact totals, starting from it', () => {
    const expected = newest(libraries.small);
    for (const [limit, offset] of [[5, 0], [5, 5], [5, 10], [4, 8]] as const) {
      const { result, plan } = withPlans(db, () => latest(users.small!, limit, offset));
      expect(result.ids).toEqual(expected.slice(offset, offset + limit));
      expect(result.total).toBe(expected.length);
      expect(plan).toMatch(/SEARCH b USING (COVERING )?INDEX book_library/);
      expect(plan).not.toMatch(/SCAN b USING INDEX book_last_modified/);
    }
  });

  it('counts its series from that library', () => {
    const { result, plan } = withPlans(db, () =>
      searchSeries(db, { userId: users.small!.id, restrictedTo: users.small, sort: [{ property: 'created', direction: 'desc' }], limit: 2, offset: 0 }),
    );
    expect(result.total).toBe(3);
    expect(result.ids).toEqual(series.filter((s) => s.libraryId === libraries.small).sort((a, b) => b.created - a.created).slice(0, 2).map((s) => s.id));
    expect(plan).toMatch(/SEARCH s USING (COVERING )?INDEX series_library/);
  });

  it('a reader shared the big library does not start from it', () => {
    const expected = newest(libraries.big);
    latest(users.big!, 1, 0); // library sizes read once, outside the plans compared
    const { result, plan } = withPlans(db, () => latest(users.big!, 5, 10));
    expect(result.ids).toEqual(expected.slice(10, 15));
    expect(result.total).toBe(expected.length);
    expect(plan).not.toMatch(/SEARCH b USING (COVERING )?INDEX book_library/);
  });

  it('sees the libraries grow: once the small one is big, its reader walks the date index too', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    expect(withPlans(db, () => latest(users.small!, 5, 0)).plan).toMatch(/SEARCH b USING (COVERING )?INDEX book_library/);
    addSeries(libraries.small, 'small grown', Date.now() - 2_000_000, 200);
    // Sizes are read again after a write, at most every few seconds.
    vi.setSystemTime(Date.now() + 60_000);
    const { result, plan } = withPlans(db, () => latest(users.small!, 5, 0));
    expect(result.ids).toEqual(newest(libraries.small).slice(0, 5));
    expect(plan).not.toMatch(/SEARCH b USING (COVERING )?INDEX book_library/);
  });
});
