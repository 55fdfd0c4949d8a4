import type { FastifyRequest } from 'fastify';
import type { FolioContext } from '../domain/context.ts';
import { readerStart } from '../domain/reading/reader-start.ts';
import { hashSessionId, presentedSessionId, resolveSession } from './auth/sessions.ts';
import { pageVersion } from './streamed-page.ts';

/** The reader's address in the web client (src/ui/reader/readerStart.ts), the base path removed. */
const READER_PATH = /^\/book\/([^/]+)\/read\/?$/;

/** The meta element naming the start page (src/ui/reader/startHint.ts reads it). */
export const START_PAGE_META = 'folio-start-page';
/** Names the book's series on that element: the client asks for it beside the book instead of after it. */
export const SERIES_ATTRIBUTE = 'data-folio-series';
/** The id of the start page's image in the document (src/ui/reader/openingImage.ts shows it). */
export const OPENING_IMAGE_ID = 'folio-opening-page';

/** What a reader's page gets: tags for the top of its head, and for the top of its body. */
export interface ReaderHints {
  head: string;
  body: string;
}

const NONE: ReaderHints = { head: '', body: '' };

/**
 * What the page for a cold load of a reader's address (`/book/{id}/read`) tells the web client
 * before it has asked anything: the number of the page the reader opens at, the book's series and
 * that series' reading direction, and the start page's listed size and the book's version. Without
 * it the client learns the start page (the caller's progress) only from the book's description, one
 * round trip after its boot module ran, and only then asks for the page's bytes.
 *
 * For a page of known size the body also starts with an `<img>` of that page, hidden, at the very
 * address the reader decodes it from (the versioned one, which the HTTP cache keeps): the browser
 * asks for it while it parses the document, long before any script runs, and decodes it itself at
 * the size it is drawn (a JPEG at a reduced DCT scale, on its own threads). The client decides from
 * its own settings whether that image can be the first frame, places it where its reader draws the
 * page and shows it once it is whole (src/ui/reader/openingImage.ts); else it is dropped, and the
 * reader's own download of the same address is served from the same response. Facts only: the
 * layout is the client's.
 *
 * Only for a caller signed in with the session cookie a navigation carries, who may read that page
 * (readerStart: role, shared libraries, content restrictions): anybody else, an unknown or hidden
 * book, gets the page without it, so the page says nothing about a book its caller may not see.
 * Nothing here changes state beyond the session's inactivity clock that any signed-in request moves:
 * no remember-me login, no Basic check (a navigation does not send the API's credentials).
 *
 * `path` is the request's decoded path (base path removed), `search` its query string, `prefix` the
 * base path the page is served under.
 */
export function readerHints(ctx: FolioContext, request: FastifyRequest, path: string, search: string, prefix = ''): ReaderHints {
  const match = READER_PATH.exec(path);
  if (!match?.[1]) return NONE;
  const sessionId = presentedSessionId(request);
  const userId = sessionId ? resolveSession(ctx.repos.sessions, hashSessionId(sessionId)) : undefined;
  const user = userId ? ctx.repos.users.findById(userId) : undefined;
  if (!user) return NONE;
  const start = readerStart(ctx.repos, user, match[1], requestedPage(search));
  if (!start) return NONE;
  const { book, page } = start;
  const direction = ctx.repos.seriesMetadata.findBySeriesId(book.seriesId)?.readingDirection ?? '';
  const version = pageVersion(book);
  const sized = page.width !== null && page.height !== null && page.width > 0 && page.height > 0;
  const facts = [
    `name="${START_PAGE_META}"`,
    `content="${page.number}"`,
    `${SERIES_ATTRIBUTE}="${attribute(book.seriesId)}"`,
    `data-folio-direction="${attribute(direction)}"`,
    `data-folio-version="${attribute(version)}"`,
    ...(sized ? [`data-folio-width="${page.width}"`, `data-folio-height="${page.height}"`] : []),
  ];
  const meta = `<meta ${facts.join(' ')}>`;
  if (!sized) return { head: meta, body: '' };
  // The reader's own address for the page (src/api/books.ts pageUrl): one response serves both.
  const src = `${prefix}/api/v1/books/${encodeURIComponent(book.id)}/pages/${page.number}?${new URLSearchParams({ v: version })}`;
  // Named in the head too, ahead of the scripts and style sheets: the browser's six connections go to
  // the page first (the image in the body would otherwise wait behind a dozen script files, which
  // the first frame does not need: the boot module runs long before the page is in).
  const preload = `<link rel="preload" as="image" href="${attribute(src)}" fetchpriority="high">`;
  const head = `${meta}${preload}`;
  const image = [
    `id="${OPENING_IMAGE_ID}"`,
    `src="${attribute(src)}"`,
    'alt=""',
    'hidden',
    // Asked for beside the scripts, not after them (an image is low priority until laid out).
    'fetchpriority="high"',
    // Never shown before it is decoded: no frame with the page's place empty.
    'decoding="sync"',
    // When it was painted: PerformanceElementTiming, read by openingImage.ts and the benchmark.
    `elementtiming="${OPENING_IMAGE_ID}"`,
  ];
  return { head, body: `<img ${image.join(' ')}>` };
}

function attribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** ?page= as the client reads it (src/ui/reader/readerQuery.ts): a leading positive integer, else none. */
function requestedPage(search: string): number | null {
  const page = Number.parseInt(new URLSearchParams(search).get('page') ?? '', 10);
  return Number.isInteger(page) && page > 0 ? page : null;
}
