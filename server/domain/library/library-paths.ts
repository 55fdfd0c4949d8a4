import { constants, readlinkSync } from 'node:fs';
import { type FileHandle, mkdir, open, realpath, rmdir } from 'node:fs/promises';
import { basename, dirname, join, relative, isAbsolute, resolve, sep } from 'node:path';
import { isUnusablePath, rethrowUnless } from '../../fs-errors.ts';
import type { FolioContext } from '../context.ts';

export class OutsideLibraryError extends Error {
  constructor(path: string) {
    super(`Refusing to touch ${path}: it is not inside the library folder`);
    this.name = 'OutsideLibraryError';
  }
}

/** Whether `child` lies strictly inside `parent` (both absolute, already canonical). */
export function isStrictlyInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * The canonical path of an entry the server is about to delete or rewrite, checked to lie strictly
 * inside the library root. The parent folder is resolved (symlinked folders cannot lead outside)
 * but not the entry itself: deleting a symlink removes the link, never its target.
 * Throws OutsideLibraryError otherwise, and when the parent folder no longer exists.
 */
export async function entryInsideLibrary(libraryRoot: string, path: string): Promise<string> {
  let root: string;
  let parent: string;
  try {
    root = await realpath(libraryRoot);
    parent = await realpath(dirname(path));
  } catch (error) {
    rethrowUnless(error, isUnusablePath);
    throw new OutsideLibraryError(path);
  }
  const canonical = join(parent, basename(path));
  if (!isStrictlyInside(root, canonical)) throw new OutsideLibraryError(path);
  return canonical;
}

/**
 * Creates `folder` (lexically inside `libraryRoot`) and any missing folder above it, one at a time,
 * without ever following a path that leaves the library: `mkdir -p` follows any link on the way, so
 * a folder of the path swapped for a link to elsewhere had the missing folders created out there.
 * Before each creation the folder it goes in is resolved and must lie inside the root (symlinked
 * folders leading inside are fine, as for entryInsideLibrary); after it, the created folder is
 * resolved again, and one that a swap meanwhile put outside is removed (it is empty, just made).
 * Throws OutsideLibraryError, having created nothing outside.
 */
export async function makeFolderInsideLibrary(libraryRoot: string, folder: string): Promise<void> {
  const base = resolve(libraryRoot);
  const rel = relative(base, resolve(folder));
  if (rel.startsWith('..') || isAbsolute(rel)) throw new OutsideLibraryError(folder);
  let root: string;
  try {
    root = await realpath(base);
  } catch (error) {
    rethrowUnless(error, isUnusablePath);
    throw new OutsideLibraryError(folder);
  }
  const within = async (path: string) => {
    try {
      const real = await realpath(path);
      return real === root || isStrictlyInside(root, real);
    } catch (error) {
      rethrowUnless(error, isUnusablePath);
      return false;
    }
  };
  let current = base;
  for (const part of rel === '' ? [] : rel.split(sep)) {
    const next = join(current, part);
    if (!(await within(current))) throw new OutsideLibraryError(folder);
    const created = await mkdir(next).then(
      () => true,
      (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        return false;
      },
    );
    if (created && !(await within(next))) {
      await rmdir(next);
      throw new OutsideLibraryError(folder);
    }
    current = next;
  }
}

/**
 * Symlink containment (README "Security"): a file lexically inside a library root must also really
 * be there. A link inside the library pointing out of it (`x.cbz -> /etc/passwd`) is neither
 * scanned nor read nor served; links whose target stays inside the same root are fine. Paths in no
 * library (an import source the admin picked) are not this check's business. A file that does not
 * exist passes: the reader reports it missing as usual.
 */
export async function assertInsideItsLibrary(libraryRoots: string[], filePath: string): Promise<void> {
  const path = resolve(filePath);
  const root = libraryRoots.map((r) => resolve(r)).find((r) => isStrictlyInside(r, path));
  if (!root) return;
  let realRoot: string;
  let real: string;
  try {
    [realRoot, real] = await Promise.all([realRootOf(root), realpath(path)]);
  } catch (error) {
    rethrowUnless(error, isUnusablePath);
    return;
  }
  if (!isStrictlyInside(realRoot, real)) throw new OutsideLibraryError(filePath);
}

/**
 * Opens a library file for reading, then checks where the opened file really is (README
 * "Security"). Checking the path first and opening it next left a window in which the file could be
 * swapped for a link leading out of the library; here the descriptor is what is checked, and what the
 * caller reads, so no later swap matters. Outside its library, the file is closed and
 * OutsideLibraryError thrown; a file that is not there throws as `open` does (ENOENT…), which
 * callers already treat as missing. Paths in no library are opened unchecked, as
 * assertInsideItsLibrary lets them pass. Opened non-blocking: a FIFO named x.cbz must not hang the
 * open (callers look at `stat().isFile()` before reading what is not a book file).
 */
export async function openInsideItsLibrary(libraryRoots: string[], filePath: string): Promise<FileHandle> {
  const path = resolve(filePath);
  const root = libraryRoots.map((r) => resolve(r)).find((r) => isStrictlyInside(r, path));
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  if (!root) return file;
  let inside: boolean;
  try {
    const [realRoot, real] = await Promise.all([realRootOf(root), realPathOfOpened(file, path)]);
    inside = isStrictlyInside(realRoot, real);
  } catch (error) {
    await file.close();
    throw error;
  }
  if (inside) return file;
  await file.close();
  throw new OutsideLibraryError(filePath);
}

/**
 * Where an opened file really is. Linux names every descriptor's file in /proc/self/fd, whatever
 * link led to it; elsewhere (or without /proc) the path is resolved again, the check as it was
 * before descriptors could be asked.
 */
async function realPathOfOpened(file: FileHandle, path: string): Promise<string> {
  if (process.platform === 'linux') {
    try {
      // Read synchronously: /proc names an open descriptor from the kernel's memory, never the disk,
      // so it cannot block, and a trip through libuv's pool cost the main thread ~10x the call
      // (every analysed book, poster and barcode search opens through here).
      return readlinkSync(`/proc/self/fd/${file.fd}`);
    } catch (error) {
      rethrowUnless(error, isUnusablePath);
    }
  }
  return realpath(path);
}

/** How long a library root's real path is reused before it is resolved again. */
const ROOT_REALPATH_TTL_MS = 5_000;
const realRoots = new Map<string, { real: Promise<string>; until: number }>();

/**
 * A library root's real path, resolved at most once every few seconds: a scan checks every book it
 * opens (analysis, poster, barcode search, hash: thousands a minute), and the root does not move
 * between them. A root re-pointed meanwhile (a symlinked root) is seen within ROOT_REALPATH_TTL_MS;
 * a failed resolution is never kept.
 */
function realRootOf(root: string): Promise<string> {
  const now = Date.now();
  const known = realRoots.get(root);
  if (known && known.until > now) return known.real;
  const real = realpath(root);
  realRoots.set(root, { real, until: now + ROOT_REALPATH_TTL_MS });
  real.catch(() => {
    if (realRoots.get(root)?.real === real) realRoots.delete(root);
  });
  return real;
}

/** Every library root, for assertInsideItsLibrary. */
export const libraryRoots = (ctx: FolioContext): string[] => ctx.repos.libraries.findAll().map((l) => l.root);
