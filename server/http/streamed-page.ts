import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Book } from '../db/book-repository.ts';
import type { Media } from '../db/media-repository.ts';
import type { FolioContext } from '../domain/context.ts';
import { notModifiedSince } from './conditional.ts';
import { LruMap } from '../lru-map.ts';
import { badRequest, notFound } from './errors.ts';
import { formatDateTime } from './format.ts';
import { canAccessLibrary, requireRole } from './guards.ts';
import { type RawQuery, booleanParam, pageNumberParam, stringParam } from './query-params.ts';
import { requirePagesReady } from './book-readiness.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Komga's OPDS page addresses always answer an image (no PDF negotiation) and ignore
     * `zero_based`: the OPDS-PSE one (`/opds/v1.2/books/{id}/pages/{n}`) counts pages from 0, the
     * OPDS 2 one (`/opds/v2/books/{id}/pages/{n}`) from 1.
     */
    opdsPages?: 'v1.2' | 'v2';
  }
}

export interface StreamedPage {
  book: Book;
  media: Media;
  /** 1-based, whatever `zero_based` said. */
  number: number;
}

/** How long a versioned page may be kept without asking again: a year, the usual "forever". */
const IMMUTABLE_MAX_AGE_S = 365 * 24 * 3600;

/**
 * The version of a book's pages, as a client can write it from the book's DTO:
 * `<sizeBytes in base 36>.<fileLastModified>`. A page's bytes change only when the book's file does,
 * and then its size or modification time changes (and the book is analysed again).
 */
export function pageVersion(book: Pick<Book, 'fileSize' | 'fileLastModified'>): string {
  let date = recentDates.get(book.fileLastModified);
  if (date === undefined) {
    // Formatting a date costs a few percent of serving a page; the same few books are read in turn.
    date = formatDateTime(book.fileLastModified);
    recentDates.set(book.fileLastModified, date);
  }
  return `${book.fileSize.toString(36)}.${date}`;
}

/**
 * The Last-Modified value for a time in milliseconds (whole seconds, as HTTP dates are). Formatting
 * one costs about 1.7 µs, a page request's share worth saving; a reader asks for the same book's
 * pages in turn (a pure function's results: never stale).
 */
export function httpDateOf(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  let date = recentHttpDates.get(seconds);
  if (date === undefined) {
    date = new Date(seconds * 1000).toUTCString();
    recentHttpDates.set(seconds, date);
  }
  return date;
}

const RECENT_DATES_MAX = 4096;
/** Formatted file dates of recently served books (a pure function's results: never stale). */
const recentDates = new LruMap<number, string>(RECENT_DATES_MAX);
const recentHttpDates = new LruMap<number, string>(RECENT_DATES_MAX);

function etagMatches(header: string | undefined, etag: string): boolean {
  return header !== undefined && header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/**
 * The checks every page-bytes route makes, in Komga's order (REFERENCE §4): an unchanged page is
 * answered 304 before access is checked; then PAGE_STREAMING, the caller's libraries, a READY book
 * and a page number in range. Returns null once a 304 has been sent. On success the page's
 * caching headers are already set: Last-Modified, an ETag naming the book's version and the page,
 * and Cache-Control. A request whose `v` names the book's current version (see `pageVersion`) asks
 * for bytes that can never change under that address: it may be kept and reused without asking
 * again (`private, max-age=<a year>, immutable`). Without `v`, or with an outdated one, the page
 * is revalidated on every use, as Komga does.
 */
export function resolveStreamedPage(
  ctx: FolioContext,
  request: FastifyRequest<{ Params: { id: string; n: string }; Querystring: RawQuery }>,
  reply: FastifyReply,
): StreamedPage | null {
  // Spring converts the page number and `zero_based` before Komga's handler looks the book up: a
  // value that does not convert is a 400 even for a book that does not exist.
  const raw = pageNumberParam(request.params.n);
  const opdsPages = request.routeOptions.config.opdsPages;
  const zeroBased = opdsPages ? opdsPages === 'v1.2' : booleanParam(request.query, 'zero_based') === true;
  // Remembered until a write changes them (serving-lookups.ts); the checks below run every time.
  const found = ctx.repos.served.bookWithMedia(request.params.id);
  if (!found?.media) throw notFound();
  const { book, media } = found;
  const version = pageVersion(book);
  const etag = `"${version}-${request.params.n}"`;
  if (etagMatches(request.headers['if-none-match'], etag) || notModifiedSince(request, media.lastModified)) {
    void reply.code(304).header('ETag', etag).send();
    return null;
  }
  const user = requireRole(request, 'PAGE_STREAMING');
  if (!canAccessLibrary(user, book.libraryId)) throw notFound();
  requirePagesReady(media);
  const number = zeroBased ? raw + 1 : raw;
  if (number < 1 || number > media.pageCount) throw badRequest('Page number does not exist');
  const immutable = stringParam(request.query, 'v') === version;
  reply
    .header('Last-Modified', httpDateOf(media.lastModified))
    .header('ETag', etag)
    .header('Cache-Control', immutable ? `private, max-age=${IMMUTABLE_MAX_AGE_S}, immutable` : 'max-age=0, must-revalidate, private');
  return { book, media, number };
}
