import type { Book } from '../../db/book-repository.ts';
import type { BookMetadata } from '../../db/book-metadata-repository.ts';
import type { FolioContext } from '../context.ts';
import { withPageBytes } from '../pages/decode-input.ts';
import { findIsbnInImage } from '../../media/barcode-scan.ts';

/**
 * Barcodes are printed on covers: the back cover (the last page, or the one before a scanner's credit
 * page) and, on newsstand comics, the front one. Only those are searched.
 */
const LAST_PAGES = 2;

/** Last pages first, then the first page (each once). */
export function barcodePageNumbers(pageCount: number): number[] {
  const numbers: number[] = [];
  for (let n = pageCount; n > Math.max(0, pageCount - LAST_PAGES); n--) numbers.push(n);
  if (pageCount > 0 && !numbers.includes(1)) numbers.push(1);
  return numbers;
}

/**
 * Whether the barcode search has something to find in a book: its library has importBarcodeIsbn on
 * and its ISBN is empty and unlocked (media READY is checked by the callers that need it).
 */
export function barcodeSearchWanted(ctx: FolioContext, book: Book, metadata = ctx.repos.bookMetadata.findByBookId(book.id)): boolean {
  return isbnOpen(metadata) && ctx.repos.libraries.findById(book.libraryId)?.importBarcodeIsbn === true;
}

/** Whether `metadata` leaves the ISBN for the barcode search to fill. */
function isbnOpen(metadata: BookMetadata | undefined): metadata is BookMetadata {
  return metadata !== undefined && !metadata.isbnLock && metadata.isbn === '';
}

/**
 * Library option importBarcodeIsbn: an EAN-13 barcode carrying an ISBN on one of the last pages
 * (or the first) becomes the book's ISBN, unless the ISBN is locked or already known (another
 * source filled it, or a previous scan did). Returns the ISBN set, or null.
 */
export async function importBarcodeIsbn(ctx: FolioContext, bookId: string): Promise<string | null> {
  const book = ctx.repos.books.findById(bookId);
  if (!book || !barcodeSearchWanted(ctx, book)) return null;
  if (ctx.repos.media.findByBookId(bookId)?.status !== 'READY') return null;
  // Page images only: a text EPUB has a page count but no pages to look at.
  const pageCount = ctx.repos.media.countPages(bookId);
  for (const number of barcodePageNumbers(pageCount)) {
    // Page 1 was decoded for the book's poster, which looked for bars on it too.
    if (ctx.pagesWithoutBars.take(book, number)) continue;
    let isbn: string | null = null;
    try {
      isbn = (await withPageBytes(ctx, book, number, (bytes, page) => findIsbnInImage(bytes, page))) ?? null;
    } catch (error) {
      ctx.log(`barcode search failed on page ${number} of ${book.url}`, error);
    }
    if (!isbn) continue;
    const current = ctx.repos.bookMetadata.findByBookId(bookId);
    if (!isbnOpen(current)) return null;
    ctx.repos.bookMetadata.update({ ...current, isbn, lastModified: Date.now() });
    return isbn;
  }
  return null;
}
