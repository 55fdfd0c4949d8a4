import { type BigIntStats, fstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * What tells one state of a file from another: inode, size, modification and change time (in ns). The
 * same words whether read through the path (fileIdentity) or through a descriptor open on it
 * (descriptorIdentity), so the archive pool can compare a handle's descriptor with the path's
 * state from before the handle was opened.
 *
 * What it can and cannot tell apart:
 *  - a file renamed over the path (a copy finished elsewhere, then moved in): a new inode, always
 *    seen, even at the same size and time, since the old inode cannot be reused while a descriptor
 *    holds it open;
 *  - a file truncated or grown in place: its size;
 *  - a file written over in place at the same size: only its times. The kernel stamps a write with
 *    a coarse clock (one tick, 1–10 ms) unless the file's times were read since its last change;
 *    Linux 6.13 and later do so for ext4, xfs, btrfs and tmpfs ("multigrain" timestamps: a write
 *    after a stat gets a fine-grained, later ctime), so every write after this stat shows. On older
 *    kernels, and file systems without it (NFS, SMB, FUSE), a same-size write in the same tick as
 *    the change before it shows nothing here, and only the content could (a zip entry's CRC-32,
 *    which we do not check per read: it would cost a pass over every page's bytes).
 */
export function identityOf(info: BigIntStats): string {
  return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** The identity of what `filePath` names now ('gone' when it cannot be read, so a file that comes back differs from the one that went). */
export function fileIdentity(filePath: string): Promise<string> {
  return stat(filePath, { bigint: true }).then(
    (info) => identityOf(info),
    (error: NodeJS.ErrnoException) => `gone:${error.code ?? 'error'}`,
  );
}

/**
 * The identity of the file an open descriptor reads, now: one fstat, synchronous (about 1.5 µs,
 * cheaper than a trip through libuv's pool). A file rewritten in place (same inode, new bytes)
 * shows a new size or time here at once; one renamed over the path does not (the descriptor still
 * reads the old file, whole and consistent), that is fileIdentity's to see. Only meaningful while
 * its book is open (a number closed and reused names another file); a FileHandle closed meanwhile
 * (fd -1) or a bad descriptor reads as 'gone', which differs from any identity it had.
 */
export function descriptorIdentity(fd: number): string {
  if (fd < 0) return 'gone:closed';
  try {
    return identityOf(fstatSync(fd, { bigint: true }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    return `gone:${(error as NodeJS.ErrnoException).code}`;
  }
}
