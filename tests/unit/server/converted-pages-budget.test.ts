import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { writeStoredCbz } from '../../fixtures/comics.ts';
import { conversionBytes } from '../../../server/media/image-transcode.ts';
import { pollUntil } from '../../support/poll.ts';
import { stalledClients } from './support/stalled-client.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A page converted on request (`?convert=png`, as Paperback and other Komga clients ask) exists
 * whole in memory once encoded: sharp gives its output in one piece. It stayed there, counted
 * nowhere, for as long as its client took to read it, so a few slow clients of large photographic
 * pages (164 MB each as PNG at 7,900²) took memory without limit. Converted pages now count
 * against one byte budget until their response closes: past it a conversion waits for bytes to be
 * given back, then is answered 503 (Retry-After), and what is held stays bounded.
 */

let server: TestServer | undefined;
const stalled = stalledClients();
const { capacity, waitMs } = conversionBytes;
afterEach(async () => {
  stalled.closeAll();
  await server?.close();
  server = undefined;
  Object.assign(conversionBytes, { capacity, waitMs });
});

const MiB = 1024 * 1024;

describe('pages converted for clients that read slowly', () => {
  it('count against the conversions’ byte budget until sent: past it a conversion is told to try again, and memory stays bounded', { timeout: 120_000 }, async () => {
    server = await startServer({ logLevel: 'error', logStdout: false });
    // Photographic noise, 2,000²: a JPEG of ~4 MB, ~12 MB once converted to PNG (raw pixels: 11.4 MiB).
    const pages = [];
    for (let i = 0; i < 4; i++) {
      pages.push(await sharp({ create: { width: 2000, height: 2000, channels: 3, background: { r: 128, g: 128, b: 128 }, noise: { type: 'gaussian', mean: 128 + i, sigma: 60 } } }).jpeg({ quality: 95 }).toBuffer());
    }
    const root = join(server.dir, 'library');
    await writeStoredCbz(join(root, 'Photos', 'photos.cbz'), pages);
    await addLibrary(server, root);
    const book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 4 });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;

    // Room for two conversions at once (input and raw pixels until written, ~16 MiB each), not three.
    Object.assign(conversionBytes, { capacity: 36 * MiB, waitMs: 500 });
    const first = await stalled.get(port, `/api/v1/books/${book.id}/pages/1?convert=png`, server.admin);
    const second = await stalled.get(port, `/api/v1/books/${book.id}/pages/2?convert=png`, server.admin);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(conversionBytes.inUse).toBeGreaterThan(2 * 10 * MiB);

    // A third would pass the budget: after a short wait for bytes to come back, try again later.
    const third = await server.get(`/api/v1/books/${book.id}/pages/3?convert=png`);
    expect(third.statusCode).toBe(503);
    expect(third.headers['retry-after']).toBeDefined();
    expect(conversionBytes.inUse).toBeLessThanOrEqual(36 * MiB);

    // Once a slow client has its page, its bytes are given back and the next conversion is served.
    first.resume();
    await new Promise((done) => first.once('end', done));
    await pollUntil('the first page given back', () => conversionBytes.inUse < 2 * 10 * MiB, { timeoutMs: 10_000 });
    const fourth = await server.get(`/api/v1/books/${book.id}/pages/4?convert=png`);
    expect(fourth.statusCode).toBe(200);
    expect(await sharp(fourth.rawPayload).metadata()).toMatchObject({ format: 'png', width: 2000, height: 2000 });

    // A client that leaves before its page is sent gives its bytes back too.
    second.destroy();
    await pollUntil('every converted page given back', () => conversionBytes.inUse === 0, { timeoutMs: 10_000 });
  });
});
