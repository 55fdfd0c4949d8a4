import { mkdtemp, open, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotTheCheckedFile, describeChecked, openCheckedInWorker } from '../../../server/media/checked-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-checked-'));
  await writeFile(join(dir, 'book.pdf'), 'the checked book');
  await writeFile(join(dir, 'other.pdf'), 'another file');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a worker reaching the file the main thread checked', () => {
  it('reads that file even after its path was swapped for a link elsewhere', async () => {
    const handle = await open(join(dir, 'book.pdf'), 'r');
    try {
      const { checked } = await describeChecked(handle, join(dir, 'book.pdf'));
      await unlink(join(dir, 'book.pdf'));
      await symlink(join(dir, 'other.pdf'), join(dir, 'book.pdf'));
      const fd = openCheckedInWorker(checked);
      try {
        expect(readFileSync(fd, 'utf8')).toBe('the checked book');
      } finally {
        closeSync(fd);
      }
    } finally {
      await handle.close();
    }
  });

  it('refuses a descriptor number that names another file (given out again after the book was closed)', async () => {
    const handle = await open(join(dir, 'book.pdf'), 'r');
    const { checked } = await describeChecked(handle, join(dir, 'book.pdf'));
    await handle.close();
    const other = await open(join(dir, 'other.pdf'), 'r');
    try {
      // The number the book had, now another file's (as the lowest free number is given out again);
      // the path too leads elsewhere, so neither way reaches the checked file.
      const reused = { ...checked, fd: other.fd };
      await unlink(join(dir, 'book.pdf'));
      await symlink(join(dir, 'other.pdf'), join(dir, 'book.pdf'));
      expect(() => openCheckedInWorker(reused)).toThrow(NotTheCheckedFile);
    } finally {
      await other.close();
    }
  });
});
