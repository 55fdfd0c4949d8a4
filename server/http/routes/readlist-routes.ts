import type { FastifyInstance } from 'fastify';
import { newId } from '../../db/ids.ts';
import type { ReadList } from '../../db/readlist-repository.ts';
import type { Condition } from '../../db/search/conditions.ts';
import type { User } from '../../db/user-repository.ts';
import { canSeeBook, canSeeReadList } from '../../domain/content-restrictions.ts';
import { isAdmin } from '../dto/user-dto.ts';
import type { FolioContext } from '../../domain/context.ts';
import { bookMosaic } from '../../domain/posters/mosaic.ts';
import { posterFilesOf, removePosterFiles } from '../../domain/posters/poster-cleanup.ts';
import { selectedPosterFile } from '../../domain/posters/chosen-poster.ts';
import { sendPoster } from '../send-file.ts';
import { badRequest, namedFew, notFound } from '../errors.ts';
import { caller, callerIsAdmin, requireRole } from '../guards.ts';
import { bookConditionFromQuery } from '../legacy-filters.ts';
import { parsePaging, toPage } from '../paging.ts';
import { chunkedPage } from '../chunked-page.ts';
import { inListOrder } from '../../domain/list-order.ts';
import { listParam, stringParam } from '../query-params.ts';
import { toBookDto } from '../dto/book-dto.ts';
import { toReadListDto } from '../dto/collection-dto.ts';
import { rethrowSearchError, searchOrRefuse } from '../paged-search.ts';
import { Batch, type FolioApp, IdParams, ListQuery, LongText, Nullable, Type, withMessage } from '../schemas.ts';
import { workFor } from '../work-caller.ts';

const Name = withMessage(Type.String({ pattern: '\\S' }), 'must not be blank');
const BookIds = withMessage(Batch(Type.String(), { minItems: 1, uniqueItems: true }), 'must be a non-empty list of distinct ids');

/**
 * ReadListCreationDto: name and bookIds required; summary defaults to "", ordered to true. Both are
 * Kotlin non-null fields with a default, used only when absent: a null summary is refused, a null
 * ordered (a JVM boolean) reads as false.
 */
const ReadListCreation = Type.Object({
  name: Name,
  summary: Type.Optional(LongText()),
  ordered: Type.Optional(Type.Boolean()),
  bookIds: BookIds,
});
/** ReadListUpdateDto: absent or null keeps a field. */
const ReadListUpdate = Type.Object({
  name: Type.Optional(Nullable(Name)),
  summary: Type.Optional(Nullable(LongText())),
  ordered: Type.Optional(Nullable(Type.Boolean())),
  bookIds: Type.Optional(Nullable(BookIds)),
});

