import { getBook, getBookPages, pageUrl, pageVersion } from '../../api/books.ts';
import { getSeries } from '../../api/series.ts';
import type { BookDto, PageDto, ReadingDirection } from '../../api/types.ts';
import { isTextEpub } from './bookKind.ts';
import { decodeOpeningSpread } from './openingDecode.ts';
import { appMayStart, paintOpeningSpread, type OpeningPaint } from './openingPaint.ts';
import { sharedDecodePool } from './decodePool.ts';
import { readerPreferences } from './settingsStore.ts';
import type { StartHint } from './startHint.ts';

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
 * Starts the download of the page the reader will open at, in a decode worker (its decode then runs
 * there, on those bytes). The URL is the reader's own for a page shown as it is stored; a page the
 * browser cannot show is asked converted, under another URL, and this download then simply goes unused.
 */
function prefetchStartPage(bookId: string, page: number, version?: string): void {
  sharedDecodePool().fetchAhead(pageUrl(bookId, page, undefined, version));
}

/** The book a book's screen shows (see showingBook). */
let shown: BookDto | null = null;

/**
 * A book's screen shows `book` (kept up to date by its live events): opening it from there asks for
 * the page it opens at right away, from this copy's progress, instead of after a fresh copy of the
 * book came back. Returns the call that forgets it, for when the screen goes.
 */
export function showingBook(book: BookDto): () => void {
  shown = book;
  return () => {
    if (shown === book) shown = null;
  };
}

/** The copy of `bookId` its screen shows, if that is the screen being left. */
export function shownBook(bookId: string): BookDto | null {
  return shown?.id === bookId ? shown : null;
}

/** A book being fetched: `described` once the book and its page list are in, `loading` with its series too. */
interface Fetching {
  described: Promise<Omit<LoadedBook, 'seriesDirection'>>;
  loading: Promise<LoadedBook>;
}

/**
 * `hint`: what the server said of the book on a cold load (startHint.ts): the page it opens at, whose
 * bytes are then asked for at once, and its series, asked for beside the book. A book that turns out
 * to open elsewhere, or to be in another series, has those asked for as before.
 */
function fetchBook(bookId: string, requestedPage: number | null, hint: StartHint | null = null, imageFirst = false): Fetching {
  let described!: (value: Omit<LoadedBook, 'seriesDirection'>) => void;
  const describedBook = new Promise<Omit<LoadedBook, 'seriesDirection'>>((resolve) => (described = resolve));
  return { described: describedBook, loading: fetchBookParts(bookId, requestedPage, hint, imageFirst, described) };
}

/** `imageFirst`: the document's image is downloading the start page (openingImage.ts): not fetched here too. */
async function fetchBookParts(
  bookId: string,
  requestedPage: number | null,
  hint: StartHint | null,
  imageFirst: boolean,
  described: (value: Omit<LoadedBook, 'seriesDirection'>) => void,
): Promise<LoadedBook> {
  // Everything the first page needs starts at once: the page list, the book, the series, and the
  // page's bytes when the address names the page or the book's screen just showed where it stands.
  // The reader works from the fresh copy of the book; if that opens at another page, its bytes follow.
  // Sent within this call, ahead of the reader's code and the workers' script (see getJsonNow).
  const pages = getBookPages(bookId, { now: true });
  pages.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const known = shownBook(bookId);
  // Text EPUBs have no page images: asking for one is answered 400. So a page is asked for before the
  // book is in only when something says the book has them: the book's screen's copy, or the server's
  // hint (written only for a page image, at the page ?page= names when it is one). ?page= alone says
  // nothing of the kind: a text EPUB opened at /read?page=1 asked for /pages/1.
  const early = known ? (isTextEpub(known) ? null : (requestedPage ?? startPageFor(known, known.media.pagesCount, null))) : (hint?.page ?? null);
  // At the reader's own (versioned) address when the version is known: the one the document's image
  // of the page, if any, is downloading, so that the HTTP cache serves both from one response.
  const version = known ? pageVersion(known) : hint?.version;
  if (early !== null && !imageFirst) prefetchStartPage(bookId, early, version);
  // The series only contributes its reading direction; the screen's copy (or the server's hint)
  // already says which series, so it is asked for beside the book rather than after it.
  const seriesId = known?.seriesId ?? hint?.seriesId;
  const knownSeries = seriesId ? seriesDirection(seriesId) : null;
  const book = await getBook(bookId, { now: true });
  if (!isTextEpub(book) && !imageFirst) prefetchStartPage(book.id, startPageFor(book, book.media.pagesCount, requestedPage), pageVersion(book));
  // A failed page list fails the load below; `described` then never settles, and nothing waits on it alone.
  void pages.then((list) => described({ book, pages: list }), () => {});
  const direction = knownSeries && seriesId === book.seriesId ? await knownSeries : await seriesDirection(book.seriesId);
  return { book, pages: await pages, seriesDirection: direction };
}

/** The series' reading direction; reading goes on without it (null) if the series cannot be had. */
function seriesDirection(seriesId: string): Promise<ReadingDirection | '' | null> {
  return getSeries(seriesId, { now: true }).then(
    (series) => series.metadata.readingDirection,
    (error: unknown) => {
      console.warn(`The reading direction of series ${seriesId} could not be loaded`, error);
      return null;
    },
  );
}

