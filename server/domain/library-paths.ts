import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import { isUnusablePath, rethrowUnless } from '../fs-errors.ts';

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
