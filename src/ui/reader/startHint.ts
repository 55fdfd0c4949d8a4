/**
 * The page a reader's address opens at, as the server wrote it into index.html (see
 * server/http/reader-start-hint.ts): a `<link rel="preload">` the browser acted on while it loaded
 * the app's scripts. Asking for exactly that address (same URL, same credentials, no extra headers)
 * gets the preloaded response instead of a second download.
 */
export interface StartHint {
  bookId: string;
  /** The book's series: its reading direction can be asked with the book, not after it. */
  seriesId: string;
  page: number;
  url: string;
}

const HINT_SELECTOR = 'link[rel="preload"][data-folio-start-page][data-folio-book][data-folio-series]';

export function readStartHint(root: Pick<Document, 'querySelector'> = document): StartHint | null {
  const link = root.querySelector<HTMLLinkElement>(HINT_SELECTOR);
  if (!link) return null;
  const page = Number(link.dataset.folioStartPage);
  const bookId = link.dataset.folioBook;
  const seriesId = link.dataset.folioSeries;
  const url = link.getAttribute('href');
  if (!bookId || !seriesId || !url || !Number.isInteger(page) || page < 1) return null;
  return { bookId, seriesId, page, url };
}
