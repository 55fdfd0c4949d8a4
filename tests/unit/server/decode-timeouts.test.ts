import { randomFillSync } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { imageDecoding } from '../../../server/media/image-decode.ts';
import { TIMED_OUT_FOR_MS, TimedOutInputs } from '../../../server/media/timed-out-inputs.ts';
import { OperationTimeout, RecentlyTimedOut } from '../../../server/media/transient-errors.ts';
import { GREEN, renderPage, writeStoredCbz } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

/**
 * A hostile page: a progressive JPEG of 64 megapixels (the decode limit), of 6-bit colour noise
 * (55 MB, under the 64 MiB a page may hold to be decoded), whose every scan libvips decodes over the
 * whole image: 2.0 s of a core per decode on an idle 2-core machine, more under load, so it runs out
 * of a one-second limit whatever else the machine is doing. (Noise of 4 bits a channel, 13 MB, took
 * 1.6 s on one machine and 0.95 s on a faster one, where the test then failed.)
 */
async function slowJpeg(): Promise<Buffer> {
  const side = 8000;
  const raw = randomFillSync(Buffer.alloc(side * side * 3));
  for (let i = 0; i < raw.length; i++) raw[i]! &= 0x3f;
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 90, progressive: true, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

let server: TestServer;
let hostile: Buffer;
const limit = imageDecoding.timeoutSeconds;
beforeAll(async () => {
  hostile = await slowJpeg();
  // One second instead of thirty: the hostile page runs out of time at every decode.
  imageDecoding.timeoutSeconds = 1;
  server = await startServer();
}, 60_000);
afterAll(async () => {
  imageDecoding.timeoutSeconds = limit;
  vi.useRealTimers();
  await server.close();
});

describe('a page whose decode runs out of time', () => {
  it('fails at once for a while, whatever decodes it; a changed file is decoded afresh', async () => {
    const root = join(server.dir, 'library');
    await writeStoredCbz(join(root, 'Hostile', 'hostile.cbz'), [hostile]);
    await writeStoredCbz(join(root, 'Plain', 'plain.cbz'), [await renderPage({ width: 20, height: 30, color: GREEN, format: 'jpeg' })]);
    const library = await addLibrary(server, root);
    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));
    const bad = books.get('hostile')!;
    const plain = books.get('plain')!;
    expect(bad.media.status).toBe('READY');

    // The first decode runs out of time (here, or in the background poster task before).
    expect((await server.get(`/api/v1/books/${bad.id}/thumbnail`)).statusCode).toBe(503);
    const started = imageDecoding.started;
    // Asked again, by any decode of that page, it fails at once: no decode is started.
    const again = await server.get(`/api/v1/books/${bad.id}/thumbnail`);
    expect(again.statusCode).toBe(503);
    expect(again.headers['retry-after']).toBeDefined();
    expect((await server.get(`/api/v1/books/${bad.id}/pages/1/thumbnail`)).statusCode).toBe(503);
    expect((await server.get(`/api/v1/books/${bad.id}/pages/1?convert=png`)).statusCode).toBe(503);
    expect(imageDecoding.started).toBe(started);
    // Other pages are decoded as ever.
    expect((await server.get(`/api/v1/books/${plain.id}/pages/1/thumbnail`)).statusCode).toBe(200);
    expect(imageDecoding.started).toBe(started + 1);
    // The book is not marked as broken for it.
    expect((await server.json<BookDto>(`/api/v1/books/${bad.id}`)).media.status).toBe('READY');

    // Past the refusal (a minute after a first time-out, ten at most), the page is tried again (and runs out of time again).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + TIMED_OUT_FOR_MS + 1_000 });
    expect((await server.get(`/api/v1/books/${bad.id}/pages/1/thumbnail`)).statusCode).toBe(503);
    expect(imageDecoding.started).toBe(started + 2);
    vi.useRealTimers();

    // The file replaced by a readable one: another version of the page, decoded at once.
    await writeStoredCbz(join(root, 'Hostile', 'hostile.cbz'), [await renderPage({ width: 30, height: 40, color: GREEN, format: 'jpeg' })]);
    await rescan(server, library.id);
    expect((await server.get(`/api/v1/books/${bad.id}/pages/1/thumbnail`)).statusCode).toBe(200);
  }, 120_000);
});

describe('TimedOutInputs', () => {
  const timesOut = () => Promise.reject(new OperationTimeout('work', 1_000));
  const succeeds = () => Promise.resolve('done');

  it('keeps at most its bound, the least recently asked for going first', async () => {
    const inputs = new TimedOutInputs({ max: 2 });
    for (const key of ['a', 'b']) await expect(inputs.run(key, key, 1_000, timesOut)).rejects.toBeInstanceOf(OperationTimeout);
    // 'a' asked for again (and refused at once): now the most recently used.
    await expect(inputs.run('a', 'a', 1_000, succeeds)).rejects.toThrow(/ran out of time lately/);
    await expect(inputs.run('c', 'c', 1_000, timesOut)).rejects.toBeInstanceOf(OperationTimeout);
    expect(inputs.size).toBe(2);
    // 'b' went; 'a' and 'c' still fail at once.
    await expect(inputs.run('b', 'b', 1_000, succeeds)).resolves.toBe('done');
    await expect(inputs.run('a', 'a', 1_000, succeeds)).rejects.toThrow(/ran out of time lately/);
    await expect(inputs.run('c', 'c', 1_000, succeeds)).rejects.toThrow(/ran out of time lately/);
  });

  it('refuses for a minute after a first time-out, twice as long after each one in a row, ten minutes at most, and forgets them once read in time', async () => {
    const inputs = new TimedOutInputs();
    let now = Date.now();
    const refusals: number[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        vi.useFakeTimers({ toFake: ['Date'], now });
        const error = await inputs.run('p', 'p', 1_000, timesOut).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RecentlyTimedOut);
        refusals.push((error as RecentlyTimedOut).retryAfterSeconds);
        // Refused just before the window ends, without running.
        vi.setSystemTime(now + refusals.at(-1)! * 1000 - 1_000);
        await expect(inputs.run('p', 'p', 1_000, succeeds)).rejects.toThrow(/ran out of time lately/);
        now += refusals.at(-1)! * 1000;
      }
      expect(refusals).toEqual([60, 120, 240, 480, 600, 600]);
      // Read in time once: the next time-out is a first one again.
      vi.setSystemTime(now);
      await expect(inputs.run('p', 'p', 1_000, succeeds)).resolves.toBe('done');
      await expect(inputs.run('p', 'p', 1_000, timesOut)).rejects.toMatchObject({ retryAfterSeconds: 60 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('remembers time outs only, not other failures', async () => {
    const inputs = new TimedOutInputs();
    await expect(inputs.run('x', 'x', 1_000, () => Promise.reject(new Error('undecodable')))).rejects.toThrow('undecodable');
    await expect(inputs.run('x', 'x', 1_000, succeeds)).resolves.toBe('done');
    expect(inputs.size).toBe(0);
  });
});
