import { link, lstat, rename, rm, stat } from 'node:fs/promises';
import { isMissingFile, rethrowUnless } from '../../fs-errors.ts';
import { basename, dirname, extname, join } from 'node:path';
import { BOOK_READERS, bookExtension } from '../../media/readers.ts';
import type { FolioContext } from '../context.ts';
import { entryInsideLibrary } from '../library/library-paths.ts';

/**
 * Library option repairExtensions: a book whose extension does not match its content (a zip named
 * .cbr, a RAR named .cbz) is renamed to its format's usual extension after analysis. The book row
 * keeps its id, so metadata, read progress and posters follow. Nothing happens when a file with
 * the right name already exists. Returns true when the file was renamed.
 */
export async function repairBookExtension(ctx: FolioContext, bookId: string): Promise<boolean> {
  const book = ctx.repos.books.findById(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !library?.repairExtensions || book.deletedDate !== null || media?.status !== 'READY') return false;
  const reader = BOOK_READERS.find((r) => r.mediaType === media.mediaType);
  if (!reader || reader.extensions.includes(bookExtension(book.url))) return false;
  const wanted = reader.extensions[0]!;
  try {
    const path = await entryInsideLibrary(library.root, book.url);
    const target = join(dirname(path), `${basename(path, extname(path))}.${wanted}`);
    await renameWithoutReplacing(path, target);
    const info = await stat(target);
    const url = join(dirname(book.url), basename(target));
    ctx.archives.forget(book.url);
    ctx.repos.books.update({ ...book, url, fileSize: info.size, fileLastModified: Math.floor(info.mtimeMs), lastModified: Date.now() });
    ctx.events.emit({ name: 'BookChanged', data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId } });
    return true;
  } catch (error) {
    ctx.log(`cannot repair the extension of ${book.url}`, error);
    return false;
  }
}

/** Renames `from` to `to`, failing (EEXIST) rather than replacing a file already at `to`. */
export async function renameWithoutReplacing(from: string, to: string): Promise<void> {
  try {
    // A hard link fails when the target exists, which a plain rename would silently overwrite.
    await link(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
    // File systems without hard links: check, then rename (a narrow race, no worse than before).
    const taken = await lstat(to).then(
      () => true,
      (failure: unknown) => {
        rethrowUnless(failure, isMissingFile);
        return false;
      },
    );
    if (taken) throw Object.assign(new Error(`${to} already exists`), { code: 'EEXIST' });
    await rename(from, to);
    return;
  }
  await rm(from);
}
