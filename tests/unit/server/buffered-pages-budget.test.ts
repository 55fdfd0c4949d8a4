import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { paddedPage, renderPage } from '../../fixtures/index.ts';
import { writeRar5, writeRar5WithLargeMember } from '../../fixtures/rar.ts';
import { MAX_DECODE_INPUT_BYTES } from '../../../server/media/image-decode.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';
import { pollUntil } from '../../support/poll.ts';
import { stalledClients } from './support/stalled-client.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * RAR and 7z members come out of their readers whole, in memory: they cannot be streamed. A page of
 * such a book sent to a client that reads slowly (a phone on a bad network, or one that stopped)
 * kept its bytes for as long as the response lasted, outside the archive pool's budget of bytes
 * held, so many slow readers of large pages could take the server's memory without bound. These
 * pages now count against the same budget as zip pages read whole: past it, a request waits for
 * bytes to be given back, then is answered 503 (try again), while what is held stays bounded.
 */

let server: TestServer | undefined;
const stalled = stalledClients();
afterEach(async () => {
  stalled.closeAll();
  await server?.close();
  server = undefined;
});

const PAGE_BYTES = 6 * 1024 * 1024;
const BUDGET = 16 * 1024 * 1024;

describe.each([
  ['RAR', 'cbr'],
  ['7z', 'cb7'],
])('pages of %s books sent to clients that read slowly', (_format, extension) => {
  it('count against the budget of bytes held: past it a request is told to try again, and memory stays bounded', { timeout: 120_000 }, async () => {
    server = await startServer({ logLevel: 'error', logStdout: false, archivePool: { wholeReadBytes: BUDGET, waitMs: 500 } });
    const root = join(server.dir, 'library');
    const pages = [];
    for (let i = 1; i <= 4; i++) pages.push({ name: `page-${i}.png`, data: await paddedPage(PAGE_BYTES) });
    const file = join(root, 'Big', `big.${extension}`);
    if (extension === 'cbr') await writeRar5(file, pages);
    else await writeSevenZip(file, pages, { method: 'Copy', solid: false });
    await addLibrary(server, root);
    const book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 4 });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const pool = server.app.folio.archives;

    // Two slow readers hold two pages: 12 MiB of the 16 MiB budget.
    const first = await stalled.get(port, `/api/v1/books/${book.id}/pages/1`, server.admin);
    const second = await stalled.get(port, `/api/v1/books/${book.id}/pages/2`, server.admin);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    await pollUntil('the two pages counted as held', () => pool.heldWholeBytes >= 2 * PAGE_BYTES, { timeoutMs: 10_000 });

    // A third would pass the budget: after a short wait for bytes to come back, try again later.
    const third = await server.get(`/api/v1/books/${book.id}/pages/3`);
    expect(third.statusCode).toBe(503);
    expect(third.headers['retry-after']).toBeDefined();
    expect(pool.heldWholeBytes).toBeLessThanOrEqual(BUDGET);

    // Once a slow reader has its page, its bytes are given back and the next page is served.
    first.resume();
    await new Promise((done) => first.once('end', done));
    await pollUntil('the first page given back', () => pool.heldWholeBytes < 2 * PAGE_BYTES, { timeoutMs: 10_000 });
    const fourth = await server.get(`/api/v1/books/${book.id}/pages/4`);
    expect(fourth.statusCode).toBe(200);
    expect(fourth.rawPayload.equals(pages[3]!.data)).toBe(true);
  });
});

describe('a RAR page read whole for a poster', () => {
  it('is still held to the decode input limit', { timeout: 120_000 }, async () => {
    server = await startServer({ logLevel: 'warn', logStdout: false });
    const root = join(server.dir, 'library');
    // A real PNG followed by zeros: within the page limit of RAR members, over the decode limit.
    const png = await renderPage({ width: 30, height: 40, color: [200, 20, 20], format: 'png' });
    await writeRar5WithLargeMember(join(root, 'Big', 'big.cbr'), [], { name: 'page-1.png', head: png, size: MAX_DECODE_INPUT_BYTES + 1024 });
    await addLibrary(server, root);
    const book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 1 });
    // No poster drawn from it (decoding it would take more than one decode may hold).
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).statusCode).toBe(404);
  });
});