/** Read lists (REFERENCE §2.6): books across series in reading order. Writes need ADMIN. */
export function registerReadListRoutes(app: FolioApp, ctx: FolioContext): void {
  const visibleTo = (user: User) => (bookId: string) => canSeeBook(ctx.repos, user, bookId);

  const listForCaller = (id: string, user: User): ReadList => {
    const list = ctx.repos.readLists.findById(id);
    if (!list || !canSeeReadList(ctx.repos, user, isAdmin(user), list.bookIds)) throw notFound();
    return list;
  };

  const checkBooksExist = (ids: string[]) => {
    const missing = ids.filter((id) => !ctx.repos.books.findById(id));
    if (missing.length) throw badRequest(`Unknown books: ${namedFew(missing)}`);
  };

  const emit = (name: 'ReadListAdded' | 'ReadListChanged' | 'ReadListDeleted', l: ReadList) =>
    ctx.events.emit({ name, data: { readListId: l.id, bookIds: l.bookIds } });

  /** Visible member ids matching the old-style book filters, in list order (or release date when unordered). */
  const memberIds = (list: ReadList, user: User, filter: Condition): string[] => {
    try {
      const { ids } = ctx.repos.search.books({
        userId: user.id,
        condition: { allOf: [{ readListId: { operator: 'is', value: list.id } }, filter] },
        restrictedTo: user,
        sort: [],
        defaultSort: [
          { property: 'metadata.releaseDate', direction: 'asc' },
          { property: 'metadata.numberSort', direction: 'asc' },
        ],
        limit: null,
        offset: 0,
      });
      return list.ordered ? inListOrder(ids, list.bookIds) : ids;
    } catch (error) {
      return rethrowSearchError(error);
    }
  };

  app.get('/api/v1/readlists', { schema: { querystring: ListQuery } }, async (request) => {
    const user = caller(request);
    const paging = parsePaging(request.query);
    const libraries = listParam(request.query, 'library_id');
    const visible = visibleTo(user);
    const admin = isAdmin(user);
    const { lists, sorted } = searchOrRefuse(() => ctx.repos.readLists.findAll(stringParam(request.query, 'search'), paging.sort));
    const all = lists.filter((l) => {
      if (!canSeeReadList(ctx.repos, user, admin, l.bookIds)) return false;
      return libraries.length === 0 || l.bookIds.filter(visible).some((id) => libraries.includes(ctx.repos.books.findById(id)?.libraryId ?? ''));
    });
    const slice = paging.unpaged ? all : all.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
    return toPage(slice.map((l) => toReadListDto(l, visible)), all.length, paging, sorted);
  });

  app.get('/api/v1/readlists/:id', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    return toReadListDto(listForCaller(request.params.id, user), visibleTo(user));
  });

  app.get('/api/v1/books/:id/readlists', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    if (!canSeeBook(ctx.repos, user, request.params.id)) throw notFound();
    return ctx.repos.readLists.findByBook(request.params.id).map((l) => toReadListDto(l, visibleTo(user)));
  });

  app.post('/api/v1/readlists', { config: { role: 'ADMIN' }, schema: { body: ReadListCreation } }, async (request) => {
    const body = request.body;
    const name = body.name.trim();
    if (ctx.repos.readLists.findByName(name)) throw badRequest('A read list with this name already exists');
    checkBooksExist(body.bookIds);
    const now = Date.now();
    const list: ReadList = {
      id: newId(now),
      name,
      summary: body.summary ?? '',
      ordered: body.ordered ?? true,
      bookIds: body.bookIds,
      created: now,
      lastModified: now,
    };
    ctx.repos.readLists.save(list);
    emit('ReadListAdded', list);
    return toReadListDto(list, () => true);
  });

  app.patch('/api/v1/readlists/:id', { config: { role: 'ADMIN' }, schema: { params: IdParams, body: ReadListUpdate } }, async (request, reply) => {
    const existing = ctx.repos.readLists.findById(request.params.id);
    if (!existing) throw notFound();
    const { name, summary, ordered, bookIds } = request.body;
    const body = {
      ...(name ? { name: name.trim() } : {}),
      ...(typeof summary === 'string' ? { summary } : {}),
      ...(typeof ordered === 'boolean' ? { ordered } : {}),
      ...(bookIds ? { bookIds } : {}),
    };
    if (body.name && body.name.toLowerCase() !== existing.name.toLowerCase() && ctx.repos.readLists.findByName(body.name)) {
      throw badRequest('A read list with this name already exists');
    }
    if (body.bookIds) checkBooksExist(body.bookIds);
    const next: ReadList = { ...existing, ...body, lastModified: Date.now() };
    ctx.repos.readLists.save(next);
    emit('ReadListChanged', next);
    return reply.code(204).send();
  });

  app.delete('/api/v1/readlists/:id', { schema: { params: IdParams } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const existing = ctx.repos.readLists.findById(request.params.id);
    if (!existing) throw notFound();
    const posters = posterFilesOf(ctx, { readListId: existing.id });
    ctx.repos.readLists.delete(existing.id);
    await removePosterFiles(ctx, posters);
    emit('ReadListDeleted', existing);
    return reply.code(204).send();
  });

  app.get('/api/v1/readlists/:id/books', { schema: { params: IdParams, querystring: ListQuery } }, async (request, reply) => {
    const user = caller(request);
    // The query is read before the list is looked up: a filter that does not convert is a 400 first, as in Komga.
    const paging = parsePaging(request.query);
    const filter = bookConditionFromQuery(request.query);
    const list = listForCaller(request.params.id, user);
    const ids = memberIds(list, user, filter);
    const slice = paging.unpaged ? ids : ids.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
    const admin = callerIsAdmin(request);
    // Always in the list's order (or by release date when unordered), as Komga sorts it.
    return chunkedPage(reply, slice, (id) => toBookDto(ctx, id, user.id, admin), ids.length, paging, true);
  });

  const sibling = (step: 1 | -1) => async (request: import('fastify').FastifyRequest<{ Params: { id: string; bookId: string } }>) => {
    const user = caller(request);
    const list = listForCaller(request.params.id, user);
    const ids = memberIds(list, user, bookConditionFromQuery({}));
    const index = ids.indexOf(request.params.bookId);
    const target = index < 0 ? undefined : ids[index + step];
    if (!target) throw notFound();
    return toBookDto(ctx, target, user.id, callerIsAdmin(request));
  };
  app.get('/api/v1/readlists/:id/books/:bookId/next', { schema: { params: Type.Object({ id: Type.String(), bookId: Type.String() }) } }, sibling(1));
  app.get('/api/v1/readlists/:id/books/:bookId/previous', { schema: { params: Type.Object({ id: Type.String(), bookId: Type.String() }) } }, sibling(-1));

  app.get('/api/v1/readlists/:id/thumbnail', { schema: { params: IdParams } }, async (request, reply) => {
    const user = caller(request);
    const list = listForCaller(request.params.id, user);
    const own = await selectedPosterFile(ctx, 'readlists', list.id);
    if (own) return sendPoster(reply, own);
    // Drawn from the books this viewer may see, so it differs between accounts: not cached for an
    // hour as Komga does (a child signing in after a parent on one browser would be shown the
    // parent's, covers of hidden books included) but revalidated like every API answer (ETag).
    return reply.type('image/jpeg').send(await bookMosaic(ctx, list.bookIds.filter(visibleTo(user)), workFor(request)));
  });
}
