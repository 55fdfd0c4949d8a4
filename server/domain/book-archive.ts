import type { Book } from '../db/book-repository.ts';
import type { PooledBook } from '../media/archive-pool.ts';
import type { MediaWork } from '../media/work-callers.ts';
import type { FolioContext } from './context.ts';

/**
 * A book's open archive, shared through the archive pool under the book file's version (its size
 * and date): the one way every part of the server opens a book's file, so that readers, analysis,
 * posters and metadata share a handle and a changed file is never read through a stale one.
 * Its reads are done for `work.caller` (the request's user; the background when absent).
 */
export function bookArchive(ctx: FolioContext, book: Pick<Book, 'url' | 'fileSize' | 'fileLastModified'>, work?: MediaWork): Promise<PooledBook> {
  return ctx.archives.get(book.url, archiveVersion(book), work);
}

/** The version a book's archive is cached under in the pool: its file's size and date as last scanned. */
export function archiveVersion(book: Pick<Book, 'fileSize' | 'fileLastModified'>): string {
  return `${book.fileSize}:${book.fileLastModified}`;
}
