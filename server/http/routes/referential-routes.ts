import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../../db/user-repository.ts';
import type { ReferentialScope } from '../../db/referential-repository.ts';
import type { Author } from '../../db/stored-values.ts';
import type { FolioContext } from '../../domain/context.ts';
import { caller } from '../guards.ts';
import { parsePaging, toPage } from '../paging.ts';
import { type RawQuery, listParam, stringParam } from '../query-params.ts';
import { type FolioApp, NamedQuery, PAGING_PARAMS } from '../schemas.ts';

const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

/** What the caller may see, narrowed by the library/collection/series/read-list query filters. */
function scopeOf(user: User, query: RawQuery): ReferentialScope {
  return {
    restrictedTo: user,
    libraryIds: listParam(query, 'library_id'),
    collectionIds: listParam(query, 'collection_id'),
    seriesIds: listParam(query, 'series_id'),
    readListIds: listParam(query, 'readlist_id'),
  };
}

/**
 * Pick lists for filters (REFERENCE §9): distinct genres, tags, publishers, languages, age
 * ratings, release years, sharing labels and authors among what the caller may see. The v1
 * forms answer plain arrays (deprecated), the v2 forms Spring pages.
 */
export function registerReferentialRoutes(app: FolioApp, ctx: FolioContext): void {
  const { referential } = ctx.repos;
  const authors = (scope: ReferentialScope): Author[] =>
    referential.authors(scope).sort((a, b) => byText(a.name, b.name) || byText(a.role, b.role));

  const sortedUnique = (values: string[]) => [...new Set(values)].sort(byText);
  const searchFilter = (query: RawQuery) => {
    const term = stringParam(query, 'search')?.toLowerCase();
    return (v: string) => !term || v.toLowerCase().includes(term);
  };
  const paged = <T>(request: FastifyRequest<{ Querystring: RawQuery }>, values: T[]) => {
    const paging = parsePaging(request.query);
    const slice = paging.unpaged ? values : values.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
    return toPage(slice, values.length, paging, false);
  };

  type Lister = (user: User, query: RawQuery) => string[];
  const lists: Record<string, Lister> = {
    genres: (u, q) => referential.seriesList('genres', scopeOf(u, q)),
    'tags/series': (u, q) => referential.seriesList('tags', scopeOf(u, q)),
    'tags/book': (u, q) => referential.bookTags(scopeOf(u, q)),
    tags: (u, q) => [...referential.seriesList('tags', scopeOf(u, q)), ...referential.bookTags(scopeOf(u, q))],
    publishers: (u, q) => referential.seriesValues('publishers', scopeOf(u, q)),
    languages: (u, q) => referential.seriesValues('languages', scopeOf(u, q)),
    'sharing-labels': (u, q) => referential.seriesList('sharingLabels', scopeOf(u, q)),
  };
  for (const [path, list] of Object.entries(lists)) {
    app.get(`/api/v1/${path}`, { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => sortedUnique(list(caller(request), request.query)));
  }
  for (const path of ['genres', 'publishers', 'languages', 'sharing-labels']) {
    app.get(`/api/v2/${path}`, { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
      paged(request, sortedUnique(lists[path]!(caller(request), request.query)).filter(searchFilter(request.query))),
    );
  }
  app.get('/api/v2/tags', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => {
    const user = caller(request);
    const include = stringParam(request.query, 'include')?.toLowerCase();
    const values =
      include === 'series'
        ? lists['tags/series']!(user, request.query)
        : include === 'book'
          ? lists['tags/book']!(user, request.query)
          : lists.tags!(user, request.query);
    return paged(request, sortedUnique(values).filter(searchFilter(request.query)));
  });

  const ageRatings = (user: User, query: RawQuery) => referential.ageRatings(scopeOf(user, query));
  // v1 reports unrated series as "None".
  app.get('/api/v1/age-ratings', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    ageRatings(caller(request), request.query).map((a) => (a === null ? 'None' : String(a))),
  );
  app.get('/api/v2/age-ratings', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    paged(request, ageRatings(caller(request), request.query).filter((a): a is number => a !== null)),
  );

  const releaseYears = (user: User, query: RawQuery) =>
    sortedUnique(referential.releaseYears(scopeOf(user, query))).reverse();
  app.get('/api/v1/series/release-dates', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => releaseYears(caller(request), request.query));
  app.get('/api/v2/series/release-years', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => paged(request, releaseYears(caller(request), request.query)));

  const matchingAuthors = (request: FastifyRequest<{ Querystring: RawQuery }>) => {
    const search = stringParam(request.query, 'search')?.toLowerCase();
    const role = stringParam(request.query, 'role')?.toLowerCase();
    return authors(scopeOf(caller(request), request.query)).filter(
      (a) => (!search || a.name.toLowerCase().includes(search)) && (!role || a.role.toLowerCase() === role),
    );
  };
  app.get('/api/v1/authors', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => matchingAuthors(request));
  app.get('/api/v2/authors', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => paged(request, matchingAuthors(request)));
  app.get('/api/v1/authors/names', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => sortedUnique(matchingAuthors(request).map((a) => a.name)));
  app.get('/api/v2/authors/names', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => paged(request, sortedUnique(matchingAuthors(request).map((a) => a.name))));
  app.get('/api/v1/authors/roles', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    sortedUnique(authors(scopeOf(caller(request), request.query)).map((a) => a.role)),
  );
  app.get('/api/v2/authors/roles', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    paged(request, sortedUnique(authors(scopeOf(caller(request), request.query)).map((a) => a.role))),
  );
}
