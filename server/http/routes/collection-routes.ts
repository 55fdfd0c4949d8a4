import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Collection } from '../../db/collection-repository.ts';
import { newId } from '../../db/ids.ts';
import type { User } from '../../db/user-repository.ts';
import { canSeeCollection, canSeeSeries } from '../../domain/content-restrictions.ts';
import { isAdmin } from '../dto/user-dto.ts';
import type { FolioContext } from '../../domain/context.ts';
import { seriesMosaic } from '../../domain/posters/mosaic.ts';
import { posterFilesOf, removePosterFiles } from '../../domain/posters/poster-cleanup.ts';
import { selectedPosterFile } from '../../domain/posters/chosen-poster.ts';
import { sendPoster } from '../send-file.ts';
import { badRequest, namedFew, notFound } from '../errors.ts';
import { caller, callerIsAdmin, requireRole } from '../guards.ts';
import { seriesConditionFromQuery } from '../legacy-filters.ts';
import { parsePaging, toPage } from '../paging.ts';
import { chunkedPage } from '../chunked-page.ts';
import { inListOrder } from '../../domain/list-order.ts';
import { type RawQuery, listParam, stringParam } from '../query-params.ts';
import { toCollectionDto } from '../dto/collection-dto.ts';
import { toSeriesDto } from '../dto/series-dto.ts';
import { rethrowSearchError, searchOrRefuse } from '../paged-search.ts';
import { Batch, type FolioApp, IdParams, ListQuery, Nullable, Type, withMessage } from '../schemas.ts';
import { workFor } from '../work-caller.ts';

const Name = withMessage(Type.String({ pattern: '\\S' }), 'must not be blank');
const SeriesIds = withMessage(Batch(Type.String(), { minItems: 1, uniqueItems: true }), 'must be a non-empty list of distinct ids');

/** CollectionCreationDto: name and seriesIds required, ordered defaults to false. */
const CollectionCreation = Type.Object({ name: Name, ordered: Type.Optional(Nullable(Type.Boolean())), seriesIds: SeriesIds });
/** CollectionUpdateDto: absent or null keeps a field. */
const CollectionUpdate = Type.Object({
  name: Type.Optional(Nullable(Name)),
  ordered: Type.Optional(Nullable(Type.Boolean())),
  seriesIds: Type.Optional(Nullable(SeriesIds)),
});

