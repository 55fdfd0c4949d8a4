import type { FolioContext } from '../context.ts';
import { putOffReason } from '../tasks/put-off.ts';
import { openBookPage } from '../pages/page-content.ts';
import { submitPageRemoval } from './page-removal.ts';
import { hashStream } from './stream-hash.ts';

/**
 * Page hashes spot pages repeated across books (scanner credits, ads, blank pages). Like Komga,
 * only the first and last few pages of a book are hashed: that is where such pages sit, and it
 * keeps hashing a large library cheap. The hash is xxHash64 (hex, hashing/stream-hash.ts).
 */
export const PAGE_HASH_EDGE = 3;

/** Formats whose pages are archive entries (hashable as stored, and rewritable for removal). */
const ARCHIVE_TYPES = new Set(['application/zip']);
const isArchiveBook = (mediaType: string | null) =>
  mediaType !== null && (ARCHIVE_TYPES.has(mediaType) || mediaType.startsWith('application/x-rar-compressed'));

/** Numbers of the pages to hash in a book of `count` pages. */
export function edgePageNumbers(count: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= count; n++) if (n <= PAGE_HASH_EDGE || n > count - PAGE_HASH_EDGE) out.push(n);
  return out;
}

/**
 * Hashes the edge pages of an analysed book when its library has `hashPages`, then removes the
 * pages whose hash an admin marked DELETE_AUTO (this runs after every analysis, so after scans).
 */
export async function hashBookPages(ctx: FolioContext, bookId: string): Promise<void> {
  const book = ctx.repos.books.findById(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || book.deletedDate !== null || media?.status !== 'READY' || !isArchiveBook(media.mediaType)) return;
  if (!ctx.repos.libraries.findById(book.libraryId)?.hashPages) return;
  const repo = ctx.repos.pageHashes;
  for (const number of edgePageNumbers(media.pageCount)) {
    try {
      const content = await openBookPage(ctx, bookId, number);
      if (!content) continue;
      repo.setPageHash(bookId, number, await hashStream(content.stream));
    } catch (error) {
      // Out of descriptors or archive handles: the whole task is put off and run again by the
      // task queue (tasks/put-off.ts; pages hashed already are hashed again, to the same value).
      if (putOffReason(error)) throw error;
      ctx.log(`cannot hash page ${number} of ${book.url}`, error);
    }
  }
  const auto = repo.bookPagesWithAction(bookId, 'DELETE_AUTO');
  if (auto.length > 0) submitPageRemoval(ctx, bookId, auto);
}

export function submitPageHashing(ctx: FolioContext, bookId: string, book = ctx.repos.books.findById(bookId)): void {
  if (!book || !ctx.repos.libraries.findById(book.libraryId)?.hashPages) return;
  ctx.tasks.submit('HashBookPages', `HashBookPages:${bookId}`, () => hashBookPages(ctx, bookId), 0, { bookId });
}

/**
 * After a scan of a library with `hashPages`: hashes books analysed before hashing was turned on,
 * and removes the pages an admin marked DELETE_AUTO from every book that still has them.
 */
export function submitPageHashMaintenance(ctx: FolioContext, libraryId: string): void {
  if (!ctx.repos.libraries.findById(libraryId)?.hashPages) return;
  const repo = ctx.repos.pageHashes;
  for (const bookId of repo.findUnhashedBooks(libraryId)) submitPageHashing(ctx, bookId);
  for (const bookId of repo.findBooksWithAction(libraryId, 'DELETE_AUTO')) submitPageRemoval(ctx, bookId, repo.bookPagesWithAction(bookId, 'DELETE_AUTO'));
}
