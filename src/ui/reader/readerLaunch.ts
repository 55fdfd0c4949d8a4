import type { BookDto } from '../../api/types.ts';
import { lazyScreen } from '../routing/lazyScreen.tsx';
import { prefetchBook, showingBook, shownBook } from './bookLoader.ts';
import { isTextEpub } from './bookKind.ts';
import { sharedDecodePool } from './decodePool.ts';
import { parseReaderQuery } from './readerQuery.ts';

/**
 * Getting the reader going before it is on screen. This module is in the main bundle: the reader's
 * own code (engine, views) loads on demand, but what the first page waits for — the reader's chunk,
 * the decode workers, the book's descriptions and the page's bytes — starts from here, as early as
 * the book is known: on a cold load of a reader's address while the main bundle runs (before the
 * language file and the first render), in the app when the route changes, and from a book's screen
 * ahead of the click (the chunk and warm workers, at idle).
 */

// The reader (engine, workers) is the heaviest part of the client; it loads when a book is opened.
export const ReaderScreen = lazyScreen(() => import('./ReaderScreen.tsx').then((m) => m.ReaderScreen));

function loadReaderCode(): void {
  ReaderScreen.preload().catch((error: unknown) => {
    // The screen's own load tries again and shows the failure; this early start only logs it.
    console.warn('The reader could not be loaded ahead of time', error);
  });
}

/**
 * Everything the first page of `bookId` needs starts now; each start is idempotent. The decode
 * workers start unless the book is known to be a text EPUB (read without them): on a cold load it is
 * not known yet, and a comic's first page must not wait for the book to find out.
 */
export function openBook(bookId: string, requestedPage: number | null): void {
  // The book's descriptions first: the page the reader opens at may depend on them.
  prefetchBook(bookId, requestedPage, { decodeOpening: true });
  loadReaderCode();
  const known = shownBook(bookId);
  if (!(known && isTextEpub(known))) sharedDecodePool().warmUp();
}

/** The reader's address: /book/{id}/read. */
const READER_PATH = /^\/book\/([^/]+)\/read\/?$/;

/**
 * On a cold load of a reader's address, starts opening the book from the address alone — before
 * the language file loads, the session is restored and React renders (the loader tries a request
 * that beat the session once more).
 */
export function openBookFromAddress(location: Pick<Location, 'pathname' | 'search'>): void {
  const match = READER_PATH.exec(location.pathname);
  if (!match?.[1]) return;
  let bookId: string;
  try {
    bookId = decodeURIComponent(match[1]);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return; // a malformed address: the router shows what it makes of it
  }
  openBook(bookId, parseReaderQuery(location.search).page);
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

/**
 * A book's screen shows a book that can be read: once the screen is idle, load the reader's code and
 * start (and warm) the decode workers, so that opening it waits for neither; and the book is kept,
 * so the page it opens at is asked for the moment the reader opens, beside the fresh copy of the
 * book the reader loads. Text EPUBs have their own reader and no pages to decode. Returns the
 * call that undoes it, for when the screen goes or shows another copy.
 */
export function prepareReaderFor(book: BookDto): () => void {
  const forget = showingBook(book);
  const cancel = isTextEpub(book)
    ? null
    : whenIdle(() => {
        loadReaderCode();
        sharedDecodePool().warmUp();
      });
  return () => {
    forget();
    cancel?.();
  };
}
