import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { openDatabase } from '../../../server/db/database.ts';
import { createRepositories } from '../../../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../server/db/book-metadata-repository.ts';
import { newId } from '../../../server/db/ids.ts';
import { startServer, type TestServer } from './helpers.ts';

/**
 * `unpaged=true` (Komga's web client asks it, any reader may) over more rows than a page can hold
 * was built in one turn of the event loop: 50,000 books held the server 2.3 s (bench/big-library.ts)
 * while every other client waited. It is now written in chunks, each on its own turn; the answer
 * must be the very same JSON the pages give.
 */

const SERIES = 250;
const BOOKS = 10; // 2,500 books: past the 2,000 a paged request can hold

const LONG_BOOK_PAGES = 10_000;

let server: TestServer;
let longBook = '';
let shortBook = '';

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-unpaged-'));
  const db = openDatabase(join(dir, 'data'));
  const repos = createRepositories(db);
  const now = Date.now();
  const libraryId = newId(now);
  db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraryId, 'L', join(dir, 'nowhere'), now, now);
  repos.inTransaction(() => {
    for (let s = 0; s < SERIES; s++) {
      const seriesId = newId(now);
      const title = `Series ${String(s).padStart(4, '0')}`;
      repos.series.insert({ id: seriesId, libraryId, name: title, url: `/s/${s}`, fileLastModified: now, oneshot: false, deletedDate: null, created: now, lastModified: now });
      repos.seriesMetadata.insert(defaultSeriesMetadata(seriesId, title, now));
      for (let b = 1; b <= BOOKS; b++) {
        const id = newId(now);
        repos.books.insert({ id, seriesId, libraryId, name: `${title} ${b}`, url: `/s/${s}/${b}.cbz`, number: b, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: null, created: now, lastModified: now });
        repos.bookMetadata.insert(defaultBookMetadata(id, `${title} ${b}`, b, now));
        repos.media.insert({ bookId: id, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 3, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
      }
    }
  });
  // A long webtoon: its page list is past one chunk.
  longBook = (db.prepare('SELECT id FROM book ORDER BY id LIMIT 1').get() as { id: string }).id;
  shortBook = (db.prepare('SELECT id FROM book ORDER BY id DESC LIMIT 1').get() as { id: string }).id;
  for (const [id, count] of [[longBook, LONG_BOOK_PAGES], [shortBook, 3]] as const) {
    const media = repos.media.findByBookId(id)!;
    repos.media.replaceAnalysis(
      { ...media, pageCount: count },
      Array.from({ length: count }, (_, i) => ({ number: i + 1, fileName: `p${i + 1}.jpg`, mediaType: 'image/jpeg', width: 800 + (i % 7), height: 1200, fileSize: 1000 + i })),
      [],
    );
  }
  db.close();
  server = await startServer({ dir });
});

afterAll(async () => {
  await server.close();
});

/** The longest turn of the event loop while `run` is under way, and how long it took in all. */
async function longestTurn<T>(run: () => Promise<T>): Promise<{ result: T; longest: number; total: number }> {
  let longest = 0;
  let running = true;
  const started = performance.now();
  let last = started;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await run();
    const ended = performance.now();
    // The turn under way when the answer came counts too (it may be the only one).
    return { result, longest: Math.max(longest, ended - last), total: ended - started };
  } finally {
    running = false;
  }
}

/**
 * `longestTurn` three times, keeping the run whose longest turn was the smallest share of it: a
 * garbage collection or another process can stretch one turn of a chunked answer, while an
 * answer built in one turn is one turn every time.
 */
async function bestOfThree<T>(run: () => Promise<T>): Promise<{ result: T; longest: number; total: number }> {
  let best: { result: T; longest: number; total: number } | undefined;
  for (let i = 0; i < 3; i++) {
    const measured = await longestTurn(run);
    if (!best || measured.longest / measured.total < best.longest / best.total) best = measured;
  }
  return best!;
}

