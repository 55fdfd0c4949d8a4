import type { BookDto } from '../../api/types.ts';
import { lazyScreen } from '../routing/lazyScreen.tsx';
import { showingBook } from './bookLoader.ts';
import { isTextEpub } from './bookKind.ts';
import { sharedDecodePool } from './decodePool.ts';
import { loadReaderModule } from './readerStart.ts';

/**
 * The reader's lazy screen, and getting it ready from a book's screen ahead of the click (the chunk
 * and warm workers, at idle). What opening a book starts is in readerStart.ts, which the boot entry
 * shares.
 */

// The reader (engine, workers) is the heaviest part of the client; it loads when a book is opened.
export const ReaderScreen = lazyScreen(() => loadReaderModule().then((m) => m.ReaderScreen));

export { openBook, openBookFromAddress } from './readerStart.ts';

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
