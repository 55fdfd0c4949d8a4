import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { seriesPoster } from '../../domain/posters/series-poster.ts';
import { markSeriesRead, markSeriesUnread } from '../../domain/reading/read-progress.ts';
import { notFound } from '../errors.ts';
import { canAccessLibrary, caller, callerIsAdmin } from '../guards.ts';
import { bookConditionFromQuery, seriesConditionFromQuery } from '../legacy-filters.ts';
import { parsePaging } from '../paging.ts';
import { type RawQuery, stringParam } from '../query-params.ts';
import { toSeriesDto } from '../dto/series-dto.ts';
import { bookPage, seriesPage } from '../paged-search.ts';
import { sendPoster } from '../send-file.ts';
import type { User } from '../../db/user-repository.ts';
import { type FolioApp, IdParams, ListQuery } from '../schemas.ts';
import { workFor } from '../work-caller.ts';


export function registerSeriesRoutes(app: FolioApp, ctx: FolioContext): void {
  const seriesForCaller = (id: string, user: User) => {
    const series = ctx.repos.series.findById(id);
    if (!series || !canAccessLibrary(user, series.libraryId)) throw notFound();
    return series;
  };

  app.get('/api/v1/series', { schema: { querystring: ListQuery } }, async (request, reply) =>
    seriesPage(ctx, request, reply, parsePaging(request.query), {
      condition: seriesConditionFromQuery(request.query),
      fullTextSearch: stringParam(request.query, 'search'),
    }),
  );

  app.get('/api/v1/series/:id', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    seriesForCaller(request.params.id, user);
    return toSeriesDto(ctx, request.params.id, user, callerIsAdmin(request));
  });

  app.get('/api/v1/series/:id/books', { schema: { params: IdParams, querystring: ListQuery } }, async (request, reply) => {
    // The query is read before the series is looked up: a filter that does not convert is a 400 first, as in Komga.
    const paging = parsePaging(request.query);
    const filter = bookConditionFromQuery(request.query);
    seriesForCaller(request.params.id, caller(request));
    return bookPage(ctx, request, reply, paging, {
      condition: {
        allOf: [{ seriesId: { operator: 'is', value: request.params.id } }, filter],
      },
      // Komga sorts by number when asked for no order, and its Page says so (sorted: true).
      sort: paging.sort.length > 0 ? paging.sort : [{ property: 'metadata.numberSort', direction: 'asc' }],
      defaultSort: [{ property: 'metadata.numberSort', direction: 'asc' }],
    });
  });

  app.get('/api/v1/series/:id/thumbnail', { schema: { params: IdParams } }, async (request, reply) => {
    const user = caller(request);
    seriesForCaller(request.params.id, user);
    const thumbnail = await seriesPoster(ctx, request.params.id, user.id, workFor(request));
    if (!thumbnail) throw notFound();
    return sendPoster(reply, thumbnail);
  });

  app.post('/api/v1/series/:id/read-progress', { schema: { params: IdParams } }, async (request, reply) => {
    const user = caller(request);
    seriesForCaller(request.params.id, user);
    markSeriesRead(ctx, user.id, request.params.id);
    return reply.code(204).send();
  });

  app.delete('/api/v1/series/:id/read-progress', { schema: { params: IdParams } }, async (request, reply) => {
    const user = caller(request);
    seriesForCaller(request.params.id, user);
    markSeriesUnread(ctx, user.id, request.params.id);
    return reply.code(204).send();
  });
}
