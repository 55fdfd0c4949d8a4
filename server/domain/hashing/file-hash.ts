import { open } from 'node:fs/promises';
import { hashOpenedFile } from '../../media/file-hasher.ts';
import type { FolioContext } from '../context.ts';
import { putOffReason } from '../tasks/put-off.ts';
import { libraryRoots, openInsideItsLibrary } from '../library/library-paths.ts';

/**
 * Content hash of a book file (BookDto.fileHash, used to spot duplicates and moved files):
 * 128-bit hex like Komga's, computed by streaming the file.
 */
export async function hashBookFile(ctx: FolioContext, bookId: string): Promise<void> {
  const book = ctx.repos.books.findById(bookId);
  if (!book || book.deletedDate !== null) return;
  let digest: string;
  try {
    digest = await hashLibraryFile(libraryRoots(ctx), book.url);
  } catch (error) {
    // Out of descriptors (or another shortage that passes): the task queue puts the hash off and
    // runs it again (tasks/put-off.ts), rather than leave it empty until the next scan.
    if (putOffReason(error)) throw error;
    ctx.log(`cannot hash ${book.url}`, error);
    return;
  }
  const current = ctx.repos.books.findById(bookId);
  // Skip if the file changed meanwhile (a rescan will queue a new hash).
  if (!current || current.fileLastModified !== book.fileLastModified || current.fileSize !== book.fileSize) return;
  ctx.repos.books.update({ ...current, fileHash: digest });
}

/**
 * The fileHash of a file on disk. The hashing runs in a worker thread (media/file-hasher.ts): on
 * the main thread, MD5 of a 1 GB book took two seconds of it in 1 MiB slices, each request arriving
 * meanwhile waiting for the slice in progress, and their throughput halved for as long.
 */
export async function hashFile(path: string): Promise<string> {
  return hashOpenedFile(await open(path, 'r'), path);
}

/**
 * The fileHash of a book file, read through the descriptor checked to lie inside its library
 * (openInsideItsLibrary): a link swapped in for the book is never hashed.
 */
export async function hashLibraryFile(roots: string[], path: string): Promise<string> {
  return hashOpenedFile(await openInsideItsLibrary(roots, path), path);
}
