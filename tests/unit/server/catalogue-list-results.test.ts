import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/database.ts';
import type { Page } from '../../../src/api/types.ts';
import { defaultSeriesMetadata } from '../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../server/db/book-metadata-repository.ts';
import { newId } from '../../../server/db/ids.ts';
import { basic, startServer, type TestServer } from './helpers.ts';
import { markReadingShape } from './support/reading-shapes.ts';

/**
 * The big-library work (bench/big-library.ts) changed how lists are read: on deck starts from its
 * own books, counts join only what their conditions read, a reader shared a small library starts
 * from it. None of that may change an answer. A real server on a catalogue of three libraries (one
 * small and oldest) mixing age ratings, sharing labels, deleted books and read states answers each
 * list, page by page and whole, for the admin and restricted readers; every page is compared with
 * the rules read plainly (SPEC §6, REFERENCE §3.5): the ids in order, totalElements, totalPages.
 */
interface SeriesRow { id: string; library: LibraryName; title: string; age: number | null; labels: string[]; created: number }
interface BookRow { id: string; seriesId: string; library: LibraryName; number: number; lastModified: number; deleted: boolean }
type LibraryName = 'big' | 'other' | 'small';
interface Reader { name: string; password: string; libraries: LibraryName[] | 'all'; ageAllowOnly?: number; labelsExclude?: string[]; id?: string }

const AGES = [null, 6, 12, 16, 18];
const LABELS = [[], ['adult'], ['kids'], [], ['Adult', 'kids']];
const SIZES: Record<LibraryName, number> = { small: 3, big: 24, other: 6 };
const BOOKS = 4;
const READERS: Reader[] = [
  { name: 'admin', password: '', libraries: 'all' },
  { name: 'reader', password: 'reader-password', libraries: ['big'], ageAllowOnly: 12, labelsExclude: ['adult'] },
  { name: 'share', password: 'share-password', libraries: ['small'] },
  { name: 'share-no-adult', password: 'share-password', libraries: ['small', 'other'], labelsExclude: ['ADULT'] },
];

let server: TestServer;
let serverDir: string | undefined;
const libraries = {} as Record<LibraryName, string>;
const series: SeriesRow[] = [];
const books: BookRow[] = [];
const progress = new Map<string, { completed: boolean; readDate: number }>();
const key = (userId: string, bookId: string) => `${userId} ${bookId}`;

