import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import type { Condition } from '../../db/search/conditions.ts';
import { caller } from '../guards.ts';
import { seriesConditionFromQuery } from '../legacy-filters.ts';
import { parsePaging } from '../paging.ts';
import { type RawQuery, booleanParam, listParam, stringParam } from '../query-params.ts';
import { bookPage, rethrowSearchError, seriesPage } from '../paged-search.ts';
import { type FolioApp, ListQuery, LongText, Nullable, OptionalBody, type Static, Type } from '../schemas.ts';

interface SearchBody {
  condition?: Condition;
  fullTextSearch?: string;
}

/**
 * SeriesSearch / BookSearch. The condition is a recursive grammar that the search compiler checks
 * (simplified first, 400 when malformed); the body itself may be left out.
 */
const SearchBodySchema = OptionalBody(
  // Search texts, the condition's and this one, are bounded by the search layer (MAX_CONDITION_TEXT),
  // whose 400 names that bound; the request's bound here is only the outer one.
  Type.Object({ condition: Type.Optional(Type.Unknown()), fullTextSearch: Type.Optional(Nullable(LongText())) }),
);

function readSearchBody(body: Static<typeof SearchBodySchema>): SearchBody {
  return { condition: (body.condition ?? undefined) as Condition | undefined, fullTextSearch: body.fullTextSearch ?? undefined };
}

/** Search endpoints (POST …/list) and Komga's special lists (on deck, new, updated, latest). */
export function registerListRoutes(app: FolioApp, ctx: FolioContext): void {
  app.post('/api/v1/series/list', { schema: { querystring: ListQuery, body: SearchBodySchema } }, async (request, reply) => {
    const body = readSearchBody(request.body);
    return seriesPage(ctx, request, reply, parsePaging(request.query), body);
  });

  app.post('/api/v1/books/list', { schema: { querystring: ListQuery, body: SearchBodySchema } }, async (request, reply) => {
    const body = readSearchBody(request.body);
    return bookPage(ctx, request, reply, parsePaging(request.query), body);
  });

  /** Counts of series by the first character of their sort title. */
  const alphabeticalGroups = (request: FastifyRequest, body: SearchBody) => {
    const user = caller(request);
    try {
      const { ids } = ctx.repos.search.series({
        userId: user.id,
        ...body,
        restrictedTo: user,
        sort: [],
        limit: null,
        offset: 0,
      });
      const counts = new Map<string, number>();
      for (const id of ids) {
        const first = [...ctx.repos.seriesMetadata.titleSort(id)][0]?.toLowerCase() ?? '';
        counts.set(first, (counts.get(first) ?? 0) + 1);
      }
      return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([group, count]) => ({ group, count }));
    } catch (error) {
      rethrowSearchError(error);
    }
  };
  app.post('/api/v1/series/list/alphabetical-groups', { schema: { body: SearchBodySchema } }, async (request) =>
    alphabeticalGroups(request, readSearchBody(request.body)),
  );
  app.get('/api/v1/series/alphabetical-groups', { schema: { querystring: ListQuery } }, async (request) =>
    alphabeticalGroups(request, {
      condition: seriesConditionFromQuery(request.query),
      fullTextSearch: stringParam(request.query, 'search'),
    }),
  );

  const specialSeriesFilters = (query: RawQuery): Condition => {
    const parts: Condition[] = [];
    const libraries = listParam(query, 'library_id');
    if (libraries.length) parts.push({ anyOf: libraries.map((value) => ({ libraryId: { operator: 'is', value } })) });
    const deleted = booleanParam(query, 'deleted');
    if (deleted !== undefined) parts.push({ deleted: { operator: deleted ? 'isTrue' : 'isFalse' } });
    const oneshot = booleanParam(query, 'oneshot');
    if (oneshot !== undefined) parts.push({ oneShot: { operator: oneshot ? 'isTrue' : 'isFalse' } });
    return { allOf: parts };
  };

  app.get('/api/v1/series/new', { schema: { querystring: ListQuery } }, async (request, reply) =>
    seriesPage(ctx, request, reply, parsePaging(request.query), {
      condition: specialSeriesFilters(request.query),
      sort: [{ property: 'created', direction: 'desc' }],
    }),
  );
  app.get('/api/v1/series/updated', { schema: { querystring: ListQuery } }, async (request, reply) =>
    seriesPage(ctx, request, reply, parsePaging(request.query), {
      condition: specialSeriesFilters(request.query),
      updatedOnly: true,
      sort: [{ property: 'lastModified', direction: 'desc' }],
    }),
  );
  app.get('/api/v1/series/latest', { schema: { querystring: ListQuery } }, async (request, reply) =>
    seriesPage(ctx, request, reply, parsePaging(request.query), {
      condition: specialSeriesFilters(request.query),
      sort: [{ property: 'lastModified', direction: 'desc' }],
    }),
  );

  app.get('/api/v1/books/latest', { schema: { querystring: ListQuery } }, async (request, reply) =>
    bookPage(ctx, request, reply, parsePaging(request.query), {
      condition: { allOf: [{ deleted: { operator: 'isFalse' } }] },
      sort: [{ property: 'lastModified', direction: 'desc' }],
    }),
  );

  app.get('/api/v1/books/ondeck', { schema: { querystring: ListQuery } }, async (request, reply) => {
    const libraries = listParam(request.query, 'library_id');
    return bookPage(ctx, request, reply, parsePaging(request.query), {
      condition: libraries.length
        ? { anyOf: libraries.map((value) => ({ libraryId: { operator: 'is', value } })) }
        : undefined,
      onDeck: true,
      sort: [{ property: 'seriesLastRead', direction: 'desc' }],
    });
  });

}
