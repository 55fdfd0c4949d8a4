import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { zipReader } from '../../../server/media/zip-reader.ts';
import { RED, createCbz } from '../../fixtures/index.ts';

/*
 * Entry streams read with callback fs.read on the descriptor of the archive's FileHandle, so the
 * reader puts off closing the file while any of its reads is in flight (yauzl asks for the close
 * as soon as the archive and its streams are dropped, which here is with reads outstanding), and
 * must then still close it: no descriptor may be left behind.
 */
const openDescriptors = () => readdirSync('/proc/self/fd').length;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-zip-close-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('zip reader, closed under reads in flight', () => {
  it('closes the file once the reads in flight are done, whatever order streams and archive are dropped in', async () => {
    // 1 MiB of noise: a stream of it takes many 64 KiB reads.
    const data = randomBytes(1024 * 1024);
    const book = await createCbz(join(dir, 'Book.cbz'), [{ width: 8, height: 8, color: RED, format: 'png' }], {
      extraEntries: [{ name: 'noise.bin', data }],
    });
    const before = openDescriptors();
    for (let round = 0; round < 20; round++) {
      const opened = await zipReader.open(book.path);
      const streams = await Promise.all([opened.openEntry('noise.bin'), opened.openEntry('noise.bin')]);
      // One stream has delivered a chunk (more reads queued behind it), the other has only asked.
      await once(streams[0]!, 'data');
      if (round % 2 === 0) opened.close();
      for (const stream of streams) stream.destroy();
      if (round % 2 === 1) opened.close();
      await Promise.all(streams.map((stream) => (stream.closed ? undefined : once(stream, 'close'))));
    }
    // Every archive's descriptor goes once its last read is done.
    await vi.waitFor(() => expect(openDescriptors()).toBe(before));
    // And a read to the end through a fresh archive still returns the entry's bytes.
    const opened = await zipReader.open(book.path);
    const chunks: Buffer[] = [];
    for await (const chunk of await opened.openEntry('noise.bin')) chunks.push(chunk as Buffer);
    opened.close();
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    await vi.waitFor(() => expect(openDescriptors()).toBe(before));
  });
});
