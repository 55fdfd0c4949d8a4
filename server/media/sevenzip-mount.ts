import type { SevenZipModule } from '7z-wasm';

/** Emscripten's errno for "read-only file system" (its ERRNO_CODES, not the host's). */
const EROFS = 69;
/** Emscripten's open flags that ask to change a file: O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND. */
const WRITING_FLAGS = 1 | 2 | 64 | 512 | 1024;

type Op = (...args: never[]) => unknown;
interface NodeFsInternals {
  node_ops: Record<string, Op>;
  stream_ops: Record<string, Op>;
}

/**
 * Mounts a book's folder (the host folder `folder`) at `at` in a 7-Zip instance's file system, with
 * every operation that would change it refused (EROFS). The emscripten build of 7z-wasm has no
 * read-only mount option, so the instance's own NODEFS operations are replaced: each request gets a
 * fresh instance and NODEFS serves only this mount there, so nothing else is affected. 7-Zip is
 * only ever asked to list and to extract into memory, but what an archive leads it to do (a link
 * entry pointing at the folder, a name climbing out of /out) must not reach the user's files.
 */
export function mountFolderReadOnly(sz: SevenZipModule, folder: string, at: string): void {
  const errnoError = (sz.FS as unknown as { ErrnoError: new (errno: number) => Error }).ErrnoError;
  const refuse = () => {
    throw new errnoError(EROFS);
  };
  const nodeFs = sz.NODEFS as unknown as NodeFsInternals;
  for (const op of ['setattr', 'mknod', 'rename', 'unlink', 'rmdir', 'symlink']) nodeFs.node_ops[op] = refuse;
  for (const op of ['setattr', 'write', 'msync']) nodeFs.stream_ops[op] = refuse;
  const open = nodeFs.stream_ops.open!;
  nodeFs.stream_ops.open = ((stream: { flags: number }) => {
    if (stream.flags & WRITING_FLAGS) refuse();
    return open(stream as never);
  }) as Op;
  sz.FS.mkdir(at);
  sz.FS.mount(sz.NODEFS, { root: folder }, at);
}
