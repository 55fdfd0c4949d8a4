import { getBook, getBookPages, pageUrl, pageVersion } from '../../api/books.ts';
import { getSeries } from '../../api/series.ts';
import type { BookDto, PageDto, ReadingDirection } from '../../api/types.ts';
import { PAGE_REQUEST_HEADERS, prefetchedPages } from './pagePrefetch.ts';

export interface LoadedBook {
  book: BookDto;
  pages: PageDto[];
  seriesDirection: ReadingDirection | '' | null;
}

/** REFERENCE §5.2: ?page= when valid, else the saved page of a book in progress, else page 1. */
export function startPageFor(book: BookDto, pageCount: number, requested: number | null): number {
  if (requested !== null && requested >= 1 && requested <= pageCount) return requested;
  const progress = book.readProgress;
  if (progress && !progress.completed && progress.page >= 1 && progress.page <= pageCount) return progress.page;
  return 1;
}

/**
 * Starts the download of the page the reader will open at. The URL is the reader's own for a page
 * shown as it is stored; a page the browser cannot show is asked converted, under another URL, and
 * this download then simply goes unused.
 */
function prefetchStartPage(bookId: string, page: number, book?: BookDto): void {
  prefetchedPages.prefetch(pageUrl(bookId, page, undefined, book && pageVersion(book)), PAGE_REQUEST_HEADERS);
}

async function fetchBook(bookId: string, requestedPage: number | null): Promise<LoadedBook> {
  // Everything the first page needs starts at once: the page list, the book, and the page's bytes
  // when the address names the page. The series (only its reading direction) follows the book.
  const pages = getBookPages(bookId);
  pages.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  if (requestedPage !== null && requestedPage >= 1) prefetchStartPage(bookId, requestedPage);
  const book = await getBook(bookId);
  const startPage = startPageFor(book, book.media.pagesCount, requestedPage);
  if (startPage !== requestedPage) prefetchStartPage(book.id, startPage, book);
  // The series only contributes its reading direction: reading goes on without it.
  const series = await getSeries(book.seriesId).catch(() => null);
  return { book, pages: await pages, seriesDirection: series?.metadata.readingDirection ?? null };
}

/** One book fetched ahead (being opened, or the sibling the reader is about to open), kept for a short while. */
let prefetched: { bookId: string; requestedPage: number | null; at: number; loading: Promise<LoadedBook> } | null = null;
const PREFETCH_FRESH_MS = 60_000;

/**
 * Starts loading a book the reader is about to show: its description, its pages, its series and the
 * bytes of the page it opens at, so that none of it waits for the reader's code to load, and a
 * sibling opened from the end-of-book note costs no round trip. Calling it again for the same book
 * and page does nothing.
 */
export function prefetchBook(bookId: string, requestedPage: number | null = null): void {
  if (prefetched?.bookId === bookId && prefetched.requestedPage === requestedPage && fresh(prefetched.at)) return;
  const loading = fetchBook(bookId, requestedPage);
  prefetched = { bookId, requestedPage, at: Date.now(), loading };
  loading.catch(() => {
    if (prefetched?.loading === loading) prefetched = null;
  });
}

function fresh(at: number): boolean {
  return Date.now() - at < PREFETCH_FRESH_MS;
}

/**
 * The book for the reader: taken from the prefetch when one is fresh, else fetched now. A prefetch
 * that failed (it may have started before the session was restored) is tried once more.
 */
export function loadBook(bookId: string, requestedPage: number | null = null): Promise<LoadedBook> {
  const ready = prefetched;
  if (ready && ready.bookId === bookId && ready.requestedPage === requestedPage && fresh(ready.at)) {
    prefetched = null;
    return ready.loading.catch(() => fetchBook(bookId, requestedPage));
  }
  return fetchBook(bookId, requestedPage);
}
