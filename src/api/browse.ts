import { authorInAnyRole } from './authorFilter.ts';
import { ApiError, getJson, sendJson, type Query } from './http.ts';
import { pageQuery, type PageRequest } from './paging.ts';
import { getSeriesList } from './series.ts';
import type { BookDto, Page, ReadStatus, SeriesDto, SeriesStatus } from './types.ts';

/**
 * Lists behind the dashboard rows and library browsing (REFERENCE §3.4–3.5, §6.1).
 * `libraryIds` empty or undefined means every library the user can see.
 */

function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405 || error.status === 501);
}

/** Newest series; falls back to the plain list sorted by creation on servers without /series/new. */
export async function getNewSeries(libraryIds: string[] | undefined, paging?: PageRequest): Promise<Page<SeriesDto>> {
  try {
    return await getJson('/api/v1/series/new', 'retrieve_series', {
      query: { library_id: libraryIds, oneshot: false, ...pageQuery(paging) },
    });
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
    return getSeriesList({ libraryId: libraryIds }, { ...paging, sort: ['createdDate,desc'] });
  }
}

export function getUpdatedSeries(libraryIds: string[] | undefined, paging?: PageRequest): Promise<Page<SeriesDto>> {
  return getJson('/api/v1/series/updated', 'retrieve_series', {
    query: { library_id: libraryIds, oneshot: false, ...pageQuery(paging) },
  });
}

export function getOnDeckBooks(libraryIds: string[] | undefined, paging?: PageRequest): Promise<Page<BookDto>> {
  return getJson('/api/v1/books/ondeck', 'retrieve_books', {
    query: { library_id: libraryIds, ...pageQuery(paging) },
  });
}

/** Condition tree of the POST …/list search endpoints (REFERENCE §3.4); kept loose on purpose. */
export type SearchCondition = Record<string, unknown>;

export interface SearchBody {
  condition?: SearchCondition;
  fullTextSearch?: string;
}

export function searchBooks(body: SearchBody, paging?: PageRequest): Promise<Page<BookDto>> {
  return sendJson('POST', '/api/v1/books/list', 'retrieve_books', { json: body, query: pageQuery(paging) });
}

export function searchSeries(body: SearchBody, paging?: PageRequest): Promise<Page<SeriesDto>> {
  return sendJson('POST', '/api/v1/series/list', 'retrieve_series', { json: body, query: pageQuery(paging) });
}

export interface GroupCountDto {
  group: string;
  count: number;
}

export function getSeriesAlphabeticalGroups(body: SearchBody): Promise<GroupCountDto[]> {
  return sendJson('POST', '/api/v1/series/list/alphabetical-groups', 'retrieve_series', { json: body });
}

/** `libraryId is X` for one library, `anyOf` for several, nothing for all. */
export function libraryCondition(libraryIds: string[] | undefined): SearchCondition | undefined {
  if (!libraryIds || libraryIds.length === 0) return undefined;
  const leaves = libraryIds.map((id) => ({ libraryId: { operator: 'is', value: id } }));
  return leaves.length === 1 ? leaves[0] : { anyOf: leaves };
}

export function allOf(...conditions: (SearchCondition | undefined)[]): SearchCondition | undefined {
  const present = conditions.filter((c): c is SearchCondition => !!c);
  if (present.length === 0) return undefined;
  return present.length === 1 ? present[0] : { allOf: present };
}

/**
 * Structured queries used by the screens. They go to the current POST …/list search endpoints and
 * fall back to the older GET filters (REFERENCE §3.4) on servers that lack the POST form.
 */
export interface SeriesQuery {
  libraryIds?: string[];
  readStatus?: ReadStatus[];
  status?: SeriesStatus[];
  /** Series with all their books (book count reached the total book count), or not. */
  complete?: boolean;
  /** First character of the sort title: 'A'–'Z', or '#' for anything else. */
  letter?: string;
  search?: string;
  oneshot?: boolean;
  genre?: string[];
  tag?: string[];
  publisher?: string[];
  language?: string[];
  /** Numbers as strings; anything non-numeric means "no rating". */
  ageRating?: string[];
  releaseYear?: string[];
  /** Author names, any role. */
  author?: string[];
}

