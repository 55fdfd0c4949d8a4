import type { Book } from '../../db/book-repository.ts';

/** At most this many pages are remembered (a few MB); the oldest go first. */
const MAX_PAGES = 65_536;

/**
 * Pages of books already looked at for barcodes by another task that decoded them anyway, and found
 * without anything bar-like: the poster of a book is drawn from page 1, which the barcode search
 * would decode again. Kept for one barcode search each, for the book's content as it was (a file
 * changed meanwhile is a different key), and in memory only: after a restart the page is decoded again.
 */
export class PagesWithoutBars {
  private readonly pages = new Set<string>();

  remember(book: Book, pageNumber: number): void {
    const key = pageKey(book, pageNumber);
    this.pages.delete(key);
    this.pages.add(key);
    if (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.values().next().value!);
  }

  /** True once for a page remembered for this very content of the book. */
  take(book: Book, pageNumber: number): boolean {
    return this.pages.delete(pageKey(book, pageNumber));
  }
}

function pageKey(book: Book, pageNumber: number): string {
  return `${book.id}:${book.fileLastModified}:${book.fileSize}:${pageNumber}`;
}
