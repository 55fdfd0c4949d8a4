import type { BookDto } from '../../api/types.ts';
import { lazyScreen } from '../routing/lazyScreen.tsx';
import { forgetPrefetchedBook, prefetchBook, showingBook } from './bookLoader.ts';
import { isTextEpub } from './bookKind.ts';
import { sharedDecodePool } from './decodePool.ts';
import { loadReaderModule, openBook } from './readerStart.ts';

/**
 * The reader's lazy screen, and getting it ready from a book's screen ahead of the click (the chunk
 * and warm workers, at idle). What opening a book starts is in readerStart.ts, which the boot entry
 * shares.
 */

// The reader (engine, workers) is the heaviest part of the client; it loads when a book is opened.
export const ReaderScreen = lazyScreen(() => loadReaderModule().then((m) => m.ReaderScreen));

export { openBook, openBookFromAddress } from './readerStart.ts';

/**
 * The pointer is on the way into the reader (over its link, or pressing it) or the keyboard is on
 * its link: the book starts opening now — its descriptions, and the decode of the page it opens at —
 * which the click a moment later takes over instead of starting. Hovering away costs one page's
 * decode, freed after half a minute; nothing is done on speculation under Save-Data.
 */
export function aboutToRead(bookId: string): void {
  if (!savingData()) openBook(bookId, null);
}

/** Through the lazy screen, so that the reader renders at once when opened (no loading step). */
function loadReaderCode(): void {
  ReaderScreen.preload().catch((error: unknown) => {
    // The screen's own load tries again and shows the failure; this early start only logs it.
    console.warn('The reader could not be loaded ahead of time', error);
  });
}

/** Browsers without requestIdleCallback (Safari) get a short timeout instead. */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 200);
  return () => clearTimeout(handle);
}

/** The user asked the browser to spare data (Save-Data): nothing is downloaded on speculation. */
function savingData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return connection?.saveData === true;
}

/**
 * A book's screen shows a book that can be read: once the screen is idle, load the reader's code,
 * start the decode workers, then fetch what the reader opens with — the book's descriptions, and
 * the page it opens at, downloaded by a worker — so that opening it (or pointing at Read, see
 * aboutToRead) waits only for that page's decode. The book is kept too, so a reader opened before
 * all that is done asks for the page the moment it opens. Text EPUBs have their own reader and no
 * pages to decode. Returns the call that undoes it, for when the screen goes or shows another copy.
 */
export function prepareReaderFor(book: BookDto): () => void {
  forgetPrefetchedBook(book.id);
  const forget = showingBook(book);
  let gone = false;
  const cancel = isTextEpub(book)
    ? null
    : whenIdle(() => {
        loadReaderCode();
        const pool = sharedDecodePool();
        pool.warmUp();
        if (savingData()) return;
        pool.whenReady().then(
          () => {
            // Kept a minute; the reader takes it (see loadBook) or fetches afresh after that. The
            // page it opens at is decoded too, at the size the reader will draw it (see
            // decodeOpeningSpread): opening the book then waits for no decode at all.
            if (!gone) prefetchBook(book.id, null, { decodeOpening: true });
          },
          (error: unknown) => console.warn(`Book ${book.id} was not fetched ahead of the reader`, error),
        );
      });
  return () => {
    gone = true;
    forget();
    cancel?.();
  };
}