/** Collections of series (REFERENCE §2.6). Writes need ADMIN. */
export function registerCollectionRoutes(app: FolioApp, ctx: FolioContext): void {
  const visibleTo = (user: User) => (seriesId: string) => canSeeSeries(ctx.repos, user, seriesId);

  /** A collection the caller may see (canSeeCollection: admins all, others one with a series they see). */
  const collectionForCaller = (id: string, user: User): Collection => {
    const collection = ctx.repos.collections.findById(id);
    if (!collection || !canSeeCollection(ctx.repos, user, isAdmin(user), collection.seriesIds)) throw notFound();
    return collection;
  };

  const checkSeriesExist = (ids: string[]) => {
    const missing = ids.filter((id) => !ctx.repos.series.findById(id));
    if (missing.length) throw badRequest(`Unknown series: ${namedFew(missing)}`);
  };

  const emit = (name: 'CollectionAdded' | 'CollectionChanged' | 'CollectionDeleted', c: Collection) =>
    ctx.events.emit({ name, data: { collectionId: c.id, seriesIds: c.seriesIds } });

  app.get('/api/v1/collections', { schema: { querystring: ListQuery } }, async (request) => {
    const user = caller(request);
    const paging = parsePaging(request.query);
    const libraries = listParam(request.query, 'library_id');
    const visible = visibleTo(user);
    const admin = isAdmin(user);
    const all = searchOrRefuse(() => ctx.repos.collections.findAll(stringParam(request.query, 'search'))).filter((c) => {
      if (!canSeeCollection(ctx.repos, user, admin, c.seriesIds)) return false;
      if (libraries.length === 0) return true;
      return c.seriesIds.filter(visible).some((id) => libraries.includes(ctx.repos.series.findById(id)?.libraryId ?? ''));
    });
    const slice = paging.unpaged ? all : all.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
    // Komga always lists collections by name (or relevance), whatever sort was asked for.
    return toPage(slice.map((c) => toCollectionDto(c, visible)), all.length, paging, true);
  });

  app.get('/api/v1/collections/:id', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    return toCollectionDto(collectionForCaller(request.params.id, user), visibleTo(user));
  });

  app.get('/api/v1/series/:id/collections', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    if (!canSeeSeries(ctx.repos, user, request.params.id)) throw notFound();
    return ctx.repos.collections.findBySeries(request.params.id).map((c) => toCollectionDto(c, visibleTo(user)));
  });

  app.post('/api/v1/collections', { config: { role: 'ADMIN' }, schema: { body: CollectionCreation } }, async (request) => {
    const name = request.body.name.trim();
    const seriesIds = request.body.seriesIds;
    if (ctx.repos.collections.findByName(name)) throw badRequest('A collection with this name already exists');
    checkSeriesExist(seriesIds);
    const now = Date.now();
    const collection: Collection = { id: newId(now), name, ordered: request.body.ordered ?? false, seriesIds, created: now, lastModified: now };
    ctx.repos.collections.save(collection);
    emit('CollectionAdded', collection);
    return toCollectionDto(collection, () => true);
  });

  app.patch('/api/v1/collections/:id', { config: { role: 'ADMIN' }, schema: { params: IdParams, body: CollectionUpdate } }, async (request, reply) => {
    const existing = ctx.repos.collections.findById(request.params.id);
    if (!existing) throw notFound();
    const body = {
      ...(request.body.name ? { name: request.body.name.trim() } : {}),
      ...(typeof request.body.ordered === 'boolean' ? { ordered: request.body.ordered } : {}),
      ...(request.body.seriesIds ? { seriesIds: request.body.seriesIds } : {}),
    };
    if (body.name && body.name.toLowerCase() !== existing.name.toLowerCase() && ctx.repos.collections.findByName(body.name)) {
      throw badRequest('A collection with this name already exists');
    }
    if (body.seriesIds) checkSeriesExist(body.seriesIds);
    const next: Collection = { ...existing, ...body, lastModified: Date.now() };
    ctx.repos.collections.save(next);
    emit('CollectionChanged', next);
    return reply.code(204).send();
  });

  app.delete('/api/v1/collections/:id', { schema: { params: IdParams } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const existing = ctx.repos.collections.findById(request.params.id);
    if (!existing) throw notFound();
    const posters = posterFilesOf(ctx, { collectionId: existing.id });
    ctx.repos.collections.delete(existing.id);
    await removePosterFiles(ctx, posters);
    emit('CollectionDeleted', existing);
    return reply.code(204).send();
  });

  /** Member series with the old-style series filters; collection order when `ordered`, else by sort title. */
  app.get('/api/v1/collections/:id/series', { schema: { params: IdParams, querystring: ListQuery } }, async (request, reply) => {
    const user = caller(request);
    // The query is read before the collection is looked up: a filter that does not convert is a 400 first, as in Komga.
    const paging = parsePaging(request.query);
    const filter = seriesConditionFromQuery(request.query);
    const collection = collectionForCaller(request.params.id, user);
    try {
      const { ids } = ctx.repos.search.series({
        userId: user.id,
        condition: { allOf: [{ collectionId: { operator: 'is', value: collection.id } }, filter] },
        restrictedTo: user,
        sort: [],
        limit: null,
        offset: 0,
      });
      const ordered = collection.ordered ? inListOrder(ids, collection.seriesIds) : ids;
      const slice = paging.unpaged ? ordered : ordered.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
      const admin = callerIsAdmin(request);
      // Always in the collection's order (or by sort title when unordered), as Komga sorts it.
      return chunkedPage(reply, slice, (id) => toSeriesDto(ctx, id, user, admin), ordered.length, paging, true);
    } catch (error) {
      rethrowSearchError(error);
    }
  });

  app.get('/api/v1/collections/:id/thumbnail', { schema: { params: IdParams } }, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const user = caller(request);
    const collection = collectionForCaller(request.params.id, user);
    const own = await selectedPosterFile(ctx, 'collections', collection.id);
    if (own) return sendPoster(reply, own);
    return reply.type('image/jpeg').send(await seriesMosaic(ctx, collection.seriesIds.filter(visibleTo(user)), user.id, workFor(request)));
  });
}
