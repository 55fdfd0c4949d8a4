/**
 * What the server said in the page about the book a cold load of a reader's address opens
 * (server/http/reader-hints.ts): written only for a signed-in caller who may read it, as the
 * attributes of the preload of the start page's bytes, first in the head (so it has been parsed by
 * the time the boot module runs). Null on any other page, and in the development server's.
 */
export interface StartHint {
  /** The page the reader opens at, by the client's own rule (bookLoader.ts startPageFor). */
  page: number;
  /** The address its bytes are being preloaded from: the client's own for it, `v` included. */
  href: string;
  /** The book's series: asked for beside the book instead of once the book has come back. */
  seriesId: string;
  /**
   * Settles once the preload is over (loaded or failed). Fetch the page only then: Chromium answers a
   * fetch() made while the preload is still downloading from that preload, and the body of such a
   * response sometimes never finishes (seen 3 cold loads in 20 under load: response.blob() pending for
   * good, the first page never painted). Once the preload is over, the fetch is served from it at once.
   */
  ready: Promise<void>;
}

export function readStartHint(): StartHint | null {
  const link = globalThis.document?.querySelector<HTMLLinkElement>('link[rel="preload"][data-folio-start-page][data-folio-series]');
  if (!link) return null;
  const page = Number(link.dataset.folioStartPage);
  const seriesId = link.dataset.folioSeries;
  return Number.isInteger(page) && page > 0 && seriesId && link.href ? { page, href: link.href, seriesId, ready: preloadOver(link) } : null;
}

function preloadOver(link: HTMLLinkElement): Promise<void> {
  return new Promise((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    // Over before the boot module ran (its events gone by): its Resource Timing entry is there.
    if (performance.getEntriesByName(link.href, 'resource').length > 0) resolve();
  });
}