/** One book fetched ahead (being opened, or the sibling the reader is about to open), kept for a short while. */
let prefetched: {
  bookId: string;
  requestedPage: number | null;
  at: number;
  described: Promise<Omit<LoadedBook, 'seriesDirection'>>;
  loading: Promise<LoadedBook>;
  /** Its opening spread is being decoded ahead of the reader's view (see decodeOpeningSpread). */
  decoding: boolean;
  /** The pages of that spread decoded ahead, by URL: dropped if another book replaces this one. */
  opening: Set<string>;
} | null = null;
const PREFETCH_FRESH_MS = 60_000;

/**
 * Starts loading a book the reader is about to show: its description, its pages, its series and the
 * bytes of the page it opens at, so that none of it waits for the reader's code to load, and a
 * sibling opened from the end-of-book note costs no round trip. With `decodeOpening` (the book is
 * being opened, not merely likely next), the spread it opens at is also decoded as soon as its bytes
 * and the page list are there; with `paintOpening` as well (a cold load of the reader's address), that
 * spread is painted as a first frame as soon as it is decoded (see openingPaint.ts). `hint`: what the
 * server said of the book on a cold load (see fetchBook). Calling it again
 * for the same book and page starts nothing twice.
 */
export function prefetchBook(
  bookId: string,
  requestedPage: number | null = null,
  {
    decodeOpening = false,
    paintOpening = false,
    imageFirst = false,
    hint,
  }: { decodeOpening?: boolean; paintOpening?: boolean; imageFirst?: boolean; hint?: StartHint } = {},
): void {
  const known = prefetched?.bookId === bookId && prefetched.requestedPage === requestedPage && fresh(prefetched.at) ? prefetched : null;
  const record = known ?? {
    bookId,
    requestedPage,
    at: Date.now(),
    ...fetchBook(bookId, requestedPage, hint ?? null, imageFirst),
    decoding: false,
    opening: new Set<string>(),
  };
  if (!known) {
    replacePrefetched(record);
    record.loading.catch(() => {
      if (prefetched === record) prefetched = null;
    });
  }
  // Asked to paint a first frame once the decode is already under way: that decode has no painter.
  if (paintOpening && record.decoding) void paintOpeningSpread(null);
  if (decodeOpening && !record.decoding) {
    record.decoding = true;
    // The opening decode starts once the book and its page list are in, without waiting for the
    // series: the decode sizes do not depend on the reading direction (a right-to-left spread is the
    // same pages, mirrored), and the direction only places them, which the first frame does below.
    // Unless the reader's own preference is the webtoon view, whose pages the series may turn paged
    // or not: that waits for the series. Should the series make the book a webtoon, the decode ahead
    // goes unclaimed (its bytes serve the webtoon's own decode) and is freed.
    // With the document's image as the first frame (`imageFirst`, a cold load), the decode waits for
    // the app, which starts once that frame is up: the browser's decode of the image has the CPU meanwhile.
    const described = imageFirst ? record.described.then(async (early) => (await appMayStart(), early)) : record.described;
    const loading = imageFirst ? record.loading.then(async (loaded) => (await appMayStart(), loaded)) : record.loading;
    if (readerPreferences.readingDirection !== 'WEBTOON') {
      // `described` only ever resolves (a failed load leaves it pending): no rejection to handle.
      void described.then((early) => noteOpening(record, decodeOpeningSpread({ ...early, seriesDirection: null }, startPageFor(early.book, early.pages.length, requestedPage))));
    }
    loading.then(
      (loaded) => {
        const opening = noteOpening(record, decodeOpeningSpread(loaded, startPageFor(loaded.book, loaded.pages.length, requestedPage)));
        if (paintOpening) void paintOpeningSpread(opening);
      },
      // The reader's own load tries again and reports the failure; a first frame is not coming.
      () => {
        if (paintOpening) void paintOpeningSpread(null);
      },
    );
  }
}

/**
 * A new copy of `bookId` is on its screen (its progress may have changed: marked read or unread, or
 * read elsewhere): what was fetched ahead for it may open it at the wrong page, so it is dropped.
 */
export function forgetPrefetchedBook(bookId: string): void {
  if (prefetched?.bookId === bookId) replacePrefetched(null);
}

/**
 * `next` is now the book fetched ahead. The spread decoded ahead for the one it replaces (a book's
 * screen left for another's, a book marked read) will not be asked for: its bitmaps are freed at
 * once, so that what is held decoded ahead is one book's opening spread at a time, not one per book
 * screen looked at in the last half minute. Not when the reader takes the book (loadBook).
 */
function replacePrefetched(next: NonNullable<typeof prefetched> | null): void {
  const previous = prefetched;
  prefetched = next;
  if (!previous || previous === next) return;
  for (const url of previous.opening) sharedDecodePool().dropAhead(url);
}

function noteOpening(record: NonNullable<typeof prefetched>, opening: OpeningPaint | null): OpeningPaint | null {
  for (const url of opening?.urls.values() ?? []) record.opening.add(url);
  return opening;
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
    return ready.loading.catch(() => fetchBook(bookId, requestedPage).loading);
  }
  return fetchBook(bookId, requestedPage).loading;
}
