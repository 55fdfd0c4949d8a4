import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { writeStoredCbz } from '../../fixtures/comics.ts';
import { decodeInputBytes } from '../../../server/media/image-decode.ts';
import { pageThumbnail } from '../../../server/domain/pages/page-thumbnails.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A page read for decoding (a page thumbnail, a conversion, a poster) held its encoded bytes while
 * it waited for one of the two image workers, counted nowhere: up to 256 queued decodes, each up to
 * 64 MiB, so a few readers opening the page strips of books of large scans held over a gigabyte.
 * Those bytes now count against decodeInputBytes from before they are read until their decode ends:
 * past it a request waits, then is answered 503 (Retry-After); background work waits its turn.
 */

let server: TestServer | undefined;
const { capacity, waitMs } = decodeInputBytes;
afterEach(async () => {
  await server?.close();
  server = undefined;
  Object.assign(decodeInputBytes, { capacity, waitMs });
});

const MiB = 1024 * 1024;
const PAGES = 12;

describe('pages waiting to be decoded', () => {
  it('count against one byte budget: many page thumbnails at once stay under it, the excess told to try again; background work waits', { timeout: 120_000 }, async () => {
    server = await startServer({ logLevel: 'error', logStdout: false });
    // Photographic noise, 1,600²: a JPEG of ~2.5 MB a page, as a large scan.
    const pages = [];
    for (let i = 0; i < PAGES; i++) {
      pages.push(await sharp({ create: { width: 1600, height: 1600, channels: 3, background: { r: 128, g: 128, b: 128 }, noise: { type: 'gaussian', mean: 128, sigma: 60 + i } } }).jpeg({ quality: 95 }).toBuffer());
    }
    const pageBytes = Math.max(...pages.map((page) => page.length));
    expect(pageBytes).toBeGreaterThan(2 * MiB);
    const root = join(server.dir, 'library');
    await writeStoredCbz(join(root, 'Scans', 'scans.cbz'), pages);
    await addLibrary(server, root);
    const book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: PAGES });

    // Room for three pages waiting or decoding, not twelve; requests wait at most 5 ms (a decode takes longer).
    const bound = 3 * pageBytes + MiB;
    Object.assign(decodeInputBytes, { capacity: bound, waitMs: 5 });
    let peak = 0;
    const reserve = decodeInputBytes.reserve.bind(decodeInputBytes);
    decodeInputBytes.reserve = async (...args) => {
      const held = await reserve(...args);
      peak = Math.max(peak, decodeInputBytes.inUse);
      return held;
    };
    try {
      const answers = await Promise.all(Array.from({ length: PAGES }, (_, i) => server!.get(`/api/v1/books/${book.id}/pages/${i + 1}/thumbnail`)));
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(3);
      const busy = answers.filter((answer) => answer.statusCode === 503);
      expect(busy.length).toBeGreaterThan(0);
      for (const answer of busy) expect(answer.headers['retry-after']).toBeDefined();
      expect(peak).toBeGreaterThan(2 * pageBytes);
      expect(peak).toBeLessThanOrEqual(bound);
      await pollUntil('every page given back', () => decodeInputBytes.inUse === 0, { timeoutMs: 10_000 });

      // Background work (no request's caller) waits past the requests' limit instead of failing.
      const ctx = server.app.folio;
      const media = ctx.repos.media.findByBookId(book.id)!;
      const blocker = await decodeInputBytes.reserve(bound, 'a test holding the budget');
      const numbers = answers.map((answer, i) => (answer.statusCode === 503 ? i + 1 : 0)).filter((n) => n > 0);
      expect(numbers.length).toBeGreaterThanOrEqual(2);
      const background = Promise.all(numbers.slice(1).map((n) => pageThumbnail(ctx, ctx.repos.books.findById(book.id)!, media.lastModified, n)));
      const settled = background.then(() => 'done', () => 'failed');
      // Longer than a request may wait: a request now would be refused.
      expect((await server.get(`/api/v1/books/${book.id}/pages/${numbers[0]}/thumbnail`)).statusCode).toBe(503);
      blocker.release();
      expect(await settled).toBe('done');
      for (const thumbnail of await background) expect(await sharp(thumbnail!).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 300 });
      expect(peak).toBeLessThanOrEqual(bound);
    } finally {
      decodeInputBytes.reserve = reserve;
    }
  });
});
