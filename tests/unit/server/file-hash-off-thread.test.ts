import { open, mkdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { hashBookFile } from '../../../server/domain/hashing/file-hash.ts';
import { rawZip } from '../../../tests/fixtures/raw-zip.ts';
import { renderPage } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A book's fileHash is the MD5 of its whole file. It ran on the main thread, 1 MiB at a time: a
 * 1 GB book cost about two seconds of it, during which every request waited for the slice in
 * progress and the server answered half as many. Now a worker thread reads and hashes the file;
 * the main thread is idle meanwhile, measured as its event loop utilisation (busy time over wall
 * time), which a loaded machine stretches alike on both sides. bench/file-hash-blocking.ts
 * measures the slowest cheap request over HTTP.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Large enough that hashing takes a good fraction of a second even on a fast machine. */
const FILLER_BYTES = 384 * 1024 * 1024;

describe('hashing a large book file', () => {
  it('leaves the main thread free: cheap requests are answered meanwhile, and the hash is the file MD5', async () => {
    const s = (server = await startServer());
    const root = join(s.dir, 'library');
    const path = join(root, 'Big', 'big.cbz');
    await mkdir(join(root, 'Big'), { recursive: true });
    const png = await renderPage({ width: 30, height: 40, color: [9, 9, 9], format: 'png' });
    // One page and a stored filler entry, written in pieces (never the whole file in memory twice).
    const zip = rawZip([{ name: Buffer.from('01.png'), data: png }]);
    const file = await open(path, 'w');
    const md5 = createHash('md5');
    try {
      const chunk = Buffer.alloc(16 * 1024 * 1024, 0x5a);
      // A zip whose trailing bytes are junk still lists (the end record is searched from the end,
      // so the directory is written last): the filler goes between the entry and the directory.
      const directoryAt = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      const head = zip.subarray(0, directoryAt);
      await file.write(head);
      md5.update(head);
      for (let written = 0; written < FILLER_BYTES; written += chunk.length) {
        await file.write(chunk);
        md5.update(chunk);
      }
      // The directory and end record, their offsets moved past the filler.
      const tail = Buffer.from(zip.subarray(directoryAt));
      const end = tail.indexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
      tail.writeUInt32LE(tail.readUInt32LE(end + 16) + FILLER_BYTES, end + 16);
      await file.write(tail);
      md5.update(tail);
    } finally {
      await file.close();
    }
    await addLibrary(s, root);
    const [book] = (await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    expect(book!.media.status).toBe('READY');
    // The hash again (the scan made the first), with the main thread's utilisation measured.
    s.app.folio.repos.books.update({ ...s.app.folio.repos.books.findById(book!.id)!, fileHash: '' });
    const loopBefore = performance.eventLoopUtilization();
    const hashing = hashBookFile(s.app.folio, book!.id);
    // A request meanwhile is answered.
    expect((await s.get('/api/v1/libraries')).statusCode).toBe(200);
    await hashing;
    const loop = performance.eventLoopUtilization(loopBefore);
    expect((await s.json<BookDto>(`/api/v1/books/${book!.id}`)).fileHash).toBe(md5.digest('hex'));
    // Before: the main thread was busy hashing nearly all the time (utilisation about 0.9, on a
    // quiet machine too); now it only waits for the worker's answer.
    expect(loop.utilization).toBeLessThan(0.3);
  }, 120_000);
});
