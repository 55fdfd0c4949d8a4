import { closeSync, fstatSync, openSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { MediaError } from './book-reader.ts';

/**
 * A book file as a worker thread is told of it: the descriptor the main thread opened and, for a
 * library's book, checked to lie inside the library (openInsideItsLibrary), and that file's
 * identity. Worker threads share the process's descriptors, so a worker reaches the checked file
 * through the descriptor and never opens the book again by its path, which a link swapped in
 * after the check would lead out of the library.
 */
export interface CheckedFile {
  fd: number;
  /** The file's device and inode, in decimal (they may not fit a double). */
  dev: string;
  ino: string;
  /** For messages only: never opened. */
  path: string;
}

/** The descriptor's file described for a worker, with its size and modification time (from the same fstat). */
export async function describeChecked(file: FileHandle, path: string): Promise<{ checked: CheckedFile; size: number; mtimeMs: number }> {
  let info: Awaited<ReturnType<typeof file.stat>>;
  let identity: { dev: bigint; ino: bigint };
  try {
    [info, identity] = await Promise.all([file.stat(), file.stat({ bigint: true })]);
  } catch (error) {
    throw new MediaError('ERR_1000', `cannot read file: ${String(error)}`, { cause: error });
  }
  return { checked: { fd: file.fd, dev: String(identity.dev), ino: String(identity.ino), path }, size: info.size, mtimeMs: info.mtimeMs };
}

/** Opens a book by path for a reader's `open` (no library check: tools and tests). */
export async function openForReading(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    throw new MediaError('ERR_1000', `cannot read file: ${String(error)}`, { cause: error });
  }
}

/** Closes a book's checked descriptor when the book is closed; a failed close is reported as a warning, nothing waits for it. */
export function releaseChecked(file: FileHandle, path: string): void {
  file.close().catch((error: Error) => process.emitWarning(`closing ${path} failed: ${error.message}`));
}

/** The checked file is no longer the one the descriptor number names (the book was closed meanwhile). */
export class NotTheCheckedFile extends Error {
  constructor(path: string) {
    super(`cannot read file: the descriptor of ${path} no longer names it (the book was closed)`);
    this.name = 'NotTheCheckedFile';
  }
}

/**
 * Worker side: a descriptor of the worker's own on the checked file, to read and close as it
 * pleases. On Linux it is opened through /proc/self/fd/N, which names the open file itself however
 * its path has changed since; elsewhere (or without /proc) through the path. Either way its device
 * and inode must be the checked file's: a descriptor number reused after the book was closed, or a
 * path that now leads elsewhere, is refused (NotTheCheckedFile), never read.
 */
export function openCheckedInWorker(checked: CheckedFile): number {
  let fd: number | undefined;
  if (process.platform === 'linux') {
    try {
      fd = openSync(`/proc/self/fd/${checked.fd}`, 'r');
    } catch (error) {
      // No /proc mounted: the path, checked below like the descriptor would be.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  fd ??= openSync(checked.path, 'r');
  try {
    const info = fstatSync(fd, { bigint: true });
    if (String(info.dev) !== checked.dev || String(info.ino) !== checked.ino) throw new NotTheCheckedFile(checked.path);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}
