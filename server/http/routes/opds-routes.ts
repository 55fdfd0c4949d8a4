import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../db/user-repository.ts';
import type { BookQuery } from '../../db/search/book-search.ts';
import type { SortOrder } from '../../db/search/sort.ts';
import type { FolioContext } from '../../domain/context.ts';
import { notFound } from '../errors.ts';
import { formatDateTime } from '../format.ts';
import { canSeeBook, canSeeCollection, canSeeReadList, canSeeSeries } from '../../domain/content-restrictions.ts';
import { isAdmin } from '../dto/user-dto.ts';
import { canAccessLibrary, caller } from '../guards.ts';
import { ACQUISITION, type Entry, type Feed, type Link, NAVIGATION, absolute, feed, xml } from '../opds/atom.ts';
import { opdsBookEntry } from '../opds/book-entry.ts';
import { publicBaseUrl } from '../base-path.ts';
import { type RawQuery, listParam, stringParam } from '../query-params.ts';
import { inOrder } from '../opds/in-order.ts';
import { pageSizeParam, parsePaging } from '../paging.ts';
import { type FolioApp, IdParams, NamedQuery } from '../schemas.ts';

const PAGE_SIZE = 50;

/**
 * One page of a feed: Komga pages its OPDS 1.2 feeds with Spring's `page` and `size`, so a reader
 * asking for `size` gets that many entries; without it Folio's own page size applies.
 */
