import type { FastifyRequest } from 'fastify';
import type { FolioContext } from '../domain/context.ts';
import { readerStart } from '../domain/reading/reader-start.ts';
import { hashSessionId, presentedSessionId, resolveSession } from './auth/sessions.ts';
import { pageVersion } from './streamed-page.ts';

/** The web reader's address (src/ui/reader/readerStart.ts): /book/{id}/read. */
const READER_PATH = /^\/book\/([^/]+)\/read\/?$/;

/** The attribute that marks the hint; the client's boot module reads it (src/ui/reader/startHint.ts). */
export const START_HINT_ATTRIBUTE = 'data-folio-start-page';

/**
 * For a reader's address opened by a signed-in browser: a `<link rel="preload">` of the page the
 * reader will open at, for the top of index.html. The browser then downloads that page while it
 * still loads the app's scripts, where the app alone could only ask for it once its code had run and
 * the book had come back (the start page depends on the reader's progress). The client finds the
 * same element and asks for exactly its address, so the preloaded response is the one it uses; the
 * book's series is named too, so its call (the reading direction) need not wait for the book's.
 * Null (no hint) unless the session cookie is live and the reader would fetch that page as it is:
 * the page route's own checks (role, libraries, content restrictions, READY) decide, so the hint
 * never tells anything the page route would not. Only the session cookie counts: nothing here logs
 * anyone in or sets a cookie.
 */
export function readerStartHint(ctx: FolioContext, request: FastifyRequest, path: string): string | null {
  const match = READER_PATH.exec(path);
  if (!match?.[1]) return null;
  const sessionId = presentedSessionId(request);
  if (!sessionId) return null;
  const userId = resolveSession(ctx.repos.sessions, hashSessionId(sessionId));
  const user = userId ? ctx.repos.users.findById(userId) : undefined;
  if (!user) return null;
  const start = readerStart(ctx.repos, user, match[1], requestedPage(request.query));
  if (!start) return null;
  const { book, page } = start;
  const href = `/api/v1/books/${encodeURIComponent(book.id)}/pages/${page.number}?v=${encodeURIComponent(pageVersion(book))}`;
  return `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${escapeAttribute(href)}" ${START_HINT_ATTRIBUTE}="${page.number}" data-folio-book="${escapeAttribute(book.id)}" data-folio-series="${escapeAttribute(book.seriesId)}">`;
}

/** ?page= read as the client reads it (src/ui/reader/readerQuery.ts): a leading positive integer. */
function requestedPage(query: unknown): number | null {
  const raw = (query as Record<string, unknown> | undefined)?.page;
  const page = typeof raw === 'string' ? Number.parseInt(raw, 10) : Number.NaN;
  return Number.isSafeInteger(page) && page > 0 ? page : null;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