describe('unpaged lists past one page', () => {
  it('answers all books as the pages do, built over many turns', async () => {
    await server.get('/api/v1/books?unpaged=true'); // warm-up: statements prepared, code compiled
    const { result: response, longest, total } = await bestOfThree(() => server.get('/api/v1/books?unpaged=true'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const unpaged = response.json() as Page<BookDto>;
    const first = await server.json<Page<BookDto>>('/api/v1/books?size=2000&page=0');
    const second = await server.json<Page<BookDto>>('/api/v1/books?size=2000&page=1');
    expect(unpaged.content).toEqual([...first.content, ...second.content]);
    expect(unpaged.content).toHaveLength(SERIES * BOOKS);
    const { content: _content, ...envelope } = unpaged;
    expect(envelope).toMatchObject({ totalElements: 2500, totalPages: 1, number: 0, size: 2500, numberOfElements: 2500, first: true, last: true, empty: false });
    expect(envelope.pageable).toMatchObject({ pageNumber: 0, pageSize: 2500, offset: 0, paged: true, unpaged: false });
    // 2,500 DTOs at 200 a turn: no turn holds the thread for half of the answer
    // (in one turn it was most of it).
    expect(longest, `longest turn ${longest.toFixed(1)} ms of ${total.toFixed(1)} ms`).toBeLessThan(total / 2);
  });

  it('answers all series with the same envelope as a page', async () => {
    const unpaged = await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true');
    const paged = await server.json<Page<SeriesDto>>('/api/v1/series?size=2000');
    expect(unpaged.content).toEqual(paged.content);
    expect(unpaged.totalElements).toBe(SERIES);
  });

  it('keeps small answers in memory with their ETag', async () => {
    const response = await server.get('/api/v1/books?size=50');
    expect(response.headers.etag).toMatch(/^"0[0-9a-f]{32}"$/);
  });
});

describe('a book of many pages', () => {
  it('lists every page in order, a chunk per turn', async () => {
    await server.get(`/api/v1/books/${longBook}/pages`); // warm-up
    const { result: response, longest, total } = await bestOfThree(() => server.get(`/api/v1/books/${longBook}/pages`));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const pages = response.json() as { number: number; fileName: string; mediaType: string; width: number; height: number; sizeBytes: number }[];
    expect(pages).toHaveLength(LONG_BOOK_PAGES);
    expect(pages.map((p) => p.number)).toEqual(Array.from({ length: LONG_BOOK_PAGES }, (_, i) => i + 1));
    expect(pages[4321]).toEqual({ number: 4322, fileName: 'p4322.jpg', mediaType: 'image/jpeg', width: 800 + (4321 % 7), height: 1200, sizeBytes: 1000 + 4321, size: expect.any(String) });
    expect(longest, `longest turn ${longest.toFixed(1)} ms of ${total.toFixed(1)} ms`).toBeLessThan(total / 2);
  });

  it('writes its Readium manifest, one link a page, over many turns: the JSON it was at once', async () => {
    await server.get(`/api/v1/books/${longBook}/manifest`); // warm-up
    const { result: response, longest, total } = await bestOfThree(() => server.get(`/api/v1/books/${longBook}/manifest`));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/divina\+json/);
    const manifest = response.json() as { metadata: { title: string; numberOfPages: number }; links: unknown[]; readingOrder: { href: string; width: number }[]; resources: unknown[]; toc: unknown[] };
    expect(manifest.readingOrder).toHaveLength(LONG_BOOK_PAGES);
    expect(manifest.readingOrder[4321]).toMatchObject({ href: expect.stringContaining(`/api/v1/books/${longBook}/pages/4322`), width: 800 + (4321 % 7) });
    expect(manifest.metadata.numberOfPages).toBe(LONG_BOOK_PAGES);
    // Its links are still made in one turn (about half of the answer); their JSON, the rest, is
    // written over many (all of it was one turn).
    expect(longest, `longest turn ${longest.toFixed(1)} ms of ${total.toFixed(1)} ms`).toBeLessThan(total * 0.75);
  });

  it('answers a short list from memory with its ETag', async () => {
    const response = await server.get(`/api/v1/books/${shortBook}/pages`);
    expect(response.json()).toHaveLength(3);
    expect(response.headers.etag).toMatch(/^"0[0-9a-f]{32}"$/);
  });
});

describe('an ordered read list of thousands of books', () => {
  it('answers in the list order, a chunk per turn', async () => {
    const all = await server.json<Page<BookDto>>('/api/v1/books?size=2000&page=0');
    const rest = await server.json<Page<BookDto>>('/api/v1/books?size=2000&page=1');
    // The list's own order: reversed, so a sort by anything else would show.
    const order = [...all.content, ...rest.content].map((b) => b.id).reverse();
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/readlists', headers: server.admin, payload: { name: 'Long', summary: '', ordered: true, bookIds: order } });
    expect(created.statusCode, created.body).toBe(200);
    const listId = (created.json() as { id: string }).id;
    const firstPage = await server.json<Page<BookDto>>(`/api/v1/readlists/${listId}/books?size=20`);
    expect(firstPage.content.map((b) => b.id)).toEqual(order.slice(0, 20));
    const { result: response, longest, total } = await bestOfThree(() => server.get(`/api/v1/readlists/${listId}/books?unpaged=true`));
    const unpaged = response.json() as Page<BookDto>;
    expect(unpaged.content.map((b) => b.id)).toEqual(order);
    expect(unpaged).toMatchObject({ totalElements: order.length, numberOfElements: order.length });
    expect(longest, `longest turn ${longest.toFixed(1)} ms of ${total.toFixed(1)} ms`).toBeLessThan(total / 2);
  });
});