beforeAll(async () => {
  const now = Date.now();
  // The libraries are written before the server starts (it remembers its libraries), with no
  // folder to scan: their rows are written below through the repositories, as a scan writes them.
  const dir = await mkdtemp(join(tmpdir(), 'folio-list-results-'));
  const db = openDatabase(join(dir, 'data'));
  for (const name of ['small', 'big', 'other'] as const) {
    libraries[name] = newId(now);
    db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraries[name], name, `/nowhere/${name}`, now, now);
  }
  db.close();
  server = await startServer({ dir });
  serverDir = dir;
  const repos = server.app.folio.repos;
  // Oldest first: the small library's rows are met last in date order.
  let clock = now - 10_000_000;
  for (const name of ['small', 'big', 'other'] as const) {
    for (let s = 0; s < SIZES[name]; s++) {
      const n = series.length;
      clock += 1_000;
      // Titles out of creation order, and two sharing a sort title but for case.
      const row: SeriesRow = { id: newId(now), library: name, title: `${n % 2 ? 'Saga' : 'saga'} ${String((n * 7) % 29).padStart(2, '0')}`, age: AGES[n % AGES.length]!, labels: LABELS[n % LABELS.length]!, created: clock };
      series.push(row);
      repos.series.insert({ id: row.id, libraryId: libraries[name], name: row.title, url: `/${name}/${s}`, fileLastModified: now, oneshot: false, deletedDate: null, created: clock, lastModified: clock });
      repos.seriesMetadata.insert({ ...defaultSeriesMetadata(row.id, row.title, now), ageRating: row.age, sharingLabels: row.labels });
      for (let b = 1; b <= BOOKS; b++) {
        const deleted = (n + b) % 9 === 0;
        // Ties on the date between series: the id decides.
        const book: BookRow = { id: newId(now), seriesId: row.id, library: name, number: b, lastModified: clock + (b % 3), deleted };
        books.push(book);
        repos.books.insert({ id: book.id, seriesId: row.id, libraryId: libraries[name], name: `${row.title} ${b}`, url: `/${name}/${s}/${b}.cbz`, number: b, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: deleted ? now : null, created: book.lastModified, lastModified: book.lastModified });
        repos.bookMetadata.insert(defaultBookMetadata(book.id, `${row.title} ${b}`, b, now));
        repos.media.insert({ bookId: book.id, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 3, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
      }
    }
  }
  for (const reader of READERS) {
    if (reader.name === 'admin') {
      reader.id = repos.users.findAll().find((u) => u.roles.includes('ADMIN'))!.id;
      continue;
    }
    const response = await server.app.inject({
      method: 'POST', url: '/api/v2/users', headers: server.admin,
      payload: {
        email: `${reader.name}@example.org`, password: reader.password, roles: [],
        sharedLibraries: reader.libraries === 'all' ? { all: true, libraryIds: [] } : { all: false, libraryIds: reader.libraries.map((l) => libraries[l]) },
        labelsExclude: reader.labelsExclude ?? [],
        ...(reader.ageAllowOnly !== undefined ? { ageRestriction: { age: reader.ageAllowOnly, restriction: 'ALLOW_ONLY' } } : {}),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    reader.id = response.json<{ id: string }>().id;
  }
  // Read states per series and reader: none, first read, first read and second started, all read,
  // second read only, first and third read.
  let readDate = now - 1_000_000;
  for (const [u, reader] of READERS.entries()) {
    for (const [s, row] of series.entries()) {
      const own = books.filter((b) => b.seriesId === row.id);
      const mark = (index: number, completed: boolean) => {
        readDate += 1_000;
        progress.set(key(reader.id!, own[index]!.id), { completed, readDate });
        repos.readProgress.upsert({ bookId: own[index]!.id, userId: reader.id!, page: completed ? 3 : 2, completed, readDate, deviceId: '', deviceName: '', created: readDate, lastModified: readDate });
      };
      markReadingShape((s + u) % 6, own.length, mark);
    }
  }
});

afterAll(async () => {
  await server?.close();
  if (serverDir) await rm(serverDir, { recursive: true, force: true });
});

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const seriesOf = (book: BookRow) => series.find((s) => s.id === book.seriesId)!;

/** SPEC §6 read plainly: shared libraries, ALLOW_ONLY n keeps rated ≤ n (unrated hidden), excluded labels in any case. */
function visible(reader: Reader, row: SeriesRow): boolean {
  if (reader.libraries !== 'all' && !reader.libraries.includes(row.library)) return false;
  if (reader.ageAllowOnly !== undefined && (row.age === null || row.age > reader.ageAllowOnly)) return false;
  const excluded = (reader.labelsExclude ?? []).map((l) => l.toLowerCase());
  return !row.labels.some((l) => excluded.includes(l.toLowerCase()));
}
const visibleBooks = (reader: Reader) => books.filter((b) => visible(reader, seriesOf(b)));

const expected = {
  latest: (reader: Reader) =>
    visibleBooks(reader).filter((b) => !b.deleted).sort((a, b) => b.lastModified - a.lastModified || byId(a, b)).map((b) => b.id),
  // Default book order: the series' sort title without regard to case, the number, the id.
  books: (reader: Reader, library?: LibraryName) =>
    visibleBooks(reader)
      .filter((b) => !library || b.library === library)
      .sort((a, b) => {
        const [ta, tb] = [seriesOf(a).title.toLowerCase(), seriesOf(b).title.toLowerCase()];
        return ta < tb ? -1 : ta > tb ? 1 : a.number - b.number || byId(a, b);
      })
      .map((b) => b.id),
  newSeries: (reader: Reader) => series.filter((s) => visible(reader, s)).sort((a, b) => b.created - a.created || byId(a, b)).map((s) => s.id),
  // REFERENCE §3.5: series with a finished live book and none in progress, its first unread live book, latest read series first.
  onDeck: (reader: Reader, library: LibraryName) => {
    const rows: { id: string; lastRead: number }[] = [];
    for (const row of series.filter((s) => s.library === library && visible(reader, s))) {
      const own = books.filter((b) => b.seriesId === row.id);
      const live = own.filter((b) => !b.deleted).sort((a, b) => a.number - b.number || byId(a, b));
      const states = live.map((b) => progress.get(key(reader.id!, b.id)));
      if (!states.some((p) => p?.completed) || states.some((p) => p && !p.completed)) continue;
      const first = live.find((b) => !progress.has(key(reader.id!, b.id)));
      if (!first) continue;
      rows.push({ id: first.id, lastRead: Math.max(...own.map((b) => progress.get(key(reader.id!, b.id))?.readDate ?? 0)) });
    }
    return rows.sort((a, b) => b.lastRead - a.lastRead || byId(a, b)).map((r) => r.id);
  },
};

async function page<T>(reader: Reader, url: string): Promise<Page<T>> {
  const headers = reader.name === 'admin' ? server.admin : { authorization: basic(`${reader.name}@example.org`, reader.password) };
  return server.json<Page<T>>(url, headers);
}

/** Every page of `url` at `size`, one past the end, and the whole list, against `ids`. */
async function expectPages(reader: Reader, url: string, ids: string[], size: number): Promise<void> {
  const join = url.includes('?') ? '&' : '?';
  const pages = Math.ceil(ids.length / size);
  for (let p = 0; p <= pages; p++) {
    const answer = await page<{ id: string }>(reader, `${url}${join}page=${p}&size=${size}`);
    const where = `${reader.name} ${url} page ${p}`;
    expect(answer.content.map((item) => item.id), where).toEqual(ids.slice(p * size, (p + 1) * size));
    expect(answer.totalElements, where).toBe(ids.length);
    expect(answer.totalPages, where).toBe(pages);
    expect(answer.last, where).toBe(p >= pages - 1);
  }
  const whole = await page<{ id: string }>(reader, `${url}${join}unpaged=true`);
  expect(whole.content.map((item) => item.id), `${reader.name} ${url} unpaged`).toEqual(ids);
  expect(whole.totalElements).toBe(ids.length);
}

describe.each(READERS.map((r) => [r.name, r] as const))('lists for %s', (_, reader) => {
  it('latest books', async () => {
    expect(expected.latest(reader).length).toBeGreaterThan(5);
    await expectPages(reader, '/api/v1/books/latest', expected.latest(reader), 5);
  });

  it('books in the default order, everywhere and per library', async () => {
    await expectPages(reader, '/api/v1/books', expected.books(reader), 7);
    for (const library of ['small', 'big'] as const) {
      await expectPages(reader, `/api/v1/books?library_id=${libraries[library]}`, expected.books(reader, library), 7);
    }
  });

  it('new series', async () => {
    await expectPages(reader, '/api/v1/series/new', expected.newSeries(reader), 4);
  });

  it('on deck of each library', async () => {
    for (const library of ['small', 'big', 'other'] as const) {
      await expectPages(reader, `/api/v1/books/ondeck?library_id=${libraries[library]}`, expected.onDeck(reader, library), 2);
    }
    expect(expected.onDeck(reader, reader.libraries === 'all' || reader.libraries.includes('big') ? 'big' : 'small').length).toBeGreaterThan(0);
  });
});
