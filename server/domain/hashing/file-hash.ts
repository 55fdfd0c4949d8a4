import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FolioContext } from '../context.ts';
import { assertInsideItsLibrary, libraryRoots } from '../library/library-paths.ts';

/**
 * Content hash of a book file (BookDto.fileHash, used to spot duplicates and moved files):
 * 128-bit hex like Komga's, computed by streaming the file.
 */
export async function hashBookFile(ctx: FolioContext, bookId: string): Promise<void> {
  const book = ctx.repos.books.findById(bookId);
  if (!book || book.deletedDate !== null) return;
  let digest: string;
  try {
    await assertInsideItsLibrary(libraryRoots(ctx), book.url);
    digest = await hashFile(book.url);
  } catch (error) {
    ctx.log(`cannot hash ${book.url}`, error);
    return;
  }
  const current = ctx.repos.books.findById(bookId);
  // Skip if the file changed meanwhile (a rescan will queue a new hash).
  if (!current || current.fileLastModified !== book.fileLastModified || current.fileSize !== book.fileSize) return;
  ctx.repos.books.update({ ...current, fileHash: digest });
}

/** The fileHash of a file on disk (streamed, 1 MiB at a time). */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
