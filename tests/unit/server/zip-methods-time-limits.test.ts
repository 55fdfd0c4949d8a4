import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { analysisBounds } from '../../../server/media/analysis-bounds.ts';
import { sevenZip } from '../../../server/media/sevenzip-client.ts';
import { oddZip } from '../../fixtures/odd-zip.ts';
import { sevenZipPayload } from '../../fixtures/zip-methods.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Zip entries of other compression methods are unpacked by 7-Zip in its worker pool, each call
 * within the pool's time limit (zip-entry-methods.ts). What a call that runs out of time means:
 * during analysis, a loaded machine (made again at once, counted against the book's bound, past
 * which the book is ERROR); for a page, a 503 that is not made again at once by the next reader.
 */

let server: TestServer;
const defaultLimit = sevenZip.timeLimitMs;
const defaultWorkMs = analysisBounds.workMs;
let pages: Buffer[];

beforeEach(async () => {
  server = await startServer();
  pages = await Promise.all(
    [[200, 40, 40] as const, [40, 40, 200] as const].map(([r, g, b]) =>
      sharp({ create: { width: 50, height: 70, channels: 3, background: { r, g, b } } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    ),
  );
  const root = join(server.dir, 'library');
  await mkdir(join(root, 'Slow'), { recursive: true });
  const entries = [];
  for (const [i, data] of pages.entries()) {
    const packed = await sevenZipPayload(data, 'BZip2');
    entries.push({ name: `0${i + 1}.png`, data, method: packed.method, payload: packed.payload });
  }
  await writeFile(join(root, 'Slow', 'slow.cbz'), oddZip(entries));
});
afterEach(async () => {
  Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, writable: true, enumerable: true, value: defaultLimit });
  analysisBounds.workMs = defaultWorkMs;
  await server.close();
});

/** The next `count` 7-Zip calls get a 1 ms limit (a fresh worker is slower than that to start), the rest the normal one. */
function timeOutNext(count: number): void {
  let left = count;
  Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, get: () => (left-- > 0 ? 1 : defaultLimit) });
}

const theBook = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!;

describe('zip entries of other methods against the 7-Zip time limit', () => {
  it('analysis makes a call that ran out of time again at once: the book READY with every page', async () => {
    await sevenZip.stop();
    const calls = sevenZip.calls;
    timeOutNext(2);
    await addLibrary(server, join(server.dir, 'library'));
    expect((await theBook()).media).toMatchObject({ status: 'READY', comment: '', pagesCount: 2 });
    // Two time-outs, then one call for each page.
    expect(sevenZip.calls - calls).toBeGreaterThanOrEqual(4);
  });

  it('an entry that always runs out of time ends the analysis past the bound on 7-Zip\'s time: ERROR ERR_1008', async () => {
    await sevenZip.stop();
    analysisBounds.workMs = 3;
    timeOutNext(Number.POSITIVE_INFINITY);
    await addLibrary(server, join(server.dir, 'library'));
    expect((await theBook()).media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008' });
  });

  it('a page read that runs out of time is 503, and the next reader of it is answered at once without 7-Zip', async () => {
    await addLibrary(server, join(server.dir, 'library'));
    const book = await theBook();
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 2 });
    await sevenZip.stop();
    timeOutNext(Number.POSITIVE_INFINITY);
    const timedOut = await server.get(`/api/v1/books/${book.id}/pages/2`);
    expect(timedOut.statusCode).toBe(503);
    expect(timedOut.headers['retry-after']).toBeDefined();
    const calls = sevenZip.calls;
    const again = await server.get(`/api/v1/books/${book.id}/pages/2`);
    expect(again.statusCode).toBe(503);
    expect(sevenZip.calls).toBe(calls);
    expect((await theBook()).media).toEqual(book.media);
    // The limit back to normal: the book's other page reads as ever.
    Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, writable: true, enumerable: true, value: defaultLimit });
    const other = await server.get(`/api/v1/books/${book.id}/pages/1`);
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.equals(pages[0]!)).toBe(true);
  });
});
