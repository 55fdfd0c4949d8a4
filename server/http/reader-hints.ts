import type { FastifyRequest } from 'fastify';
import type { FolioContext } from '../domain/context.ts';
import { readerStart } from '../domain/reading/reader-start.ts';
import { hashSessionId, presentedSessionId, resolveSession } from './auth/sessions.ts';
import { pageVersion } from './streamed-page.ts';

/** The reader's address in the web client (src/ui/reader/readerStart.ts), the base path removed. */
const READER_PATH = /^\/book\/([^/]+)\/read\/?$/;

/** Marks the hint in the page and names the start page's number (src/ui/reader/startHint.ts reads it). */
export const START_PAGE_ATTRIBUTE = 'data-folio-start-page';
/** Names the book's series on the hint: the client asks for it beside the book instead of after it. */
export const SERIES_ATTRIBUTE = 'data-folio-series';

/**
 * What the page for a cold load of a reader's address (`/book/{id}/read`) tells the browser to fetch
 * at once: the bytes of the page the reader opens at (and, to the client, the book's series). The web client asks for them only once it has
 * run and the book's description came back (some 100 ms after navigation on a fast machine); told
 * here, the browser starts the download while it parses the document, and the client's own request
 * for the same address (the same credentials, `v` naming the book's version: answered
 * `private, max-age=…, immutable`) is served from the browser's HTTP cache.
 *
 * Only for a caller signed in with the session cookie a navigation carries, who may read that page
 * (readerStart: role, shared libraries, content restrictions): anybody else, an unknown or hidden
 * book, gets the page without it, so the page says nothing about a book its caller may not see.
 * Nothing here changes state beyond the session's inactivity clock that any signed-in request moves:
 * no remember-me login, no Basic check (a navigation does not send the API's credentials).
 *
 * `path` is the request's decoded path (base path removed), `search` its query string.
 */
export function readerHints(ctx: FolioContext, request: FastifyRequest, path: string, search: string, prefix: string): string {
  const match = READER_PATH.exec(path);
  if (!match?.[1]) return '';
  const sessionId = presentedSessionId(request);
  const userId = sessionId ? resolveSession(ctx.repos.sessions, hashSessionId(sessionId)) : undefined;
  const user = userId ? ctx.repos.users.findById(userId) : undefined;
  if (!user) return '';
  const start = readerStart(ctx.repos, user, match[1], requestedPage(search));
  if (!start) return '';
  const { book, page } = start;
  // Written as the client writes it (src/api/books.ts pageUrl): the same address is the same cache entry.
  const href = `${prefix}/api/v1/books/${encodeURIComponent(book.id)}/pages/${page.number}?${new URLSearchParams({ v: pageVersion(book) })}`;
  // as=fetch with credentials, as the client's fetch.
  return `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${attribute(href)}" ${START_PAGE_ATTRIBUTE}="${page.number}" ${SERIES_ATTRIBUTE}="${attribute(book.seriesId)}">`;
}

function attribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** ?page= as the client reads it (src/ui/reader/readerQuery.ts): a leading positive integer, else none. */
function requestedPage(search: string): number | null {
  const page = Number.parseInt(new URLSearchParams(search).get('page') ?? '', 10);
  return Number.isInteger(page) && page > 0 ? page : null;
}