export interface BookQuery {
  libraryIds?: string[];
  readStatus?: ReadStatus[];
  /** yyyy-MM-dd */
  releasedAfter?: string;
  search?: string;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

function anyOfValues(field: string, values: readonly string[] | undefined): SearchCondition | undefined {
  if (!values || values.length === 0) return undefined;
  const leaves = values.map((value) => ({ [field]: { operator: 'is', value } }));
  return leaves.length === 1 ? leaves[0] : { anyOf: leaves };
}

function letterCondition(letter: string | undefined): SearchCondition | undefined {
  if (!letter) return undefined;
  if (letter === '#') {
    return { allOf: LETTERS.map((l) => ({ titleSort: { operator: 'doesNotBeginWith', value: l } })) };
  }
  return { titleSort: { operator: 'beginsWith', value: letter } };
}

function ageRatingCondition(values: readonly string[] | undefined): SearchCondition | undefined {
  if (!values || values.length === 0) return undefined;
  const leaves = values.map((value) =>
    /^\d+$/.test(value)
      ? { ageRating: { operator: 'is', value: Number(value) } }
      : { ageRating: { operator: 'isNull' } },
  );
  return leaves.length === 1 ? leaves[0] : { anyOf: leaves };
}

/** A release year is the span between the end of the previous year and the start of the next. */
function releaseYearCondition(years: readonly string[] | undefined): SearchCondition | undefined {
  if (!years || years.length === 0) return undefined;
  const leaves = years
    .filter((y) => /^\d{4}$/.test(y))
    .map((y) => ({
      allOf: [
        { releaseDate: { operator: 'after', dateTime: `${Number(y) - 1}-12-31T23:59:59Z` } },
        { releaseDate: { operator: 'before', dateTime: `${Number(y) + 1}-01-01T00:00:00Z` } },
      ],
    }));
  if (leaves.length === 0) return undefined;
  return leaves.length === 1 ? leaves[0] : { anyOf: leaves };
}

function authorCondition(names: readonly string[] | undefined): SearchCondition | undefined {
  if (!names || names.length === 0) return undefined;
  const leaves = names.map((name) => ({ author: { operator: 'is', value: { name } } }));
  return leaves.length === 1 ? leaves[0] : { anyOf: leaves };
}

export function seriesSearchBody(query: SeriesQuery): SearchBody {
  const condition = allOf(
    libraryCondition(query.libraryIds),
    anyOfValues('readStatus', query.readStatus),
    anyOfValues('seriesStatus', query.status),
    query.complete === undefined ? undefined : { complete: { operator: query.complete ? 'isTrue' : 'isFalse' } },
    anyOfValues('genre', query.genre),
    anyOfValues('tag', query.tag),
    anyOfValues('publisher', query.publisher),
    anyOfValues('language', query.language),
    ageRatingCondition(query.ageRating),
    releaseYearCondition(query.releaseYear),
    authorCondition(query.author),
    letterCondition(query.letter),
    query.oneshot === undefined ? undefined : { oneShot: { operator: query.oneshot ? 'isTrue' : 'isFalse' } },
  );
  return { condition, fullTextSearch: query.search || undefined };
}

export function bookSearchBody(query: BookQuery): SearchBody {
  const condition = allOf(
    libraryCondition(query.libraryIds),
    anyOfValues('readStatus', query.readStatus),
    query.releasedAfter
      ? { releaseDate: { operator: 'after', dateTime: `${query.releasedAfter}T00:00:00Z` } }
      : undefined,
  );
  return { condition, fullTextSearch: query.search || undefined };
}

/** Remembered per page load: once a server has shown it lacks the POST search, go straight to GET. */
const postSearchMissing = { series: false, books: false, groups: false };

function letterRegex(letter: string | undefined): string | undefined {
  if (!letter) return undefined;
  return letter === '#' ? '^[^A-Za-z],TITLE_SORT' : `^${letter},TITLE_SORT`;
}

export async function browseSeries(query: SeriesQuery, paging?: PageRequest): Promise<Page<SeriesDto>> {
  if (!postSearchMissing.series) {
    try {
      return await searchSeries(seriesSearchBody(query), paging);
    } catch (error) {
      if (!isMissingEndpoint(error)) throw error;
      postSearchMissing.series = true;
    }
  }
  return getJson('/api/v1/series', 'retrieve_series', {
    query: { ...seriesFilterParams(query), search_regex: letterRegex(query.letter), ...pageQuery(paging) },
  });
}

/**
 * A series query as the older GET filters (REFERENCE §3.4), also those of a collection's series
 * (`GET /collections/{id}/series`). An author is asked for in any role (authorFilter.ts).
 */
export function seriesFilterParams(query: Omit<SeriesQuery, 'letter'>): Query {
  return {
    library_id: query.libraryIds,
    read_status: query.readStatus,
    status: query.status,
    complete: query.complete,
    search: query.search,
    oneshot: query.oneshot,
    genre: query.genre,
    tag: query.tag,
    publisher: query.publisher,
    language: query.language,
    age_rating: query.ageRating,
    release_year: query.releaseYear,
    author: authorInAnyRole(query.author),
  };
}

export async function browseBooks(query: BookQuery, paging?: PageRequest): Promise<Page<BookDto>> {
  if (!postSearchMissing.books) {
    try {
      return await searchBooks(bookSearchBody(query), paging);
    } catch (error) {
      if (!isMissingEndpoint(error)) throw error;
      postSearchMissing.books = true;
    }
  }
  return getJson('/api/v1/books', 'retrieve_books', {
    query: {
      library_id: query.libraryIds,
      read_status: query.readStatus,
      released_after: query.releasedAfter,
      search: query.search,
      ...pageQuery(paging),
    },
  });
}

/** Series counts per first letter, or null when the server offers no such grouping. */
export async function browseSeriesLetterGroups(query: Omit<SeriesQuery, 'letter'>): Promise<GroupCountDto[] | null> {
  try {
    if (!postSearchMissing.groups) {
      try {
        return await getSeriesAlphabeticalGroups(seriesSearchBody(query));
      } catch (error) {
        if (!isMissingEndpoint(error)) throw error;
        postSearchMissing.groups = true;
      }
    }
    return await getJson<GroupCountDto[]>('/api/v1/series/alphabetical-groups', 'retrieve_series', {
      query: seriesFilterParams(query),
    });
  } catch (error) {
    if (isMissingEndpoint(error)) return null;
    throw error;
  }
}
