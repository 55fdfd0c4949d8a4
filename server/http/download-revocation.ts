import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Book } from '../db/book-repository.ts';
import type { FolioContext } from '../domain/context.ts';
import { canSeeBook, canSeeSeries } from '../domain/content-restrictions.ts';
import type { FolioEvent } from '../domain/events.ts';
import { apiKeyIdOf } from './auth/login-methods.ts';

/** What a download holds: its books, by the series and library they were in when it started. */
export type DownloadedBook = Pick<Book, 'id' | 'seriesId' | 'libraryId'>;

/**
 * Ends a download's connection once its user may no longer have what it holds, so a file they may
 * no longer see stops flowing instead of running to its last byte, as event streams already end
 * (sse-routes.ts). Access is checked when a download starts; a whole series or read list takes a
 * slow client hours. A client that may still download resumes with a Range request.
 *
 * The user's side: their sessions ended — the user deleted, their roles or restrictions changed,
 * their password reset by an admin (user-routes.ts SessionExpired) — or the API key it was made
 * with deleted (api-key-routes.ts ApiKeyDeleted). The content's side: a series or book of the
 * download changed (rated above the user's age limit, given a label they exclude, moved to
 * another series or library) and the user may no longer see it, asked with the same rules as
 * every request (content-restrictions.ts). Only events naming one of the download's series,
 * books or libraries are looked into, so a scan's thousands of events cost a Set lookup each.
 */
export function endDownloadWhenAccessEnds(ctx: FolioContext, request: FastifyRequest, reply: FastifyReply, userId: string, books: readonly DownloadedBook[]): void {
  const apiKeyId = apiKeyIdOf(request);
  const bookIds = new Set(books.map((b) => b.id));
  const seriesIds = new Set(books.map((b) => b.seriesId));
  const libraryIds = new Set(books.map((b) => b.libraryId));
  /** Whether the user may still see what the event changed, when it is part of this download. */
  const stillVisible = (event: FolioEvent): boolean => {
    const touched = touchedBy(event, bookIds, seriesIds, libraryIds);
    if (!touched) return true;
    const user = ctx.repos.users.findById(userId);
    if (!user) return false;
    if (touched === 'library') return [...seriesIds].every((id) => canSeeSeries(ctx.repos, user, id));
    return touched.kind === 'series' ? canSeeSeries(ctx.repos, user, touched.id) : canSeeBook(ctx.repos, user, touched.id);
  };
  const unsubscribe = ctx.events.subscribe((event) => {
    if (event.name === 'SessionExpired' && event.userId === userId) reply.raw.destroy();
    else if (event.name === 'ApiKeyDeleted' && apiKeyId !== undefined && event.data.apiKeyId === apiKeyId) reply.raw.destroy();
    else if (!stillVisible(event)) reply.raw.destroy();
  });
  reply.raw.once('close', unsubscribe);
}

/** The download's series, book or library an event names as changed or gone, if any. */
function touchedBy(
  event: FolioEvent,
  bookIds: ReadonlySet<string>,
  seriesIds: ReadonlySet<string>,
  libraryIds: ReadonlySet<string>,
): { kind: 'series' | 'book'; id: string } | 'library' | undefined {
  switch (event.name) {
    case 'SeriesChanged':
    case 'SeriesDeleted':
      return seriesIds.has(event.data.seriesId) ? { kind: 'series', id: event.data.seriesId } : undefined;
    case 'BookChanged':
    case 'BookDeleted':
      return bookIds.has(event.data.bookId) ? { kind: 'book', id: event.data.bookId } : undefined;
    case 'LibraryChanged':
    case 'LibraryDeleted':
      return libraryIds.has(event.data.libraryId) ? 'library' : undefined;
    default:
      return undefined;
  }
}
