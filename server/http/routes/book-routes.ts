import { basename } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { canSeeBook, hasContentRestrictions } from '../../domain/content-restrictions.ts';
import { libraryRoots } from '../../domain/library/library-paths.ts';
import { ReadProgressError, ReadProgressFieldError, deleteReadProgress, readProgressRequest, updateReadProgress } from '../../domain/reading/read-progress.ts';
import type { User } from '../../db/user-repository.ts';
import { badRequest, notFound } from '../errors.ts';
import { canAccessLibrary, caller, callerIsAdmin, requireRole } from '../guards.ts';
import { bookConditionFromQuery } from '../legacy-filters.ts';
import { parsePaging } from '../paging.ts';
import { type RawQuery, stringParam } from '../query-params.ts';
import { requirePagesReady } from '../book-readiness.ts';
import { toBookDto, toPageDto } from '../dto/book-dto.ts';
import { sendAttachment } from '../file-download.ts';
import { endDownloadWhenAccessEnds } from '../download-revocation.ts';
import { bookPage } from '../paged-search.ts';
import { chunkedArray, mapChunks } from '../chunked-page.ts';
import { type FolioApp, IdParams, ListQuery, Nullable, type Static, Type, fieldViolations } from '../schemas.ts';
import { registerBookPosterRoutes } from './book-poster-routes.ts';

const ReadProgressUpdate = Type.Object({
  page: Type.Optional(Nullable(Type.Integer())),
  completed: Type.Optional(Nullable(Type.Boolean())),
});

/** Page entries listed per turn of the event loop (~2,000 × 2 µs). */
const PAGE_LIST_CHUNK = 2_000;

export function registerBookRoutes(app: FolioApp, ctx: FolioContext): void {
  const bookForCaller = (id: string, user: User) => {
    const book = ctx.repos.books.findById(id);
    if (!book || !canAccessLibrary(user, book.libraryId)) throw notFound();
    return book;
  };

  app.get('/api/v1/books', { schema: { querystring: ListQuery } }, async (request, reply) =>
    bookPage(ctx, request, reply, parsePaging(request.query), {
      condition: bookConditionFromQuery(request.query),
      fullTextSearch: stringParam(request.query, 'search'),
    }),
  );

  app.get('/api/v1/books/:id', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    bookForCaller(request.params.id, user);
    return toBookDto(ctx, request.params.id, user.id, callerIsAdmin(request));
  });

  /** Neighbour in series order (numberSort), skipping deleted books; 404 at either end. */
  const sibling = (direction: 'next' | 'previous') => async (request: import('fastify').FastifyRequest<{ Params: { id: string } }>) => {
    const user = caller(request);
    const book = bookForCaller(request.params.id, user);
    const ids = ctx.repos.books.findLiveIdsBySeriesInNumberOrder(book.seriesId);
    const index = ids.indexOf(book.id);
    const step = direction === 'next' ? 1 : -1;
    // A book of the series kept from a restricted reader (awaiting analysis) is passed over.
    const restricted = hasContentRestrictions(user);
    let at = index < 0 ? -1 : index + step;
    while (restricted && at >= 0 && at < ids.length && !canSeeBook(ctx.repos, user, ids[at]!)) at += step;
    const target = index < 0 ? undefined : ids[at];
    if (!target) throw notFound();
    return toBookDto(ctx, target, user.id, callerIsAdmin(request));
  };
  app.get('/api/v1/books/:id/next', { schema: { params: IdParams } }, sibling('next'));
  app.get('/api/v1/books/:id/previous', { schema: { params: IdParams } }, sibling('previous'));

  app.get('/api/v1/books/:id/pages', { schema: { params: IdParams } }, async (request, reply) => {
    const user = caller(request);
    bookForCaller(request.params.id, user);
    const media = ctx.repos.media.findByBookId(request.params.id);
    if (!media) throw notFound();
    requirePagesReady(media);
    // A long webtoon's list is written a chunk per turn (chunked-page.ts); a usual one from memory, with its ETag.
    if (media.pageCount > PAGE_LIST_CHUNK) {
      return chunkedArray(reply, mapChunks(ctx.repos.media.pageChunks(request.params.id, PAGE_LIST_CHUNK), toPageDto));
    }
    return ctx.repos.media.findPages(request.params.id).map(toPageDto);
  });

  registerBookPosterRoutes(app, ctx);

  app.patch(
    '/api/v1/books/:id/read-progress',
    { schema: { params: IdParams, body: ReadProgressUpdate } },
    async (request, reply) => {
      const user = caller(request);
      try {
        // The body's own rules first, as Komga's validation runs before its handler looks the book up.
        const progress = readProgressRequest(request.body ?? {});
        bookForCaller(request.params.id, user);
        updateReadProgress(ctx, user.id, request.params.id, progress);
      } catch (error) {
        if (error instanceof ReadProgressFieldError) throw fieldViolations([{ fieldName: error.fieldName, message: error.rule }]);
        if (error instanceof ReadProgressError) throw badRequest(error.message);
        throw error;
      }
      return reply.code(204).send();
    },
  );

  app.delete('/api/v1/books/:id/read-progress', { schema: { params: IdParams } }, async (request, reply) => {
    const user = caller(request);
    bookForCaller(request.params.id, user);
    deleteReadProgress(ctx, user.id, request.params.id);
    return reply.code(204).send();
  });

  /**
   * The book file as an attachment (role FILE_DOWNLOAD), streamed from disk, resumable (Range);
   * Komga serves it at its OPDS 2 address too.
   */
  for (const url of ['/api/v1/books/:id/file', '/opds/v2/books/:id/file']) {
    app.get(url, { schema: { params: IdParams } }, async (request, reply) => {
      const user = requireRole(request, 'FILE_DOWNLOAD');
      const book = bookForCaller(request.params.id, user);
      const media = ctx.repos.media.findByBookId(book.id);
      endDownloadWhenAccessEnds(ctx, request, reply, user.id, [book]);
      return sendAttachment(request, reply, book.url, media?.mediaType ?? 'application/octet-stream', basename(book.url), libraryRoots(ctx), user.id);
    });
  }
}
