import type { FastifyInstance } from 'fastify';
import { canSeeBook, canSeeReadList, canSeeSeries } from '../../domain/content-restrictions.ts';
import type { FolioContext } from '../../domain/context.ts';
import { markBooksRead } from '../../domain/reading/read-progress.ts';
import type { User } from '../../db/user-repository.ts';
import { isAdmin } from '../dto/user-dto.ts';
import { badRequest, notFound } from '../errors.ts';
import { caller } from '../guards.ts';
import { type FolioApp, IdParams, KotlinPrimitive, Type } from '../schemas.ts';

interface Counted {
  bookId: string;
  numberSort: number;
  /** Null: not started. */
  completed: boolean | null;
}

/**
 * Read-progress sync for the Tachiyomi/Mihon Komga extension: per series by number sort (v2)
 * and per read list by position (v1). Progress there is "everything up to here is read".
 */
export function registerTachiyomiRoutes(app: FolioApp, ctx: FolioContext): void {
  const seriesBooks = (seriesId: string, user: User): Counted[] => ctx.repos.readProgress.seriesBooksByNumberSort(seriesId, user);

  const counts = (books: Counted[]) => {
    const read = books.filter((b) => b.completed === true).length;
    const inProgress = books.filter((b) => b.completed === false).length;
    return { booksCount: books.length, booksReadCount: read, booksUnreadCount: books.length - read - inProgress, booksInProgressCount: inProgress };
  };
  const leadingReadRun = (books: Counted[]) => {
    let n = 0;
    while (n < books.length && books[n]!.completed === true) n++;
    return n;
  };

  app.get('/api/v2/series/:id/read-progress/tachiyomi', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    if (!canSeeSeries(ctx.repos, user, request.params.id)) throw notFound();
    const books = seriesBooks(request.params.id, user);
    const run = leadingReadRun(books);
    return {
      ...counts(books),
      lastReadContinuousNumberSort: run > 0 ? books[run - 1]!.numberSort : 0,
      maxNumberSort: books.length ? Math.max(...books.map((b) => b.numberSort)) : 0,
    };
  });

  app.put(
    '/api/v2/series/:id/read-progress/tachiyomi',
    { schema: { params: IdParams, body: Type.Object({ lastBookNumberSortRead: KotlinPrimitive('number') }) } },
    async (request, reply) => {
    const user = caller(request);
    if (!canSeeSeries(ctx.repos, user, request.params.id)) throw notFound();
    const upTo = request.body.lastBookNumberSortRead ?? 0;
    markBooksRead(ctx, user.id, seriesBooks(request.params.id, user).filter((b) => b.numberSort <= upTo).map((b) => b.bookId));
    return reply.code(204).send();
    },
  );

  const listBooks = (listId: string, user: User): Counted[] => {
    const list = ctx.repos.readLists.findById(listId);
    // The read list routes' one rule (an admin sees every list, anyone else one showing them a
    // book), as Komga finds this list by the caller's libraries alone; only the books the caller is
    // shown are counted or marked, so an admin shown none gets zeros rather than a 404.
    if (!list || !canSeeReadList(ctx.repos, user, isAdmin(user), list.bookIds)) throw notFound();
    const visible = list.bookIds.filter((id) => canSeeBook(ctx.repos, user, id));
    return visible.map((bookId) => ({ bookId, numberSort: 0, completed: ctx.repos.readProgress.find(bookId, user.id)?.completed ?? null }));
  };

  app.get('/api/v1/readlists/:id/read-progress/tachiyomi', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    const books = listBooks(request.params.id, user);
    return { ...counts(books), lastReadContinuousIndex: leadingReadRun(books) };
  });

  app.put(
    '/api/v1/readlists/:id/read-progress/tachiyomi',
    { schema: { params: IdParams, body: Type.Object({ lastBookRead: KotlinPrimitive('integer', { minimum: 0 }) }) } },
    async (request, reply) => {
    const user = caller(request);
    markBooksRead(ctx, user.id, listBooks(request.params.id, user).slice(0, request.body.lastBookRead ?? 0).map((b) => b.bookId));
    return reply.code(204).send();
    },
  );
}
