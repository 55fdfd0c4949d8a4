import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SmallFileCache } from '../../../server/domain/small-file-cache.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-small-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SmallFileCache', () => {
  it('serves a kept file from memory, and notices a replaced or deleted file once its second of trust is over', async () => {
    const cache = new SmallFileCache();
    const path = join(dir, 'poster.jpg');
    await writeFile(path, Buffer.from('first'));
    const first = await cache.read(path, 1_000);
    expect(first?.bytes.toString()).toBe('first');
    expect(first?.etag).toMatch(/^"0[0-9a-f]{32}"$/);

    await writeFile(path, Buffer.from('second, longer'));
    // Within the second: the same object from memory, no disk access.
    expect(await cache.read(path, 1_500)).toBe(first);
    // After it: the new bytes under a new ETag.
    const second = await cache.read(path, 2_100);
    expect(second?.bytes.toString()).toBe('second, longer');
    expect(second?.etag).not.toBe(first?.etag);
    // Unchanged since: kept, re-trusted.
    expect(await cache.read(path, 3_200)).toBe(second);

    await unlink(path);
    expect(await cache.read(path, 4_300)).toBeNull();
  });

  it('serves a file kept under the version its caller names without checking the disk, and checks again for another version', async () => {
    const cache = new SmallFileCache();
    const path = join(dir, 'poster.jpg');
    await writeFile(path, Buffer.from('first'));
    const first = await cache.read(path, 1_000, 'record-1');
    await writeFile(path, Buffer.from('second, longer'));
    // Long past the second of trust: the version says the kept bytes are still the ones wanted.
    expect(await cache.read(path, 90_000, 'record-1')).toBe(first);
    // The record changed (the server wrote the file again): read anew.
    expect((await cache.read(path, 90_000, 'record-2'))?.bytes.toString()).toBe('second, longer');
    // Callers naming no version keep the second of trust.
    await writeFile(path, Buffer.from('third'));
    expect((await cache.read(path, 200_000))?.bytes.toString()).toBe('third');
  });

  it('does not keep large files: it reports them for streaming from disk', async () => {
    const cache = new SmallFileCache();
    const path = join(dir, 'big.bin');
    await writeFile(path, Buffer.alloc(600 * 1024, 7));
    const file = await cache.read(path);
    expect(file?.size).toBe(600 * 1024);
    expect(file && SmallFileCache.holdsBytes(file)).toBe(false);
  });
});
