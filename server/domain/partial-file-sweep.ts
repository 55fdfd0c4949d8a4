import type { Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isLeftoverPartialFile } from '../atomic-write.ts';
import { isMissingFile, rethrowUnless } from '../fs-errors.ts';
import type { FolioContext } from './context.ts';

/** The data directory's own folders that writeFileAtomically writes into (posters, drawn pages, page thumbnails). */
const SWEPT_FOLDERS = ['thumbnails', 'cache'];

/**
 * Removes the `.partial` files a killed server left in the data directory's poster and cache
 * folders: nothing refers to them, and without this they would stay for ever. A write this server
 * began meanwhile (a poster task right after start) keeps its file. Symbolic links are not followed
 * and a library folder (an old library set inside the data directory before that was refused) is
 * not entered: only Folio's own files are touched.
 * Resolves to the number of files removed.
 */
export async function sweepPartialFiles(ctx: FolioContext): Promise<number> {
  const libraryRoots = new Set(ctx.repos.libraries.findAll().map((l) => resolve(l.root)));
  let removed = 0;
  const sweep = async (folder: string): Promise<void> => {
    if (libraryRoots.has(resolve(folder))) return;
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      rethrowUnless(error, isMissingFile); // never written to, or removed meanwhile
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await sweep(path);
      else if (entry.isFile() && isLeftoverPartialFile(path)) {
        await rm(path, { force: true });
        removed++;
      }
    }
  };
  for (const folder of SWEPT_FOLDERS) await sweep(join(ctx.dataDir, folder));
  return removed;
}
