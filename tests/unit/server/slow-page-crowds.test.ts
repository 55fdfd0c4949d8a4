import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { rarWorker } from '../../../server/media/rar-client.ts';
import { writeRar5, type RarMember } from '../../fixtures/rar.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/**
 * A page whose unpacking runs out of time, asked for by many readers at once. Pages that ran out of
 * time fail at once for a while (timed-out-inputs.ts), but only once the first call has ended: the
 * others, asked for meanwhile, each took the one RAR worker for a whole time limit (30 s) in turn,
 * so a few requests for one hostile page held every RAR book of the server for minutes.
 */
let server: TestServer;
const limit = rarWorker.timeLimitMs;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  rarWorker.timeLimitMs = limit;
  await server.close();
});

/** A page of noise, over the 64 KiB under which members are read (and kept) along with the analysis. */
const png = () => sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } }).png().toBuffer();

describe('a RAR page asked for by many at once whose unpacking runs out of time', () => {
  it('takes the worker once: the others wait for that call and fail with it', async () => {
    const root = join(server.dir, 'library');
    // Folders before the pages: unrar walks every header before a member, so no unpacking of a
    // page ends within the lowered time limit below.
    const folders: RarMember[] = Array.from({ length: 20_000 }, (_, i) => ({ name: `f${i}`, data: Buffer.alloc(0), directory: true }));
    const members: RarMember[] = [...folders, { name: 'p1.png', data: await png() }, { name: 'p2.png', data: await png() }];
    await writeRar5(join(root, 'Slow', 'slow.cbr'), members);
    await addLibrary(server, root);
    const book = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!;
    expect(book.media.status).toBe('READY');
    // Every unpacking now runs out of its (lowered) time limit.
    rarWorker.timeLimitMs = 1;
    const calls = rarWorker.calls;
    const responses = await Promise.all(Array.from({ length: 6 }, () => server.get(`/api/v1/books/${book.id}/pages/2`)));
    expect(responses.map((r) => r.statusCode)).toEqual([503, 503, 503, 503, 503, 503]);
    // Before: six calls, one per reader.
    expect(rarWorker.calls - calls).toBe(1);
  }, 60_000);
});
