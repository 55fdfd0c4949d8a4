import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../../db/user-repository.ts';
import { type SqlFragment, joinFragments, sql } from '../../db/search/sql-fragment.ts';
import type { FolioContext } from '../../domain/context.ts';
import type { AuthorDto } from '../../../src/api/types.ts';
import { caller } from '../guards.ts';
import { parsePaging, toPage } from '../paging.ts';
import { type RawQuery, listParam, stringParam } from '../query-params.ts';
import { libraryRestriction } from '../paged-search.ts';
import { type FolioApp, NamedQuery, PAGING_PARAMS } from '../schemas.ts';

const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

/** Restricts series rows (alias s) to the caller's visible ones and the library/collection filters. */
function seriesScope(user: User, query: RawQuery): SqlFragment {
  const parts: SqlFragment[] = [];
  const restriction = libraryRestriction(user, 's.library_id');
  if (restriction) parts.push(restriction);
  const libraries = listParam(query, 'library_id');
  if (libraries.length) parts.push(sql(`s.library_id IN (${libraries.map(() => '?').join(', ')})`, ...libraries));
  const collections = listParam(query, 'collection_id');
  if (collections.length) {
    parts.push(
      sql(
        `EXISTS (SELECT 1 FROM collection_series cs WHERE cs.series_id = s.id AND cs.collection_id IN (${collections.map(() => '?').join(', ')}))`,
        ...collections,
      ),
    );
  }
  const series = listParam(query, 'series_id');
  if (series.length) parts.push(sql(`s.id IN (${series.map(() => '?').join(', ')})`, ...series));
  return joinFragments(parts, ' AND ', '1 = 1');
}

/** Like seriesScope for book rows (alias b, joined to their series s), plus read-list filter. */
function bookScope(user: User, query: RawQuery): SqlFragment {
  const parts = [seriesScope(user, query)];
  const lists = listParam(query, 'readlist_id');
  if (lists.length) {
    parts.push(
      sql(
        `EXISTS (SELECT 1 FROM readlist_book rb WHERE rb.book_id = b.id AND rb.readlist_id IN (${lists.map(() => '?').join(', ')}))`,
        ...lists,
      ),
    );
  }
  return joinFragments(parts, ' AND ', '1 = 1');
}

/**
 * Pick lists for filters (REFERENCE §9): distinct genres, tags, publishers, languages, age
 * ratings, release years, sharing labels and authors among what the caller may see. The v1
 * forms answer plain arrays (deprecated), the v2 forms Spring pages.
 */
export function registerReferentialRoutes(app: FolioApp, ctx: FolioContext): void {
  const distinct = (text: string, scope: SqlFragment): string[] =>
    (ctx.db.prepare(text.replace('%SCOPE%', scope.sql)).pluck().all(...scope.params) as unknown[])
      .filter((v) => v !== null && v !== '')
      .map(String);

  const seriesJson = (column: string, scope: SqlFragment) =>
    distinct(
      `SELECT DISTINCT j.value FROM series s JOIN series_metadata sm ON sm.series_id = s.id
       LEFT JOIN series_books_metadata sbm ON sbm.series_id = s.id, json_each(${column}) j WHERE %SCOPE%`,
      scope,
    );
  const seriesColumn = (column: string, scope: SqlFragment) =>
    distinct(`SELECT DISTINCT ${column} FROM series s JOIN series_metadata sm ON sm.series_id = s.id WHERE %SCOPE%`, scope);
  const bookTags = (scope: SqlFragment) =>
    distinct(`SELECT DISTINCT j.value FROM book b JOIN series s ON s.id = b.series_id JOIN book_metadata bm ON bm.book_id = b.id, json_each(bm.tags) j WHERE %SCOPE%`, scope);
  const authors = (scope: SqlFragment): AuthorDto[] => {
    const rows = ctx.db
      .prepare(
        `SELECT DISTINCT json_extract(j.value, '$.name') AS name, json_extract(j.value, '$.role') AS role
         FROM book b JOIN series s ON s.id = b.series_id JOIN book_metadata bm ON bm.book_id = b.id, json_each(bm.authors) j
         WHERE ${scope.sql}`,
      )
      .all(...scope.params) as AuthorDto[];
    return rows.sort((a, b) => byText(a.name, b.name) || byText(a.role, b.role));
  };

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
    genres: (u, q) => seriesJson('sm.genres', seriesScope(u, q)),
    'tags/series': (u, q) => seriesJson('sm.tags', seriesScope(u, q)),
    'tags/book': (u, q) => bookTags(bookScope(u, q)),
    tags: (u, q) => [...seriesJson('sm.tags', seriesScope(u, q)), ...bookTags(bookScope(u, q))],
    publishers: (u, q) => seriesColumn('sm.publisher', seriesScope(u, q)),
    languages: (u, q) => seriesColumn('sm.language', seriesScope(u, q)),
    'sharing-labels': (u, q) => seriesJson('sm.sharing_labels', seriesScope(u, q)),
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

  const ageRatings = (user: User, query: RawQuery) =>
    (ctx.db
      .prepare(`SELECT DISTINCT sm.age_rating FROM series s JOIN series_metadata sm ON sm.series_id = s.id WHERE ${seriesScope(user, query).sql} ORDER BY sm.age_rating`)
      .pluck()
      .all(...seriesScope(user, query).params) as (number | null)[]);
  // v1 reports unrated series as "None".
  app.get('/api/v1/age-ratings', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    ageRatings(caller(request), request.query).map((a) => (a === null ? 'None' : String(a))),
  );
  app.get('/api/v2/age-ratings', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    paged(request, ageRatings(caller(request), request.query).filter((a): a is number => a !== null)),
  );

  const releaseYears = (user: User, query: RawQuery) =>
    sortedUnique(
      distinct(
        `SELECT DISTINCT substr(sbm.release_date, 1, 4) FROM series s JOIN series_books_metadata sbm ON sbm.series_id = s.id WHERE %SCOPE%`,
        seriesScope(user, query),
      ),
    ).reverse();
  app.get('/api/v1/series/release-dates', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => releaseYears(caller(request), request.query));
  app.get('/api/v2/series/release-years', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => paged(request, releaseYears(caller(request), request.query)));

  const matchingAuthors = (request: FastifyRequest<{ Querystring: RawQuery }>) => {
    const search = stringParam(request.query, 'search')?.toLowerCase();
    const role = stringParam(request.query, 'role')?.toLowerCase();
    return authors(bookScope(caller(request), request.query)).filter(
      (a) => (!search || a.name.toLowerCase().includes(search)) && (!role || a.role.toLowerCase() === role),
    );
  };
  app.get('/api/v1/authors', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => matchingAuthors(request));
  app.get('/api/v2/authors', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => paged(request, matchingAuthors(request)));
  app.get('/api/v1/authors/names', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => sortedUnique(matchingAuthors(request).map((a) => a.name)));
  app.get('/api/v2/authors/names', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) => paged(request, sortedUnique(matchingAuthors(request).map((a) => a.name))));
  app.get('/api/v1/authors/roles', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    sortedUnique(authors(bookScope(caller(request), request.query)).map((a) => a.role)),
  );
  app.get('/api/v2/authors/roles', { schema: { querystring: NamedQuery([...PAGING_PARAMS, 'search', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'role', 'include']) } }, async (request) =>
    paged(request, sortedUnique(authors(bookScope(caller(request), request.query)).map((a) => a.role))),
  );
}