interface Window {
  page: number;
  size: number;
  /** The reader chose `size`: the previous/next links keep it, so the pages do not shift. */
  sized: boolean;
}

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
    reply.type(f.kind).send(feed({ ...f, origin: publicBaseUrl(request) }));
  // The API's paging parser: a page number past 32 bits is the first page, not a float OFFSET.
  const windowOf = (query: RawQuery): Window => {
    const size = stringParam(query, 'size');
    return {
      page: parsePaging({ page: stringParam(query, 'page') }).page,
      size: pageSizeParam(size, PAGE_SIZE),
      sized: size !== undefined && pageSizeParam(size, 0) > 0,
    };
  };
  const pagingLinks = (base: string, window: Window, total: number, kind: string): Link[] => {
    const { page, size } = window;
    const sep = base.includes('?') ? '&' : '?';
    const sizePart = window.sized ? `&size=${size}` : '';
    const links: Link[] = [];
    if (page > 0) links.push({ rel: 'previous', href: `${base}${sep}page=${page - 1}${sizePart}`, type: kind });
    if ((page + 1) * size < total) links.push({ rel: 'next', href: `${base}${sep}page=${page + 1}${sizePart}`, type: kind });
    return links;
  };
  /** The window's slice of a list held whole. */
  const sliceOf = <T>(items: T[], { page, size }: Window): T[] => items.slice(page * size, (page + 1) * size);

  /**
   * One page of the series the user may see that match `conditions` (not deleted), as entries;
   * `order` (a collection's own order) replaces the sort when given.
   */
  const seriesEntries = (
    user: User,
    query: RawQuery,
    base: string,
    options: { conditions?: unknown[]; sort?: SortOrder[]; order?: string[] } = {},
  ) => {
    const window = windowOf(query);
    // Komga's OPDS search (the OpenSearch template) finds series whose title contains the words,
    // ignoring case and accents; not the API's full-text search, which also matches publishers,
    // tags and summaries.
    const search = stringParam(query, 'search');
    const titleContains = search ? [{ title: { operator: 'contains', value: search } }] : [];
    const result = ctx.repos.search.series({
      userId: user.id,
      condition: { allOf: [{ deleted: { operator: 'isFalse' } }, ...titleContains, ...(options.conditions ?? [])] },
      restrictedTo: user,
      sort: options.sort ?? [],
      limit: options.order ? null : window.size,
      offset: options.order ? 0 : window.page * window.size,
    });
    const ids = options.order ? sliceOf(inOrder(result.ids, options.order), window) : result.ids;
    const entries: Entry[] = ids.flatMap((id) => {
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
    return { entries, links: pagingLinks(base, window, result.total, NAVIGATION) };
  };
  const libraryIs = (libraryId: string) => ({ libraryId: { operator: 'is', value: libraryId } });
  /** Books that can be read: analysed (READY) and not deleted. */
  const readyBooks = [{ mediaStatus: { operator: 'is', value: 'READY' } }, { deleted: { operator: 'isFalse' } }];

  const bookEntries = (user: User, ids: string[]): Entry[] => ids.flatMap((id) => opdsBookEntry(ctx, user.id, id) ?? []);
  /** A book out of its series' context, titled "Series 3: Title" as Komga titles it. */
  const withSeriesTitle = (user: User, bookId: string): Entry[] => {
    const book = ctx.repos.books.findById(bookId);
    const seriesTitle = book ? ctx.repos.seriesMetadata.findBySeriesId(book.seriesId)?.title : undefined;
    const number = ctx.repos.bookMetadata.findByBookId(bookId)?.number;
    const entry = opdsBookEntry(ctx, user.id, bookId, seriesTitle ? `${seriesTitle} ${number ?? ''}: ` : '');
    return entry ? [entry] : [];
  };

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
        nav('allCollections', 'All collections', 'Browse by collection', '/opds/v1.2/collections'),
        nav('allReadLists', 'All read lists', 'Browse by read lists', '/opds/v1.2/readlists'),
        nav('allPublishers', 'All publishers', 'Browse by publishers', '/opds/v1.2/publishers'),
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

  app.get('/opds/v1.2/libraries/:id', { schema: { params: IdParams, querystring: NamedQuery(['page', 'size', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const library = ctx.repos.libraries.findById(request.params.id);
    if (!library || !canAccessLibrary(user, library.id)) throw notFound();
    const base = `/opds/v1.2/libraries/${library.id}`;
    const { entries, links } = seriesEntries(user, request.query, base, { conditions: [libraryIs(library.id)] });
    return send(request, reply, { id: `library-${library.id}`, title: library.name, updated: now(), selfHref: base, kind: NAVIGATION, links, entries });
  });

  app.get('/opds/v1.2/series', { schema: { querystring: NamedQuery(['page', 'size', 'search', 'publisher']) } }, async (request, reply) => {
    const user = caller(request);
    const search = stringParam(request.query, 'search');
    // Komga's publisher feeds are this feed filtered by publisher (any of them when repeated).
    const publishers = listParam(request.query, 'publisher');
    const params = new URLSearchParams([...(search ? [['search', search]] : []), ...publishers.map((p) => ['publisher', p])]).toString();
    const base = params ? `/opds/v1.2/series?${params}` : '/opds/v1.2/series';
    const conditions = publishers.length > 0 ? [{ anyOf: publishers.map((value) => ({ publisher: { operator: 'is', value } })) }] : [];
    const { entries, links } = seriesEntries(user, request.query, base, { conditions });
    const title = search ? `Search: ${search}` : publishers.length > 0 ? publishers.join(', ') : 'All series';
    return send(request, reply, { id: 'series', title, updated: now(), selfHref: base, kind: NAVIGATION, links, entries });
  });

  app.get('/opds/v1.2/series/latest', { schema: { querystring: NamedQuery(['page', 'size']) } }, async (request, reply) => {
    const user = caller(request);
    const base = '/opds/v1.2/series/latest';
    const { entries, links } = seriesEntries(user, request.query, base, { sort: [{ property: 'lastModified', direction: 'desc' }] });
    return send(request, reply, { id: 'latestSeries', title: 'Latest series', updated: now(), selfHref: base, kind: NAVIGATION, links, entries });
  });

  app.get('/opds/v1.2/series/:id', { schema: { params: IdParams, querystring: NamedQuery(['page', 'size', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const series = ctx.repos.series.findById(request.params.id);
    const meta = ctx.repos.seriesMetadata.findBySeriesId(request.params.id);
    if (!series || !meta || !canAccessLibrary(user, series.libraryId)) throw notFound();
    const window = windowOf(request.query);
    const result = ctx.repos.search.books({
      userId: user.id,
      // Only books that can be read, as Komga's feed and Folio's OPDS 2 series feed list them: a
      // book whose analysis failed has no pages to stream and would be offered as a bare file.
      condition: { allOf: [{ seriesId: { operator: 'is', value: series.id } }, ...readyBooks] },
      restrictedTo: user,
      sort: [],
      defaultSort: [{ property: 'metadata.numberSort', direction: 'asc' }],
      limit: window.size,
      offset: window.page * window.size,
    });
    const base = `/opds/v1.2/series/${series.id}`;
    return send(request, reply, {
      id: `series-${series.id}`,
      title: meta.title,
      updated: formatDateTime(series.lastModified),
      selfHref: base,
      kind: ACQUISITION,
      links: pagingLinks(base, window, result.total, ACQUISITION),
      entries: bookEntries(user, result.ids),
    });
  });

  /** A paged acquisition feed of books across the caller's libraries (Komga's book feeds). */
  type FeedQuery = Omit<BookQuery, 'userId' | 'restrictedTo' | 'limit' | 'offset'>;
  const bookFeed = (request: FastifyRequest, reply: FastifyReply, window: Window, id: string, title: string, base: string, query: FeedQuery) => {
    const user = caller(request);
    const result = ctx.repos.search.books({ ...query, userId: user.id, restrictedTo: user, limit: window.size, offset: window.page * window.size });
    const entries = result.ids.flatMap((bookId) => withSeriesTitle(user, bookId));
    return send(request, reply, { id, title, updated: now(), selfHref: base, kind: ACQUISITION, links: pagingLinks(base, window, result.total, ACQUISITION), entries });
  };

  // Komga's two reading feeds: books in progress, latest read first; and the next book to read
  // in each series being read (on deck).
  app.get('/opds/v1.2/keep-reading', { schema: { querystring: NamedQuery(['page', 'size']) } }, async (request, reply) =>
    bookFeed(request, reply, windowOf(request.query), 'keepReading', 'Keep Reading', '/opds/v1.2/keep-reading', {
      condition: { allOf: [{ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }, ...readyBooks] },
      sort: [{ property: 'readProgress.readDate', direction: 'desc' }],
    }),
  );

  app.get('/opds/v1.2/ondeck', { schema: { querystring: NamedQuery(['page', 'size']) } }, async (request, reply) =>
    bookFeed(request, reply, windowOf(request.query), 'ondeck', 'On Deck', '/opds/v1.2/ondeck', { onDeck: true, sort: [{ property: 'seriesLastRead', direction: 'desc' }] }),
  );

  app.get('/opds/v1.2/books/latest', { schema: { querystring: NamedQuery(['page', 'size']) } }, async (request, reply) =>
    bookFeed(request, reply, windowOf(request.query), 'latestBooks', 'Latest books', '/opds/v1.2/books/latest', {
      condition: { allOf: readyBooks },
      sort: [{ property: 'createdDate', direction: 'desc' }],
    }),
  );

  /** Entries of one page of named groups (collections, read lists, publishers) leading to their feeds. */
  const groupEntries = (items: { id: string; title: string; updated: number; href: string; kind: string }[], window: Window): Entry[] =>
    sliceOf(items, window).map((item) => ({
      id: item.id,
      title: item.title,
      updated: formatDateTime(item.updated),
      links: [{ rel: 'subsection', href: item.href, type: item.kind }],
    }));
  const byTitle = (a: { title: string }, b: { title: string }) => a.title.localeCompare(b.title, undefined, { sensitivity: 'base' });

  // Collections with at least one series the caller may see, by name.
  app.get('/opds/v1.2/collections', { schema: { querystring: NamedQuery(['page', 'size']) } }, async (request, reply) => {
    const user = caller(request);
    const window = windowOf(request.query);
    const items = ctx.repos.collections
      .findAll()
      .filter((c) => canSeeCollection(ctx.repos, user, isAdmin(user), c.seriesIds))
      .map((c) => ({ id: `collection-${c.id}`, title: c.name, updated: c.lastModified, href: `/opds/v1.2/collections/${c.id}`, kind: NAVIGATION }))
      .sort(byTitle);
    const base = '/opds/v1.2/collections';
    return send(request, reply, { id: 'allCollections', title: 'All collections', updated: now(), selfHref: base, kind: NAVIGATION, links: pagingLinks(base, window, items.length, NAVIGATION), entries: groupEntries(items, window) });
  });

  app.get('/opds/v1.2/collections/:id', { schema: { params: IdParams, querystring: NamedQuery(['page', 'size']) } }, async (request, reply) => {
    const user = caller(request);
    const collection = ctx.repos.collections.findById(request.params.id);
    if (!collection || !canSeeCollection(ctx.repos, user, isAdmin(user), collection.seriesIds)) throw notFound();
    const base = `/opds/v1.2/collections/${collection.id}`;
    const { entries, links } = seriesEntries(user, request.query, base, {
      conditions: [{ collectionId: { operator: 'is', value: collection.id } }],
      order: collection.ordered ? collection.seriesIds : undefined,
    });
    return send(request, reply, { id: `collection-${collection.id}`, title: collection.name, updated: formatDateTime(collection.lastModified), selfHref: base, kind: NAVIGATION, links, entries });
  });

  // Read lists with at least one book the caller may see, by name.
  app.get('/opds/v1.2/readlists', { schema: { querystring: NamedQuery(['page', 'size']) } }, async (request, reply) => {
    const user = caller(request);
    const window = windowOf(request.query);
    const items = ctx.repos.readLists
      .findAll().lists
      .filter((l) => canSeeReadList(ctx.repos, user, isAdmin(user), l.bookIds))
      .map((l) => ({ id: `readlist-${l.id}`, title: l.name, updated: l.lastModified, href: `/opds/v1.2/readlists/${l.id}`, kind: ACQUISITION }))
      .sort(byTitle);
    const base = '/opds/v1.2/readlists';
    return send(request, reply, { id: 'allReadLists', title: 'All read lists', updated: now(), selfHref: base, kind: NAVIGATION, links: pagingLinks(base, window, items.length, NAVIGATION), entries: groupEntries(items, window) });
  });

  // A read list's READY books, in the list's order when it is ordered, else by release date.
  app.get('/opds/v1.2/readlists/:id', { schema: { params: IdParams, querystring: NamedQuery(['page', 'size']) } }, async (request, reply) => {
    const user = caller(request);
    const list = ctx.repos.readLists.findById(request.params.id);
    if (!list || !canSeeReadList(ctx.repos, user, isAdmin(user), list.bookIds)) throw notFound();
    const window = windowOf(request.query);
    const result = ctx.repos.search.books({
      userId: user.id,
      condition: { allOf: [{ readListId: { operator: 'is', value: list.id } }, ...readyBooks] },
      restrictedTo: user,
      sort: list.ordered ? [] : [{ property: 'metadata.releaseDate', direction: 'asc' }],
      limit: null,
      offset: 0,
    });
    const ids = sliceOf(list.ordered ? inOrder(result.ids, list.bookIds) : result.ids, window);
    const base = `/opds/v1.2/readlists/${list.id}`;
    return send(request, reply, {
      id: `readlist-${list.id}`,
      title: list.name,
      updated: formatDateTime(list.lastModified),
      selfHref: base,
      kind: ACQUISITION,
      links: pagingLinks(base, window, result.total, ACQUISITION),
      entries: ids.flatMap((id) => withSeriesTitle(user, id)),
    });
  });

  // Publishers of the series the caller may see, each leading to the series feed filtered by it.
  app.get('/opds/v1.2/publishers', { schema: { querystring: NamedQuery(['page', 'size']) } }, async (request, reply) => {
    const user = caller(request);
    const window = windowOf(request.query);
    const scope = { restrictedTo: user, libraryIds: [], collectionIds: [], seriesIds: [], readListIds: [] };
    const items = [...new Set(ctx.repos.referential.seriesValues('publishers', scope))]
      .map((name) => ({ id: `publisher-${encodeURIComponent(name)}`, title: name, updated: Date.now(), href: `/opds/v1.2/series?publisher=${encodeURIComponent(name)}`, kind: NAVIGATION }))
      .sort(byTitle);
    const base = '/opds/v1.2/publishers';
    return send(request, reply, { id: 'allPublishers', title: 'All publishers', updated: now(), selfHref: base, kind: NAVIGATION, links: pagingLinks(base, window, items.length, NAVIGATION), entries: groupEntries(items, window) });
  });

  app.get('/opds/v1.2/search', async (request, reply) => {
    caller(request);
    // The template is used as it stands by OpenSearch clients: absolute, like the feeds' links.
    const template = `${absolute('/opds/v1.2/series', publicBaseUrl(request))}?search={searchTerms}`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">',
      '<ShortName>Folio</ShortName>',
      '<Description>Search series</Description>',
      '<InputEncoding>UTF-8</InputEncoding>',
      '<OutputEncoding>UTF-8</OutputEncoding>',
      // Komga's type for its search URL (readers that pick a Url by type look for this one).
      `<Url type="${xml(ACQUISITION)}" template="${xml(template)}"/>`,
      '</OpenSearchDescription>',
    ].join('\n');
    return reply.type('application/opensearchdescription+xml').send(body);
  });
}
