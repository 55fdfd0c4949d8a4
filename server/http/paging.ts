import type { Page, SortObject } from '../../src/api/types.ts';
import type { SortOrder } from '../db/search/sort.ts';
import { type RawQuery, booleanParam, stringParam } from './query-params.ts';

export interface Paging {
  page: number;
  size: number;
  unpaged: boolean;
  sort: SortOrder[];
}

const DEFAULT_SIZE = 20;
export const MAX_SIZE = 2000;

/** The paging parameters as query text (NamedQuery(PAGING_PARAMS) in schemas.ts), or as values a caller built. */
type PagingInput = RawQuery | { page?: number; size?: number; unpaged?: boolean; sort?: string[] };

/** Spring's paging params: 0-based `page`, `size` (default 20, capped 2000), `sort`, `unpaged`. */
export function parsePaging(query: PagingInput): Paging {
  const raw = query as RawQuery;
  const text = (name: string) => {
    const value = (query as Record<string, unknown>)[name];
    return typeof value === 'number' || typeof value === 'boolean' ? String(value) : stringParam(raw, name);
  };
  const page = springInt(text('page')) ?? 0;
  return {
    page: Math.max(0, page),
    size: pageSizeParam(text('size'), DEFAULT_SIZE),
    unpaged: (query as { unpaged?: unknown }).unpaged === true || booleanParam({ unpaged: text('unpaged') }, 'unpaged') === true,
    sort: parseSort(raw.sort),
  };
}

/** A `size` as Spring reads it: a whole number from 1, capped at 2000; anything else is `fallback`. */
export function pageSizeParam(text: string | undefined, fallback: number): number {
  const size = springInt(text);
  return size === undefined || size < 1 ? fallback : Math.min(size, MAX_SIZE);
}

const INT_MAX = 2 ** 31 - 1;
const INT_MIN = -(2 ** 31);

/**
 * A paging number as Spring reads it (Java's Integer.parseInt): a whole number in 32 bits, else
 * undefined and the default applies. "1.5", "abc" and 99999999999999999999 are not refused, they
 * are ignored; an unbounded page once reached SQLite as a float OFFSET and failed the request.
 */
function springInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= INT_MIN && value <= INT_MAX ? value : undefined;
}

/**
 * `sort=a,b,desc&sort=c`: the trailing direction applies to every property before it in the
 * same parameter; default ascending. Spring also takes a last `ignorecase` after the direction
 * (`sort=name,desc,ignorecase`); it is read past, so the direction before it still counts.
 */
export function parseSort(raw: string | string[] | undefined): SortOrder[] {
  const params = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const out: SortOrder[] = [];
  for (const param of params) {
    const parts = param.split(',').map((p) => p.trim()).filter(Boolean);
    if (parts.length > 1 && parts.at(-1)!.toLowerCase() === 'ignorecase') parts.pop();
    let direction: 'asc' | 'desc' = 'asc';
    const last = parts.at(-1)?.toLowerCase();
    if (last === 'asc' || last === 'desc') {
      direction = last;
      parts.pop();
    }
    for (const property of parts) out.push({ property, direction });
  }
  return out;
}

/** Wraps one page of results in Spring's Page<T> shape. */
export function toPage<T>(content: T[], total: number, paging: Paging, sorted: boolean): Page<T> {
  const sort: SortObject = { sorted, unsorted: !sorted, empty: !sorted };
  const size = paging.unpaged ? Math.max(total, DEFAULT_SIZE) : paging.size;
  const number = paging.unpaged ? 0 : paging.page;
  const totalPages = size === 0 ? 1 : Math.ceil(total / size);
  return {
    content,
    pageable: {
      pageNumber: number,
      pageSize: size,
      offset: number * size,
      // Komga answers unpaged requests with a real page request of the whole result.
      paged: true,
      unpaged: false,
      sort,
    },
    totalElements: total,
    totalPages,
    number,
    size,
    numberOfElements: content.length,
    first: number === 0,
    last: number + 1 >= totalPages,
    empty: content.length === 0,
    sort,
  };
}
