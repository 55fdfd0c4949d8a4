import type { FastifyInstance, FastifyReply } from 'fastify';
import type { User } from '../../db/user-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { notFound } from '../errors.ts';
import { formatDateTime } from '../format.ts';
import { canAccessLibrary, caller } from '../guards.ts';
import { ACQUISITION, type Entry, type Link, NAVIGATION, feed, xml } from '../opds/atom.ts';
import { type RawQuery, stringParam } from '../query-params.ts';
import { parsePaging } from '../paging.ts';
import { type FolioApp, IdParams, NamedQuery } from '../schemas.ts';

const PAGE_SIZE = 50;
const BROWSER_SAFE = new Set(['image/jpeg', 'image/png']);

/**
 * OPDS 1.2 catalog for e-reader apps: navigation (libraries, series, keep reading), acquisition
 * feeds of books with download, poster and OPDS-PSE page-streaming links, OpenSearch. Same
 * authentication and content restrictions as the API.
 */
export function registerOpdsRoutes(app: FolioApp, ctx: FolioContext): void {
  const now = () => formatDateTime(Date.now());
  const send = (reply: FastifyReply, kind: string, body: string) => reply.type(kind).send(body);
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
  const seriesEntries = (user: User, libraryId: string | undefined, query: RawQuery, base: string) => {
    const page = pageOf(query);
    const notDeleted = { deleted: { operator: 'isFalse' } };
    const result = ctx.repos.search.series({
      userId: user.id,
      fullTextSearch: stringParam(query, 'search'),
      condition: libraryId ? { allOf: [notDeleted, { libraryId: { operator: 'is', value: libraryId } }] } : notDeleted,
      restrictedTo: user,
      sort: [],
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

  const bookEntry = (bookId: string): Entry[] => {
    const book = ctx.repos.books.findById(bookId);
    const meta = ctx.repos.bookMetadata.findByBookId(bookId);
    const media = ctx.repos.media.findByBookId(bookId);
    if (!book || !meta || !media) return [];
    const links: Link[] = [
      { rel: 'http://opds-spec.org/image', href: `/api/v1/books/${bookId}/thumbnail`, type: 'image/jpeg' },
      { rel: 'http://opds-spec.org/image/thumbnail', href: `/api/v1/books/${bookId}/thumbnail`, type: 'image/jpeg' },
      { rel: 'http://opds-spec.org/acquisition', href: `/api/v1/books/${bookId}/file`, type: media.mediaType ?? 'application/octet-stream' },
    ];
    if (media.status === 'READY' && media.pageCount > 0) {
      const convert = ctx.repos.media.findPages(bookId).some((p) => !BROWSER_SAFE.has(p.mediaType));
      links.push({
        rel: 'http://vaemendis.net/opds-pse/stream',
        // PSE readers substitute {pageNumber} (0-based with zero_based=true).
        href: `/api/v1/books/${bookId}/pages/{pageNumber}?zero_based=true${convert ? '&convert=jpeg' : ''}`,
        type: 'image/jpeg',
        attributes: { 'pse:count': media.pageCount },
      });
    }
    return [
      {
        id: `book-${bookId}`,
        title: meta.title,
        updated: formatDateTime(book.lastModified),
        content: meta.summary,
        authors: meta.authors.map((a) => a.name),
        issued: meta.releaseDate,
        links,
      },
    ];
  };

  app.get('/opds/v1.2/catalog', async (request, reply) => {
    caller(request);
    const nav = (id: string, title: string, href: string, kind = NAVIGATION): Entry => ({
      id,
      title,
      updated: now(),
      links: [{ rel: 'subsection', href, type: kind }],
    });
    return send(
      reply,
      NAVIGATION,
      feed({
        id: 'root',
        title: 'Folio',
        updated: now(),
        selfHref: '/opds/v1.2/catalog',
        kind: NAVIGATION,
        entries: [
          nav('ondeck', 'Keep Reading', '/opds/v1.2/ondeck', ACQUISITION),
          nav('libraries', 'All libraries', '/opds/v1.2/libraries'),
          nav('series', 'All series', '/opds/v1.2/series'),
        ],
      }),
    );
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
    return send(reply, NAVIGATION, feed({ id: 'libraries', title: 'All libraries', updated: now(), selfHref: '/opds/v1.2/libraries', kind: NAVIGATION, entries }));
  });

  app.get('/opds/v1.2/libraries/:id', { schema: { params: IdParams, querystring: NamedQuery(['page', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const library = ctx.repos.libraries.findById(request.params.id);
    if (!library || !canAccessLibrary(user, library.id)) throw notFound();
    const base = `/opds/v1.2/libraries/${library.id}`;
    const { entries, links } = seriesEntries(user, library.id, request.query, base);
    return send(reply, NAVIGATION, feed({ id: `library-${library.id}`, title: library.name, updated: now(), selfHref: base, kind: NAVIGATION, links, entries }));
  });

  app.get('/opds/v1.2/series', { schema: { querystring: NamedQuery(['page', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const search = stringParam(request.query, 'search');
    const base = search ? `/opds/v1.2/series?search=${encodeURIComponent(search)}` : '/opds/v1.2/series';
    const { entries, links } = seriesEntries(user, undefined, request.query, base);
    return send(reply, NAVIGATION, feed({ id: 'series', title: search ? `Search: ${search}` : 'All series', updated: now(), selfHref: base, kind: NAVIGATION, links, entries }));
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
    return send(
      reply,
      ACQUISITION,
      feed({
        id: `series-${series.id}`,
        title: meta.title,
        updated: formatDateTime(series.lastModified),
        selfHref: base,
        kind: ACQUISITION,
        links: pagingLinks(base, page, result.total, ACQUISITION),
        entries: result.ids.flatMap(bookEntry),
      }),
    );
  });

  app.get('/opds/v1.2/ondeck', { schema: { querystring: NamedQuery(['page', 'search']) } }, async (request, reply) => {
    const user = caller(request);
    const result = ctx.repos.search.books({
      userId: user.id,
      onDeck: true,
      restrictedTo: user,
      sort: [{ property: 'seriesLastRead', direction: 'desc' }],
      limit: PAGE_SIZE,
      offset: 0,
    });
    return send(reply, ACQUISITION, feed({ id: 'ondeck', title: 'Keep Reading', updated: now(), selfHref: '/opds/v1.2/ondeck', kind: ACQUISITION, entries: result.ids.flatMap(bookEntry) }));
  });

  app.get('/opds/v1.2/search', async (request, reply) => {
    caller(request);
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">',
      '<ShortName>Folio</ShortName>',
      '<Description>Search series</Description>',
      `<Url type="${xml(NAVIGATION)}" template="/opds/v1.2/series?search={searchTerms}"/>`,
      '</OpenSearchDescription>',
    ].join('\n');
    return reply.type('application/opensearchdescription+xml').send(body);
  });
}
