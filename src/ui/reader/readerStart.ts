import { prefetchBook, shownBook } from './bookLoader.ts';
import { isTextEpub } from './bookKind.ts';
import { sharedDecodePool } from './decodePool.ts';
import { appMayStart, holdAppForOpeningPaint, letAppStart } from './openingPaint.ts';
import { showOpeningImage } from './openingImage.ts';
import { restoreSessionEarly } from '../store/sessionRestore.ts';
import { parseReaderQuery } from './readerQuery.ts';
import { pageBasePath } from '../../api/basePath.ts';
import { readStartHint, type StartHint } from './startHint.ts';

/**
 * Getting the reader going before it is on screen, without React: what the first page waits for —
 * the reader's chunk, the decode workers, the book's descriptions, the page's bytes and their decode —
 * starts from here as early as the book is known. On a cold load of a reader's address the boot
 * entry (src/ui/boot.ts) calls openBookFromAddress before the main bundle has even loaded; the main
 * bundle calls it again (a no-op then) and the reader's route calls openBook in the app. Everything
 * here is shared by the two entries (one module instance), so nothing starts twice.
 */

/** The reader's own code (engine, views), loaded on demand: the lazy screen and the early start share it. */
export const loadReaderModule = () => import('./ReaderScreen.tsx');

export function loadReaderCode(): void {
  loadReaderModule().catch((error: unknown) => {
    // The screen's own load tries again and shows the failure; this early start only logs it.
    console.warn('The reader could not be loaded ahead of time', error);
  });
}

/**
 * Everything the first page of `bookId` needs starts now; each start is idempotent. The decode
 * workers start unless the book is known to be a text EPUB (read without them), on a cold load once
 * its first frame is up.
 */
export function openBook(
  bookId: string,
  requestedPage: number | null,
  { coldLoad = false, hint, openingImage = false }: { coldLoad?: boolean; hint?: StartHint; openingImage?: boolean } = {},
): void {
  // The book's descriptions first: the page the reader opens at may depend on them. With the
  // document's image as the first frame (openingImage.ts), the browser downloads and decodes the
  // page for it: the reader's own download (from the HTTP cache then) and decode wait for the app.
  prefetchBook(bookId, requestedPage, { decodeOpening: true, paintOpening: coldLoad && !openingImage, imageFirst: openingImage, hint });
  // On a cold load the reader's code waits for the app (held until the first frame is up): evaluating
  // it now would take the CPU the first page's decode needs.
  if (!coldLoad) loadReaderCode();
  const known = shownBook(bookId);
  if (known && isTextEpub(known)) return;
  // On a cold load the opening page is decoded on the main thread as its bytes arrive (DecodePool
  // decodeAhead): starting the workers then (their script, threads and decoders) would only take
  // the CPU that decode needs. They start once the first frame is up, with the app.
  if (coldLoad) void appMayStart().then(() => sharedDecodePool().warmUp());
  else sharedDecodePool().warmUp();
}

/** The reader's address: /book/{id}/read (under the base path). */
const READER_PATH = /^\/book\/([^/]+)\/read\/?$/;

/**
 * On a cold load of a reader's address, starts opening the book from the address alone — before
 * the main bundle runs, the language file loads, the session is restored and React renders (the
 * loader tries a request that beat the session once more) — and holds the app's start until its
 * first frame is painted (see openingPaint.ts).
 */
export function openBookFromAddress(location: Pick<Location, 'pathname' | 'search'>): void {
  const base = pageBasePath();
  if (!location.pathname.startsWith(base)) return;
  const match = READER_PATH.exec(location.pathname.slice(base.length));
  if (!match?.[1]) return;
  let bookId: string;
  try {
    bookId = decodeURIComponent(match[1]);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return; // a malformed address: the router shows what it makes of it
  }
  holdAppForOpeningPaint();
  const hint = readStartHint() ?? undefined;
  // The document's own image of the start page, where the reader can use it as the first frame.
  const imaged = hint ? showOpeningImage(bookId, hint) : null;
  void imaged?.then(letAppStart);
  openBook(bookId, parseReaderQuery(location.search).page, { coldLoad: true, hint, openingImage: imaged !== null });
  // The app's start-up asks who is signed in before it shows the reader: asked now, it is answered
  // while the first frame is being decoded.
  restoreSessionEarly();
}
