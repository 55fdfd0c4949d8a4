import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { rarWorker } from '../../../server/media/rar-client.ts';
import { sevenZip } from '../../../server/media/sevenzip-client.ts';
import { GREEN, RED, renderPage } from '../../fixtures/index.ts';
import { type RarMember, writeRar5 } from '../../fixtures/rar.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A page of a READY RAR or 7z book whose handle was closed (another book needed the slot, the
 * server restarted) opens the book again: its listing runs in the unpacker's worker. When that
 * listing ran out of time, the page request made it twice more (listWithinBounds, meant for
 * analysis), waiting three time limits (90 s of unrar's, 3 min of 7-Zip's), and then answered 422
 * "Book content cannot be read (ERR_1008)". Now a request lists once and is answered 503 with
 * Retry-After; the book stays READY; and however slow the listing, a request waits a bounded time.
 */

let server: TestServer | undefined;
const limits = { rar: rarWorker.timeLimitMs, sevenZip: sevenZip.timeLimitMs };
afterEach(async () => {
  rarWorker.timeLimitMs = limits.rar;
  sevenZip.timeLimitMs = limits.sevenZip;
  await server?.close();
  server = undefined;
});

async function pages() {
  return [
    { name: 'p1.png', data: await renderPage({ width: 60, height: 90, color: RED, format: 'png' }) },
    { name: 'p2.png', data: await renderPage({ width: 60, height: 90, color: GREEN, format: 'png' }) },
  ];
}

const books = async (s: TestServer) => (await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;

describe('a page of a READY archive book whose listing runs out of time', () => {
  it('is 503 with Retry-After after one listing, and the book stays READY', async () => {
    const s = (server = await startServer());
    const root = join(s.dir, 'library');
    await writeRar5(join(root, 'R', 'book.cbr'), await pages());
    await writeSevenZip(join(root, 'S', 'book.cb7'), await pages());
    await addLibrary(s, root);
    const ready = await books(s);
    expect(ready.map((b) => b.media.status)).toEqual(['READY', 'READY']);

    // The handles go (as when other books need the slots); from now on every call runs out of time
    // (a fresh worker alone takes longer than 1 ms to start).
    for (const book of ready) s.app.folio.archives.forget(book.url);
    await Promise.all([rarWorker.stop(), sevenZip.stop()]);
    rarWorker.timeLimitMs = 1;
    sevenZip.timeLimitMs = 1;

    for (const book of ready) {
      const client = book.url.endsWith('.cbr') ? rarWorker : sevenZip;
      const before = client.calls;
      const response = await s.get(`/api/v1/books/${book.id}/pages/1`);
      // Before: 422 (ERR_1008) after three listings.
      expect({ url: book.url, status: response.statusCode, calls: client.calls - before }).toEqual({ url: book.url, status: 503, calls: 1 });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      // Asked again: refused at once, no worker held for another time limit.
      const again = await s.get(`/api/v1/books/${book.id}/pages/2`);
      expect({ status: again.statusCode, calls: client.calls - before }).toEqual({ status: 503, calls: 1 });
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Nothing stored against the books.
    expect((await books(s)).map((b) => [b.media.status, b.media.comment])).toEqual([
      ['READY', ''],
      ['READY', ''],
    ]);
  }, 60_000);

  it('waits a bounded time for a slow listing (503, Retry-After), which goes on and serves the next request', async () => {
    const s = (server = await startServer({ archivePool: { openWaitMs: 100 } }));
    const root = join(s.dir, 'library');
    // 90,000 folder headers before the page (within MAX_ARCHIVE_ENTRIES): the listing walks them all, a second or two.
    const page = await renderPage({ width: 40, height: 60, color: GREEN, format: 'png' });
    const members: RarMember[] = Array.from({ length: 90_000 }, (_, i) => ({ name: `folder ${i}`, data: Buffer.alloc(0), directory: true }));
    members.push({ name: 'page.png', data: page });
    await writeRar5(join(root, 'Slow', 'folders.cbr'), members);
    await addLibrary(s, root);
    const [book] = await books(s);
    expect(book!.media).toMatchObject({ status: 'READY', pagesCount: 1 });
    s.app.folio.archives.forget(book!.url);

    const asked = performance.now();
    const first = await s.get(`/api/v1/books/${book!.id}/pages/1`);
    const waitedMs = performance.now() - asked;
    // Before: 200 once the whole listing was done, however long it took.
    expect(first.statusCode).toBe(503);
    expect(Number(first.headers['retry-after'])).toBeGreaterThan(0);
    expect(waitedMs).toBeLessThan(5_000);
    // Asked again while the listing goes on (a client obeying Retry-After, another reader): the same
    // bounded wait. Before, a request finding the book's open under way waited for the whole listing.
    const again = await s.get(`/api/v1/books/${book!.id}/pages/1`);
    expect(again.statusCode).toBe(503);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    // The listing went on: a later request gets the page from it, without listing again.
    const listingsBefore = rarWorker.calls;
    const served = await pollUntil('the page once the listing is done', async () => {
      const response = await s.get(`/api/v1/books/${book!.id}/pages/1`);
      return response.statusCode === 200 ? response : undefined;
    });
    expect(served.rawPayload.equals(page)).toBe(true);
    // Only the page's unpacking since (no second listing).
    expect(rarWorker.calls - listingsBefore).toBe(1);
  }, 120_000);
});
