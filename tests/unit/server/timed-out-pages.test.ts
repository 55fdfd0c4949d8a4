import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { rarWorker } from '../../../server/media/rar-client.ts';
import { sevenZip } from '../../../server/media/sevenzip-client.ts';
import { GREEN, RED, renderPage } from '../../fixtures/index.ts';
import { writeRar5 } from '../../fixtures/rar.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/**
 * A RAR or 7z page whose unpacking runs out of its time limit holds a worker for the whole limit
 * (30 s, 60 s). Asked for again within a while it is refused at once, saying why, rather than
 * taking a worker for another whole limit; RAR pages were, 7z pages were not.
 */
let server: TestServer;
let books: Map<string, BookDto>;
beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  const pages = [
    { name: 'p1.png', data: await renderPage({ width: 60, height: 90, color: RED, format: 'png' }) },
    { name: 'p2.png', data: await renderPage({ width: 60, height: 90, color: GREEN, format: 'png' }) },
  ];
  await writeRar5(join(root, 'R', 'book.cbr'), pages);
  await writeSevenZip(join(root, 'S', 'book.cb7'), pages);
  await addLibrary(server, root);
  books = new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.url.endsWith('.cbr') ? 'RAR' : '7z', b]));
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe.each([
  ['RAR', rarWorker],
  ['7z', sevenZip],
] as const)('a %s page that ran out of time', (format, client) => {
  it('is refused at once when asked for again, with a message saying why', async () => {
    const book = books.get(format)!;
    expect(book.media.status).toBe('READY');
    // The book is opened (listed) with the usual limit (page 2 first: 7z unpacks members after a
    // page with it, for the next page turns); then every call runs out of time: each has
    // a fresh worker (a time-out ends its worker; this stop ends the warm ones), slower than 1 ms.
    expect((await server.get(`/api/v1/books/${book.id}/pages/2`)).statusCode).toBe(200);
    await client.stop();
    const limit = client.timeLimitMs;
    client.timeLimitMs = 1;
    try {
      const calls = client.calls;
      const first = await server.get(`/api/v1/books/${book.id}/pages/1`);
      // The time-out starts the refusal, and its answer says for how long (a minute after a first one; timed-out-inputs.ts).
      expect(first.statusCode).toBe(503);
      expect(first.json()).toMatchObject({ message: 'This content took longer than the 1 ms allowed to read and is refused for a while; try again later' });
      expect(first.headers['retry-after']).toBe('60');
      expect(client.calls - calls).toBe(1);
      const again = await server.get(`/api/v1/books/${book.id}/pages/1`);
      expect(again.statusCode).toBe(503);
      expect(again.json()).toMatchObject({ message: 'This content took longer than the 1 ms allowed to read and is refused for a while; try again later' });
      // Until the page is tried again.
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Before (7z): the page took a worker for another whole time limit.
      expect(client.calls - calls).toBe(1);
    } finally {
      client.timeLimitMs = limit;
    }
    // Other pages of the book still read.
    expect((await server.get(`/api/v1/books/${book.id}/pages/2`)).statusCode).toBe(200);
  }, 60_000);
});
