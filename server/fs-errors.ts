/** errno codes meaning "there is nothing at that path" (or a path component is not a folder). */
const MISSING = new Set(['ENOENT', 'ENOTDIR']);

/** True when a filesystem call failed because the path does not exist. */
export function isMissingFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && MISSING.has(code);
}

/** True when a path cannot be used by us: missing, not permitted, or not the expected kind. */
export function isUnusablePath(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return isMissingFile(error) || code === 'EACCES' || code === 'EPERM' || code === 'ELOOP' || code === 'EISDIR' || code === 'ENAMETOOLONG';
}

/**
 * True when the path is there but we may not use it (EACCES, EPERM): unlike a missing path, this
 * says nothing about what it holds.
 */
export function isPermissionDenied(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EACCES' || code === 'EPERM';
}

/**
 * errno codes of a write the data folder cannot take now, whatever is written: a full disk or quota
 * (ENOSPC, EDQUOT), a file-size limit (EFBIG), a read-only mount (EROFS), a folder the server may
 * not write (EACCES, EPERM), or a file standing where a folder should be (mkdir's EEXIST, a
 * write's ENOTDIR). Nothing about the bytes being written.
 */
const UNWRITABLE = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', 'EACCES', 'EPERM', 'EEXIST', 'ENOTDIR']);

/** True when a file could not be written because of where it goes (see UNWRITABLE), not what it holds. */
export function isUnwritableStorage(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && UNWRITABLE.has(code);
}

/** errno codes of a write refused for want of room: the disk, a quota, a file-size limit. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * A file that a request asked to store (an uploaded poster) could not be written where it goes
 * (isUnwritableStorage; `full`: for want of room). Nothing of it is left and nothing refers to it.
 * The HTTP layer answers every such failure alike, as it answers a full database (http/errors.ts):
 * 503 with Retry-After, a request that can succeed once the administrator has made room, not a 500.
 */
export class StorageUnwritable extends Error {
  readonly full: boolean;
  constructor(what: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | null)?.code;
    super(`${what} not stored: ${code === undefined ? 'the data folder cannot be written' : `the data folder cannot be written (${code})`}`, { cause });
    this.name = 'StorageUnwritable';
    this.full = typeof code === 'string' && FULL.has(code);
  }
}

/** Rethrows anything but the named kind of error (use in a catch that handles only that kind). */
export function rethrowUnless(error: unknown, handled: (error: unknown) => boolean): void {
  if (!handled(error)) throw error;
}
