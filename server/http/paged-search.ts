import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BookDto, Page, SeriesDto } from '../../src/api/types.ts';
import type { FolioContext } from '../domain/context.ts';
import type { BookQuery } from '../db/search/book-search.ts';
import { SearchConditionError } from '../db/search/conditions.ts';
import type { SeriesQuery } from '../db/search/series-search.ts';
import type { SortOrder } from '../db/search/sort.ts';
import { toBookDto } from './dto/book-dto.ts';
import { toSeriesDto } from './dto/series-dto.ts';
import { badRequest } from './errors.ts';
import { caller, callerIsAdmin } from './guards.ts';
import type { Paging } from './paging.ts';
import { chunkedPage } from './chunked-page.ts';

/** A condition the caller wrote wrongly is their mistake (400), anything else is ours. */
export function rethrowSearchError(error: unknown): never {
  if (error instanceof SearchConditionError) throw badRequest(error.message);
  throw error;
}

/** The result of a search, a malformed one (too long, too deep) answered with 400. */
export function searchOrRefuse<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    return rethrowSearchError(error);
  }
}

type PageQuery<Q> = Omit<Q, 'userId' | 'limit' | 'offset' | 'sort'> & { sort?: SortOrder[] };

/**
 * One page of books for the caller: their content restrictions always apply, DTOs carry their
 * read progress, and the Spring `Page` wrapper says whether a sort was applied.
 */
export function bookPage(ctx: FolioContext, request: FastifyRequest, reply: FastifyReply, paging: Paging, query: PageQuery<BookQuery>): Page<BookDto> | Readable {
  const user = caller(request);
  try {
    const result = ctx.repos.search.books({
      ...query,
      userId: user.id,
      sort: query.sort ?? paging.sort,
      restrictedTo: user,
      limit: paging.unpaged ? null : paging.size,
      offset: paging.page * paging.size,
    });
    const admin = callerIsAdmin(request);
    return chunkedPage(reply, result.ids, (id) => toBookDto(ctx, id, user.id, admin), result.total, paging, result.sorted);
  } catch (error) {
    rethrowSearchError(error);
  }
}

/** One page of series for the caller, as `bookPage`. */
export function seriesPage(ctx: FolioContext, request: FastifyRequest, reply: FastifyReply, paging: Paging, query: PageQuery<SeriesQuery>): Page<SeriesDto> | Readable {
  const user = caller(request);
  try {
    const result = ctx.repos.search.series({
      ...query,
      userId: user.id,
      sort: query.sort ?? paging.sort,
      restrictedTo: user,
      limit: paging.unpaged ? null : paging.size,
      offset: paging.page * paging.size,
    });
    const admin = callerIsAdmin(request);
    return chunkedPage(reply, result.ids, (id) => toSeriesDto(ctx, id, user, admin), result.total, paging, result.sorted);
  } catch (error) {
    rethrowSearchError(error);
  }
}
