import { open } from 'node:fs/promises';

/**
 * Book files are rewritten as "write a temporary file, flush it, rename it over the book, flush the
 * folder", so that a crash leaves either the old book or the new one. These two flushes are shared
 * by CBZ conversion and page removal.
 */

/** Flushes a written file's bytes to the disk. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Errors of file systems that cannot open or flush a folder (some network and FUSE mounts, other
 * platforms): the rename is then as durable as that file system makes it, and the rewrite stands.
 */
const FOLDER_SYNC_UNSUPPORTED = new Set(['EINVAL', 'EISDIR', 'EPERM', 'EACCES', 'ENOTSUP', 'EOPNOTSUPP', 'EBADF']);

/** Flushes a folder's entries (a rename in it) to the disk where the file system allows it. */
export async function syncFolder(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (!FOLDER_SYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}
