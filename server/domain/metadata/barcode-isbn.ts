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
 * Library option importBarcodeIsbn: an EAN-13 barcode carrying an ISBN on one of the last pages
 * (or the first) becomes the book's ISBN, unless the ISBN is locked or already known (another
 * source filled it, or a previous scan did). Returns the ISBN set, or null.
 */
export async function importBarcodeIsbn(ctx: FolioContext, bookId: string): Promise<string | null> {
  const book = ctx.repos.books.findById(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  const media = ctx.repos.media.findByBookId(bookId);
  const meta = ctx.repos.bookMetadata.findByBookId(bookId);
  if (!book || !library?.importBarcodeIsbn || !meta || meta.isbnLock || meta.isbn !== '') return null;
  if (media?.status !== 'READY') return null;
  // Page images only: a text EPUB has a page count but no pages to look at.
  const pageCount = ctx.repos.media.countPages(bookId);
  for (const number of barcodePageNumbers(pageCount)) {
    let isbn: string | null = null;
    try {
      isbn = (await withPageBytes(ctx, book, number, (bytes, page) => findIsbnInImage(bytes, page))) ?? null;
    } catch (error) {
      ctx.log(`barcode search failed on page ${number} of ${book.url}`, error);
    }
    if (!isbn) continue;
    const current = ctx.repos.bookMetadata.findByBookId(bookId);
    if (!current || current.isbnLock || current.isbn !== '') return null;
    ctx.repos.bookMetadata.update({ ...current, isbn, lastModified: Date.now() });
    return isbn;
  }
  return null;
}
