import type { FastifyInstance } from 'fastify';
import { canSeeBook, canSeeSeries } from '../../domain/content-restrictions.ts';
import type { FolioContext } from '../../domain/context.ts';
import { markBooksRead } from '../../domain/read-progress.ts';
import type { User } from '../../db/user-repository.ts';
import { badRequest, notFound } from '../errors.ts';
import { caller } from '../guards.ts';
import { type FolioApp, IdParams, Type } from '../schemas.ts';

interface Counted {
  id: string;
  numberSort: number;
  completed: number | null;
}

/**
 * Read-progress sync for the Tachiyomi/Mihon Komga extension: per series by number sort (v2)
 * and per read list by position (v1). Progress there is "everything up to here is read".
 */
export function registerTachiyomiRoutes(app: FolioApp, ctx: FolioContext): void {
  const seriesBooks = (seriesId: string, user: User): Counted[] =>
    ctx.db
      .prepare(
        `SELECT b.id, bm.number_sort AS numberSort, r.completed FROM book b
         JOIN book_metadata bm ON bm.book_id = b.id
         LEFT JOIN read_progress r ON r.book_id = b.id AND r.user_id = ?
         WHERE b.series_id = ? AND b.deleted_date IS NULL ORDER BY bm.number_sort, b.id`,
      )
      .all(user.id, seriesId) as Counted[];

  const counts = (books: Counted[]) => {
    const read = books.filter((b) => b.completed === 1).length;
    const inProgress = books.filter((b) => b.completed === 0).length;
    return { booksCount: books.length, booksReadCount: read, booksUnreadCount: books.length - read - inProgress, booksInProgressCount: inProgress };
  };
  const leadingReadRun = (books: Counted[]) => {
    let n = 0;
    while (n < books.length && books[n]!.completed === 1) n++;
    return n;
  };

  app.get('/api/v2/series/:id/read-progress/tachiyomi', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    if (!canSeeSeries(ctx.db, user, request.params.id)) throw notFound();
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
    { schema: { params: IdParams, body: Type.Object({ lastBookNumberSortRead: Type.Number() }) } },
    async (request, reply) => {
    const user = caller(request);
    if (!canSeeSeries(ctx.db, user, request.params.id)) throw notFound();
    const upTo = request.body.lastBookNumberSortRead;
    markBooksRead(ctx, user.id, seriesBooks(request.params.id, user).filter((b) => b.numberSort <= upTo).map((b) => b.id));
    return reply.code(204).send();
    },
  );

  const listBooks = (listId: string, user: User): Counted[] => {
    const list = ctx.repos.readLists.findById(listId);
    if (!list) throw notFound();
    const visible = list.bookIds.filter((id) => canSeeBook(ctx.db, user, id));
    if (visible.length === 0) throw notFound();
    const progress = ctx.db.prepare('SELECT completed FROM read_progress WHERE book_id = ? AND user_id = ?').pluck();
    return visible.map((id) => ({ id, numberSort: 0, completed: (progress.get(id, user.id) as number | undefined) ?? null }));
  };

  app.get('/api/v1/readlists/:id/read-progress/tachiyomi', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    const books = listBooks(request.params.id, user);
    return { ...counts(books), lastReadContinuousIndex: leadingReadRun(books) };
  });

  app.put(
    '/api/v1/readlists/:id/read-progress/tachiyomi',
    { schema: { params: IdParams, body: Type.Object({ lastBookRead: Type.Integer({ minimum: 0 }) }) } },
    async (request, reply) => {
    const user = caller(request);
    markBooksRead(ctx, user.id, listBooks(request.params.id, user).slice(0, request.body.lastBookRead).map((b) => b.id));
    return reply.code(204).send();
    },
  );
}
