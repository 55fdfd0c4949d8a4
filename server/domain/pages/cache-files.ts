import { mkdir, readdir, rm } from 'node:fs/promises';
import { writeFileAtomically } from '../../atomic-write.ts';
import { basename, dirname, join } from 'node:path';
import { isMissingFile, isUnwritableStorage, rethrowUnless } from '../../fs-errors.ts';
import { fileSlots } from '../../media/file-slots.ts';
import type { FolioContext } from '../context.ts';
import { warnNotStored } from '../unwritable-data-log.ts';

/*
 * Files the server draws once and keeps under <data dir>/cache (drawn PDF pages, page thumbnails):
 * per book, one folder per version of what they were drawn from.
 */

/** Removes every version folder of a book's cache but `keep`. */
export async function dropOtherVersions(bookDir: string, keep: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(bookDir);
  } catch (error) {
    rethrowUnless(error, isMissingFile); // nothing cached yet
    return;
  }
  await Promise.all(names.filter((n) => n !== keep).map((n) => rm(join(bookDir, n), { recursive: true, force: true })));
}

/**
 * Keeps `bytes` at `file` (in the version folder `version` of `bookDir`, older versions dropped),
 * written aside then renamed so that a reader never sees half a file. A cache that cannot be
 * written (a full disk, a read-only data folder) must not cost the reader the image already drawn:
 * the failure is logged and false returned, and the caller serves the bytes it has.
 */
export async function keepInCache(ctx: FolioContext, bookDir: string, version: string, file: string, bytes: Buffer): Promise<boolean> {
  try {
    await dropOtherVersions(bookDir, version);
    await mkdir(dirname(file), { recursive: true });
    await fileSlots.withSlot(() => writeFileAtomically(file, bytes));
    return true;
  } catch (error) {
    // A full disk fails every page a reader turns: one line a minute for it, per cache (page
    // thumbnails, drawn PDF pages: one may be a folder the other is not); anything else each time.
    const cache = basename(dirname(bookDir));
    if (isUnwritableStorage(error)) warnNotStored(ctx, 'drawn image not cached: the cache cannot be written (served anyway)', error, { file, cache }, cache);
    else ctx.logger.warn({ err: error, file }, 'drawn image not cached (served anyway)');
    return false;
  }
}
