import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../server/db/database.ts';
import { type Repositories, createRepositories } from '../../../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../server/db/book-metadata-repository.ts';
import { newId } from '../../../server/db/ids.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';
import { searchSeries } from '../../../server/db/search/series-search.ts';
import { withPlans } from './query-plans.ts';
import { markReadingShape } from './support/reading-shapes.ts';

/**
 * On deck and the series read-status filter read the user's progress per series. On a big library
 * (bench/big-library.ts: 50,000 books, 300 progress rows) the planner walked all of the user's
 * progress rows for every book or series: on deck took 11–23 s, a read-status filter 3 s, all of it
 * on the server's one thread. These check that the answers match a plain reading of the rules and
 * that the plans go through the series' own books, not the whole library or all of a user's progress.
 */

const USERS = ['U-A', 'U-B'];
const SERIES = 40;
const BOOKS = 4;

let dir: string;
let db: Db;
let repos: Repositories;
const books: { id: string; seriesId: string; number: number; deleted: boolean }[] = [];
const seriesIds: string[] = [];
const progress: { bookId: string; userId: string; completed: boolean; readDate: number }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-progress-plans-'));
  db = openDatabase(join(dir, 'data'));
  repos = createRepositories(db);
  const now = Date.now();
  const libraryId = newId(now);
  db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraryId, 'L', '/nowhere', now, now);
  for (const id of USERS) {
    db.prepare(`INSERT INTO user (id, email, password_hash, roles, shared_all_libraries, shared_library_ids, labels_allow, labels_exclude, created, last_modified)
                VALUES (?, ?, '', '[]', 1, '[]', '[]', '[]', ?, ?)`).run(id, `${id}@example.org`, now, now);
  }
  let readDate = now - 1_000_000;
  for (let s = 0; s < SERIES; s++) {
    const seriesId = newId(now);
    seriesIds.push(seriesId);
    repos.series.insert({ id: seriesId, libraryId, name: `S${s}`, url: `/s/${s}`, fileLastModified: now, oneshot: false, deletedDate: null, created: now, lastModified: now });
    repos.seriesMetadata.insert(defaultSeriesMetadata(seriesId, `S${s}`, now));
    for (let b = 1; b <= BOOKS; b++) {
      const id = newId(now);
      // Every seventh series has its first book deleted: it neither counts nor is offered.
      const deleted = s % 7 === 3 && b === 1;
      books.push({ id, seriesId, number: b, deleted });
      repos.books.insert({ id, seriesId, libraryId, name: `S${s} ${b}`, url: `/s/${s}/${b}.cbz`, number: b, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: deleted ? now : null, created: now, lastModified: now });
      repos.bookMetadata.insert(defaultBookMetadata(id, `S${s} ${b}`, b, now));
      repos.media.insert({ bookId: id, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 3, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
    }
  }
  // Per series and user, one of several progress shapes: none, first read, first read and second
  // part-read, all read, only the second read (first still unread), the deleted one read.
  for (const [u, userId] of USERS.entries()) {
    for (let s = 0; s < SERIES; s++) {
      const own = books.filter((b) => b.seriesId === seriesIds[s]);
      const shape = (s + u * 3) % 6;
      const mark = (index: number, completed: boolean) => {
        readDate += 1_000;
        progress.push({ bookId: own[index]!.id, userId, completed, readDate });
        repos.readProgress.upsert({ bookId: own[index]!.id, userId, page: completed ? 3 : 2, completed, readDate, deviceId: '', deviceName: '', created: readDate, lastModified: readDate });
      };
      markReadingShape(shape, own.length, mark);
    }
  }
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const live = (seriesId: string) => books.filter((b) => b.seriesId === seriesId && !b.deleted);
const progressOf = (userId: string, bookId: string) => progress.find((p) => p.userId === userId && p.bookId === bookId);

/** REFERENCE §3.5 read plainly: series with a finished live book and none in progress, first unread live book, latest read series first. */
function expectedOnDeck(userId: string): string[] {
  const rows: { id: string; lastRead: number }[] = [];
  for (const seriesId of seriesIds) {
    const own = live(seriesId);
    const states = own.map((b) => progressOf(userId, b.id));
    if (!states.some((p) => p?.completed) || states.some((p) => p && !p.completed)) continue;
    const first = own.find((b) => !progressOf(userId, b.id));
    if (!first) continue;
    const lastRead = Math.max(...books.filter((b) => b.seriesId === seriesId).map((b) => progressOf(userId, b.id)?.readDate ?? 0));
    rows.push({ id: first.id, lastRead });
  }
  return rows.sort((a, b) => b.lastRead - a.lastRead).map((r) => r.id);
}

function expectedReadStatus(userId: string, status: string): string[] {
  return seriesIds.filter((seriesId) => {
    const states = live(seriesId).map((b) => progressOf(userId, b.id));
    const read = states.filter((p) => p?.completed).length;
    const inProgress = states.filter((p) => p && !p.completed).length;
    if (status === 'READ') return states.length > 0 && read === states.length;
    if (status === 'UNREAD') return read === 0 && inProgress === 0;
    return inProgress > 0 || (read > 0 && read < states.length);
  });
}

describe('on deck', () => {
  it.each(USERS)('offers the first unread book of each started series, latest read first (%s)', (userId) => {
    const { result, plan } = withPlans(db, () =>
      searchBooks(db, { userId, onDeck: true, sort: [{ property: 'seriesLastRead', direction: 'desc' }], limit: null, offset: 0 }),
    );
    expect(expectedOnDeck(userId).length).toBeGreaterThan(3);
    expect(result.ids).toEqual(expectedOnDeck(userId));
    expect(result.total).toBe(result.ids.length);
    // Candidate books come from the candidate series (book_series), never from reading every book.
    expect(plan).not.toMatch(/^SCAN b$/m);
    // The series' last read date is found through its own books, not all of the user's progress.
    expect(plan).toMatch(/SEARCH xb USING INDEX book_series/);
  });
});

describe('on deck in one library', () => {
  it.each(USERS)('starts from the on-deck books, not from every book of the library (%s)', (userId) => {
    const libraryId = (db.prepare('SELECT id FROM library').get() as { id: string }).id;
    const condition = { anyOf: [{ libraryId: { operator: 'is', value: libraryId } }] };
    const { result, plan } = withPlans(db, () =>
      searchBooks(db, { userId, condition, onDeck: true, sort: [{ property: 'seriesLastRead', direction: 'desc' }], limit: 3, offset: 0 }),
    );
    expect(result.ids).toEqual(expectedOnDeck(userId).slice(0, 3));
    expect(result.total).toBe(expectedOnDeck(userId).length);
    // bench/big-library.ts: the library filter made SQLite read all 50,000 of its books (book_library)
    // and test each one against the on-deck rules, page and count alike.
    expect(plan).not.toMatch(/book_library/);
    expect(plan).not.toMatch(/^SCAN b$/m);
  });
});

describe('series read status', () => {
  it.each(USERS.flatMap((u) => ['READ', 'UNREAD', 'IN_PROGRESS'].map((s) => [u, s] as const)))('%s %s matches the counts over live books', (userId, status) => {
    const { result, plan } = withPlans(db, () =>
      searchSeries(db, { userId, condition: { readStatus: { operator: 'is', value: status } }, sort: [], limit: null, offset: 0 }),
    );
    expect(new Set(result.ids)).toEqual(new Set(expectedReadStatus(userId, status)));
    expect(result.ids.length).toBeGreaterThan(0);
    // Per-series counts go through the series' books, not every progress row of the user.
    expect(plan).not.toMatch(/read_progress_user/);
  });
});
