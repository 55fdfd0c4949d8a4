import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, isAbsolute, resolve } from 'node:path';
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
