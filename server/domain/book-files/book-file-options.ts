import { BOOK_READERS, bookExtension } from '../../media/readers.ts';
import { CONVERTIBLE_MEDIA_TYPES, convertBookToCbz } from './cbz-conversion.ts';
import type { FolioContext } from '../context.ts';
import { repairBookExtension } from './extension-repair.ts';

/**
 * File-level library options applied once a book is analysed: first the extension is made to
 * match the content (repairExtensions), then RAR books become CBZ (convertToCbz).
 */
export async function applyBookFileOptions(ctx: FolioContext, bookId: string): Promise<void> {
  // Both options are off by default: then there is nothing to look at (each step reads its rows itself).
  const book = ctx.repos.books.findById(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  if (!library?.repairExtensions && !library?.convertToCbz) return;
  await repairBookExtension(ctx, bookId);
  await convertBookToCbz(ctx, bookId);
}

/**
 * After a scan (as Komga does at the end of each one): the books of the library that the file
 * options would change now — analysed, and either a RAR (convertToCbz) or named with an extension
 * their format does not use (repairExtensions). Books analysed by this scan are covered by their
 * analysis; this catches those left as they were before the option was switched on.
 */
export function booksAwaitingFileOptions(ctx: FolioContext, libraryId: string): string[] {
  const library = ctx.repos.libraries.findById(libraryId);
  if (!library || (!library.convertToCbz && !library.repairExtensions)) return [];
  return ctx.repos.books
    .findByLibrary(libraryId)
    .filter((book) => {
      if (book.deletedDate !== null) return false;
      const media = ctx.repos.media.findByBookId(book.id);
      if (media?.status !== 'READY' || !media.mediaType) return false;
      if (library.convertToCbz && CONVERTIBLE_MEDIA_TYPES.has(media.mediaType)) return true;
      const reader = BOOK_READERS.find((r) => r.mediaType === media.mediaType);
      return library.repairExtensions && !!reader && !reader.extensions.includes(bookExtension(book.url));
    })
    .map((book) => book.id);
}
