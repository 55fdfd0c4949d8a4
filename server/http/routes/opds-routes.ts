import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../db/user-repository.ts';
import type { BookQuery } from '../../db/search/book-search.ts';
import type { SortOrder } from '../../db/search/sort.ts';
import type { FolioContext } from '../../domain/context.ts';
import { notFound } from '../errors.ts';
import { formatDateTime } from '../format.ts';
import { canAccessLibrary, caller } from '../guards.ts';
import { ACQUISITION, type Entry, type Feed, type Link, NAVIGATION, absolute, feed, xml } from '../opds/atom.ts';
import { opdsBookEntry } from '../opds/book-entry.ts';
import { publicOrigin } from '../public-origin.ts';
import { type RawQuery, stringParam } from '../query-params.ts';
import { parsePaging } from '../paging.ts';
import { type FolioApp, IdParams, NamedQuery } from '../schemas.ts';

const PAGE_SIZE = 50;

/**
 * OPDS 1.2 catalog for e-reader apps, with Komga's feed paths: navigation (libraries, series,
 * latest series), book feeds (keep reading, on deck, latest books, a series' books), acquisition
 * feeds of books with download, poster and OPDS-PSE page-streaming links, OpenSearch. Same
 * authentication and content restrictions as the API.
 */
export function registerOpdsRoutes(app: FolioApp, ctx: FolioContext): void {
  const now = () => formatDateTime(Date.now());
  /** A feed written with absolute links for the address the client used. */
  const send = (request: FastifyRequest, reply: FastifyReply, f: Omit<Feed, 'origin'>) =>
    reply.type(f.kind).send(feed({ ...f, origin: publicOrigin(request) }));
  // The API's paging parser: a page number past 32 bits is the first page, not a float OFFSET.
  const pageOf = (query: RawQuery) => parsePaging({ page: stringParam(query, 'page') }).page;
  const pagingLinks = (base: string, page: number, total: number, kind: string): Link[] => {
    const sep = base.includes('?') ? '&' : '?';
    const links: Link[] = [];
    if (page > 0) links.push({ rel: 'previous', href: `${base}${sep}page=${page - 1}`, type: kind });
    if ((page + 1) * PAGE_SIZE < total) links.push({ rel: 'next', href: `${base}${sep}page=${page + 1}`, type: kind });
    return links;
  };

  /** Series the user may see, of one library when `libraryId` is given. */
  const seriesEntries = (user: User, libraryId: string | undefined, query: RawQuery, base: string, sort: SortOrder[] = []) => {
    const page = pageOf(query);
    const notDeleted = { deleted: { operator: 'isFalse' } };
    const result = ctx.repos.search.series({
      userId: user.id,
      fullTextSearch: stringParam(query, 'search'),
      condition: libraryId ? { allOf: [notDeleted, { libraryId: { operator: 'is', value: libraryId } }] } : notDeleted,
      restrictedTo: user,
      sort,
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    });
    const entries: Entry[] = result.ids.flatMap((id) => {
      const series = ctx.repos.series.findById(id);
      const meta = ctx.repos.seriesMetadata.findBySeriesId(id);
      if (!series || !meta) return [];
      return [
        {
          id: `series-${id}`,
          title: meta.title,
          updated: formatDateTime(series.lastModified),
          content: meta.summary,
          links: [
            { rel: 'subsection', href: `/opds/v1.2/series/${id}`, type: ACQUISITION },
            { rel: 'http://opds-spec.org/image/thumbnail', href: `/api/v1/series/${id}/thumbnail`, type: 'image/jpeg' },
          ],
        },
      ];
    });
    return { entries, links: pagingLinks(base, page, result.total, NAVIGATION) };
  };

  const bookEntries = (user: User, ids: string[]): Entry[] => ids.flatMap((id) => opdsBookEntry(ctx, user.id, id) ?? []);

  app.get('/opds/v1.2/catalog', async (request, reply) => {
    caller(request);
    const nav = (id: string, title: string, content: string, href: string, kind = NAVIGATION): Entry => ({
      id,
      title,
      content,
      updated: now(),
      links: [{ rel: 'subsection', href, type: kind }],
    });
    return send(request, reply, {
      id: 'root',
      title: 'Folio',
      updated: now(),
      selfHref: '/opds/v1.2/catalog',
      kind: NAVIGATION,
      // The same catalog in OPDS 2 (opds2-routes.ts), as Komga announces it.
      links: [{ rel: 'alternate', href: '/opds/v2/catalog', type: 'application/opds+json' }],
      entries: [
        nav('keepReading', 'Keep Reading', 'Continue reading your in progress books', '/opds/v1.2/keep-reading', ACQUISITION),
        nav('ondeck', 'On Deck', 'Browse what to read next', '/opds/v1.2/ondeck', ACQUISITION),
        nav('allSeries', 'All series', 'Browse by series', '/opds/v1.2/series'),
        nav('latestSeries', 'Latest series', 'Browse latest series', '/opds/v1.2/series/latest'),
        nav('latestBooks', 'Latest books', 'Browse latest books', '/opds/v1.2/books/latest', ACQUISITION),
        nav('allLibraries', 'All libraries', 'Browse by library', '/opds/v1.2/libraries'),
      ],
    });
  });

  app.get('/opds/v1.2/libraries', async (request, reply) => {
    const user = caller(request);
    const entries: Entry[] = ctx.repos.libraries
      .findAll()
      .filter((l) => canAccessLibrary(user, l.id))
      .map((l) => ({
        id: `library-${l.id}`,
        title: l.name,
        updated: formatDateTime(l.lastModified),
        links: [{ rel: 'subsection', href: `/opds/v1.2/libraries/${l.id}`, type: NAVIGATION }],
      }));
    return send(request, reply, { id: 'libraries', title: 'All libraries', updated: now(), selfHref: '/opds/v1.2/libraries', kind: NAVIGATION, entries });
  });

  app.get('/opds/v1.2/libraries/:id', { schema: { params: IdParams, querystring: NamedQuery(['page', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const library = ctx.repos.libraries.findById(request.params.id);
    if (!library || !canAccessLibrary(user, library.id)) throw notFound();
    const base = `/opds/v1.2/libraries/${library.id}`;
    const { entries, links } = seriesEntries(user, library.id, request.query, base);
    return send(request, reply, { id: `library-${library.id}`, title: library.name, updated: now(), selfHref: base, kind: NAVIGATION, links, entries });
  });

  app.get('/opds/v1.2/series', { schema: { querystring: NamedQuery(['page', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const search = stringParam(request.query, 'search');
    const base = search ? `/opds/v1.2/series?search=${encodeURIComponent(search)}` : '/opds/v1.2/series';
    const { entries, links } = seriesEntries(user, undefined, request.query, base);
    return send(request, reply, { id: 'series', title: search ? `Search: ${search}` : 'All series', updated: now(), selfHref: base, kind: NAVIGATION, links, entries });
  });

  app.get('/opds/v1.2/series/latest', { schema: { querystring: NamedQuery(['page']) } }, async (request, reply) => {
    const user = caller(request);
    const base = '/opds/v1.2/series/latest';
    const { entries, links } = seriesEntries(user, undefined, request.query, base, [{ property: 'lastModified', direction: 'desc' }]);
    return send(request, reply, { id: 'latestSeries', title: 'Latest series', updated: now(), selfHref: base, kind: NAVIGATION, links, entries });
  });

  app.get('/opds/v1.2/series/:id', { schema: { params: IdParams, querystring: NamedQuery(['page', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const series = ctx.repos.series.findById(request.params.id);
    const meta = ctx.repos.seriesMetadata.findBySeriesId(request.params.id);
    if (!series || !meta || !canAccessLibrary(user, series.libraryId)) throw notFound();
    const page = pageOf(request.query);
    const result = ctx.repos.search.books({
      userId: user.id,
      condition: { allOf: [{ seriesId: { operator: 'is', value: series.id } }, { deleted: { operator: 'isFalse' } }] },
      restrictedTo: user,
      sort: [],
      defaultSort: [{ property: 'metadata.numberSort', direction: 'asc' }],
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    });
    const base = `/opds/v1.2/series/${series.id}`;
    return send(request, reply, {
      id: `series-${series.id}`,
      title: meta.title,
      updated: formatDateTime(series.lastModified),
      selfHref: base,
      kind: ACQUISITION,
      links: pagingLinks(base, page, result.total, ACQUISITION),
      entries: bookEntries(user, result.ids),
    });
  });

  /** A paged acquisition feed of books across the caller's libraries (Komga's book feeds). */
  type FeedQuery = Omit<BookQuery, 'userId' | 'restrictedTo' | 'limit' | 'offset'>;
  const bookFeed = (request: FastifyRequest, reply: FastifyReply, page: number, id: string, title: string, base: string, query: FeedQuery) => {
    const user = caller(request);
    const result = ctx.repos.search.books({ ...query, userId: user.id, restrictedTo: user, limit: PAGE_SIZE, offset: page * PAGE_SIZE });
    // Books out of their series' context read "Series 3: Title", as Komga titles them.
    const entries = result.ids.flatMap((bookId) => {
      const book = ctx.repos.books.findById(bookId);
      const seriesTitle = book ? ctx.repos.seriesMetadata.findBySeriesId(book.seriesId)?.title : undefined;
      const number = ctx.repos.bookMetadata.findByBookId(bookId)?.number;
      return opdsBookEntry(ctx, user.id, bookId, seriesTitle ? `${seriesTitle} ${number ?? ''}: ` : '') ?? [];
    });
    return send(request, reply, { id, title, updated: now(), selfHref: base, kind: ACQUISITION, links: pagingLinks(base, page, result.total, ACQUISITION), entries });
  };
  const readyBooks = [{ mediaStatus: { operator: 'is', value: 'READY' } }, { deleted: { operator: 'isFalse' } }];

  // Komga's two reading feeds: books in progress, latest read first; and the next book to read
  // in each series being read (on deck).
  app.get('/opds/v1.2/keep-reading', { schema: { querystring: NamedQuery(['page']) } }, async (request, reply) =>
    bookFeed(request, reply, pageOf(request.query), 'keepReading', 'Keep Reading', '/opds/v1.2/keep-reading', {
      condition: { allOf: [{ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }, ...readyBooks] },
      sort: [{ property: 'readProgress.readDate', direction: 'desc' }],
    }),
  );

  app.get('/opds/v1.2/ondeck', { schema: { querystring: NamedQuery(['page']) } }, async (request, reply) =>
    bookFeed(request, reply, pageOf(request.query), 'ondeck', 'On Deck', '/opds/v1.2/ondeck', { onDeck: true, sort: [{ property: 'seriesLastRead', direction: 'desc' }] }),
  );

  app.get('/opds/v1.2/books/latest', { schema: { querystring: NamedQuery(['page']) } }, async (request, reply) =>
    bookFeed(request, reply, pageOf(request.query), 'latestBooks', 'Latest books', '/opds/v1.2/books/latest', {
      condition: { allOf: readyBooks },
      sort: [{ property: 'createdDate', direction: 'desc' }],
    }),
  );

  app.get('/opds/v1.2/search', async (request, reply) => {
    caller(request);
    // The template is used as it stands by OpenSearch clients: absolute, like the feeds' links.
    const template = `${absolute('/opds/v1.2/series', publicOrigin(request))}?search={searchTerms}`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">',
      '<ShortName>Folio</ShortName>',
      '<Description>Search series</Description>',
      `<Url type="${xml(NAVIGATION)}" template="${xml(template)}"/>`,
      '</OpenSearchDescription>',
    ].join('\n');
    return reply.type('application/opensearchdescription+xml').send(body);
  });
}
