import { readSync } from 'node:fs';
import type { SevenZipModule } from '7z-wasm';

/** Emscripten's errno for "read-only file system" (its ERRNO_CODES, not the host's). */
const EROFS = 69;
/** Read-only regular file, as emscripten's mode bits spell it. */
const READ_ONLY_FILE = 0o100444;

type Op = (...args: never[]) => unknown;
interface MemfsNode {
  mode: number;
  usedBytes: number;
  node_ops: Record<string, Op>;
  stream_ops: Record<string, Op>;
}

/**
 * Puts the book at `at` in a 7-Zip instance's in-memory file system as a read-only file whose
 * reads go to the host descriptor `fd` (the worker's own, on the file the main thread checked:
 * checked-file.ts). No host folder is mounted, so nothing 7-Zip is led to do (a name climbing out
 * of /out, a link entry) can reach the user's files, and the book is never looked up by path, so
 * a folder swapped for a link after the check is not followed.
 *
 * The file is an ordinary in-memory one whose operations are replaced for this node alone: its
 * size is the book's (seeks from the end use it) and a read is a positioned read of the descriptor;
 * every change is refused (EROFS).
 */
export function mountBookFile(sz: SevenZipModule, fd: number, size: number, at: string): void {
  mountReadOnly(sz, at, size, (buffer, offset, length, position) =>
    position >= size ? 0 : readSync(fd, buffer, offset, Math.min(length, size - position), position),
  );
}

/**
 * Puts `bytes` at `at` as a read-only file whose reads copy from them: a one-entry zip built on
 * the main thread (zip-entry-methods.ts) is read where it already is, not copied into 7-Zip's heap.
 */
export function mountBufferFile(sz: SevenZipModule, bytes: Uint8Array, at: string): void {
  mountReadOnly(sz, at, bytes.length, (buffer, offset, length, position) => {
    const count = Math.max(0, Math.min(length, bytes.length - position));
    if (count > 0) buffer.set(bytes.subarray(position, position + count), offset);
    return count;
  });
}

/** Copies up to `length` bytes of the file from `position` into `buffer` at `offset`; the count copied. */
type ReadAt = (buffer: Uint8Array, offset: number, length: number, position: number) => number;

/** An empty in-memory file at `at` made read-only, `size` long, its reads answered by `readAt`. */
function mountReadOnly(sz: SevenZipModule, at: string, size: number, readAt: ReadAt): void {
  sz.FS.writeFile(at, new Uint8Array(0));
  const node = sz.FS.lookupPath(at).node as unknown as MemfsNode;
  const errnoError = (sz.FS as unknown as { ErrnoError: new (errno: number) => Error }).ErrnoError;
  const refuse = () => {
    throw new errnoError(EROFS);
  };
  node.mode = READ_ONLY_FILE;
  node.usedBytes = size;
  node.node_ops = { ...node.node_ops, setattr: refuse };
  node.stream_ops = {
    llseek: node.stream_ops.llseek!,
    read: ((_stream: unknown, buffer: Uint8Array, offset: number, length: number, position: number) => readAt(buffer, offset, length, position)) as Op,
    write: refuse,
    mmap: refuse,
    msync: refuse,
  };
}
