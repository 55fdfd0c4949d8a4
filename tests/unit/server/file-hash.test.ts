import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashFile } from '../../../server/domain/hashing/file-hash.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('hashFile', () => {
  it('is the MD5 of the whole file, for files read in one, several or no reads, several at once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-hash-'));
    const sizes = [0, 1, 1024 * 1024, 2.5 * 1024 * 1024, 160_000];
    const files = await Promise.all(
      sizes.map(async (size, i) => {
        const bytes = randomBytes(size);
        const path = join(dir!, `${i}.cbz`);
        await writeFile(path, bytes);
        return { path, md5: createHash('md5').update(bytes).digest('hex') };
      }),
    );
    expect(await Promise.all(files.map((f) => hashFile(f.path)))).toEqual(files.map((f) => f.md5));
    // Again, through the read buffers the first round left for reuse.
    expect(await Promise.all(files.map((f) => hashFile(f.path)))).toEqual(files.map((f) => f.md5));
  });

  it('rejects for a file that cannot be opened', async () => {
    await expect(hashFile(join(tmpdir(), 'folio-no-such-file.cbz'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
