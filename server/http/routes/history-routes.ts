import type { FastifyInstance } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { deleteBookFile, deleteSeriesFolder } from '../../domain/library/file-deletion.ts';
import { OutsideLibraryError } from '../../domain/library/library-paths.ts';
import { toHistoricalEventDto } from '../dto/history-dto.ts';
import { badRequest, notFound } from '../errors.ts';
import { caller, requireRole } from '../guards.ts';
import { isAdmin } from '../dto/user-dto.ts';
import { parsePaging, toPage } from '../paging.ts';
import type { RawQuery } from '../query-params.ts';
import { type FolioApp, IdParams, NamedQuery, PAGING_PARAMS } from '../schemas.ts';

/**
 * File history: `GET /api/v1/history`, newest first by default. SPEC §2 gives /history to every user:
 * each sees the events about the series they may see (administrators also those about series gone,
 * and only they see server paths). Also the two operations that write most of it: deleting a book's
 * file and a series' folder (ADMIN, 202 once done).
 */
export function registerHistoryRoutes(app: FolioApp, ctx: FolioContext): void {
  const history = ctx.repos.history;

  app.get('/api/v1/history', { schema: { querystring: NamedQuery(PAGING_PARAMS) } }, async (request) => {
    const user = caller(request);
    const admin = isAdmin(user);
    const paging = parsePaging(request.query);
    const { events, total, sorted } = history.page(
      paging.sort,
      paging.unpaged ? null : paging.size,
      paging.unpaged ? 0 : paging.page * paging.size,
      { viewer: user, orphans: admin },
    );
    return toPage(events.map((event) => toHistoricalEventDto(event, admin)), total, paging, sorted);
  });

  const outsideToBadRequest = (error: unknown): never => {
    if (error instanceof OutsideLibraryError) throw badRequest(error.message);
    throw error;
  };

  app.delete('/api/v1/books/:id/file', { schema: { params: IdParams } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const done = await deleteBookFile(ctx, request.params.id).catch(outsideToBadRequest);
    if (!done) throw notFound();
    return reply.code(202).send();
  });

  app.delete('/api/v1/series/:id/file', { schema: { params: IdParams } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const done = await deleteSeriesFolder(ctx, request.params.id).catch(outsideToBadRequest);
    if (!done) throw notFound();
    return reply.code(202).send();
  });
}
