import { apiUrl, getJson, getJsonWithHeaders, getOptionalJson, sendJson } from './http.ts';
import type { R2Positions, R2Progression } from './types.ts';

/*
 * Komga's Readium endpoints for EPUB books: the WebPub manifest, the position list and the
 * per-user progression (REFERENCE §10).
 */

const bookPath = (bookId: string, rest: string) => `/api/v1/books/${encodeURIComponent(bookId)}/${rest}`;

/**
 * The EPUB profile's WebPub manifest, as JSON for the rendering library to parse. `navigationUnavailable`:
 * the server could not read the book's table of contents just now (its Folio-Navigation-Unavailable
 * header; server/README.md), so the manifest has none this time.
 */
export async function getEpubManifest(bookId: string): Promise<{ json: unknown; navigationUnavailable: boolean }> {
  const { body, headers } = await getJsonWithHeaders<unknown>(bookPath(bookId, 'manifest/epub'), 'retrieve_book');
  return { json: body, navigationUnavailable: headers.has('Folio-Navigation-Unavailable') };
}

export function getPositions(bookId: string): Promise<R2Positions> {
  return getJson(bookPath(bookId, 'positions'), 'retrieve_book');
}

/** The user's saved place in the book; null when they never opened it (the server answers 204). */
export async function getProgression(bookId: string): Promise<R2Progression | null> {
  return (await getOptionalJson<R2Progression>(bookPath(bookId, 'progression'), 'retrieve_book')) ?? null;
}

export async function putProgression(bookId: string, progression: R2Progression): Promise<void> {
  await sendJson('PUT', bookPath(bookId, 'progression'), 'update_read_progress', { json: progression });
}

/** The same PUT for a page being closed: `keepalive` lets it outlive the page. Fire and forget. */
export function sendProgressionKeepalive(bookId: string, progression: R2Progression): void {
  void fetch(apiUrl(bookPath(bookId, 'progression')), {
    method: 'PUT',
    keepalive: true,
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify(progression),
  }).catch((error: unknown) => console.warn('Saving the reading position on close failed', error));
}
