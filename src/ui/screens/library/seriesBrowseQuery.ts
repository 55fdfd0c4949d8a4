import { READ_STATUSES_FOR_FILTER, SERIES_STATUS_VALUES } from './filterValues.ts';
import type { ReadStatus, SeriesStatus } from '../../../api/types.ts';

/** Series sort keys the browse screen offers (REFERENCE §3.3); the first is the default. */
export const SERIES_SORT_KEYS = [
  'metadata.titleSort',
  'createdDate',
  'lastModifiedDate',
  'readDate',
  'booksMetadata.releaseDate',
  'name',
  'booksCount',
  'random',
] as const;
export type SeriesSortKey = (typeof SERIES_SORT_KEYS)[number];

/** Filters whose values come from the server, with the query parameter each one uses. */
export const VALUE_FILTERS = {
  genre: 'genre',
  tag: 'tag',
  publisher: 'publisher',
  language: 'language',
  ageRating: 'age_rating',
  releaseYear: 'release_year',
  author: 'author',
  /** Offered on "All libraries", and in collections and read lists (which may span libraries). */
  library: 'library_id',
} as const;
export type ValueFilter = keyof typeof VALUE_FILTERS;

/** The filter groups of a series list, in the panel's order (the library filter comes on "all"). */
export const SERIES_FILTERS = [
  'readStatus',
  'complete',
  'status',
  'genre',
  'tag',
  'publisher',
  'language',
  'ageRating',
  'releaseYear',
  'author',
] as const;

export interface SeriesBrowseState {
  sortKey: SeriesSortKey;
  descending: boolean;
  readStatus: ReadStatus[];
  /** Series whose book count reached their total book count (true), or not yet (false). */
  complete: boolean | undefined;
  status: SeriesStatus[];
  letter: string | undefined;
  values: Record<ValueFilter, string[]>;
}

const FILTER_NAMES = Object.keys(VALUE_FILTERS) as ValueFilter[];

/** Everything about the browse view lives in the URL so it can be bookmarked and shared. */
export function parseSeriesBrowse(params: URLSearchParams): SeriesBrowseState {
  const [rawKey, rawDirection] = (params.get('sort') ?? '').split(',');
  const sortKey = SERIES_SORT_KEYS.includes(rawKey as SeriesSortKey) ? (rawKey as SeriesSortKey) : 'metadata.titleSort';
  const letter = params.get('letter') ?? undefined;
  const values = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.getAll(VALUE_FILTERS[name])])) as Record<
    ValueFilter,
    string[]
  >;
  return {
    sortKey,
    descending: rawDirection === 'desc',
    readStatus: params.getAll('read_status').filter((v): v is ReadStatus => READ_STATUSES_FOR_FILTER.includes(v as ReadStatus)),
    complete: params.get('complete') === 'true' ? true : params.get('complete') === 'false' ? false : undefined,
    status: params.getAll('status').filter((v): v is SeriesStatus => SERIES_STATUS_VALUES.includes(v as SeriesStatus)),
    letter: letter && /^([A-Z]|#)$/.test(letter) ? letter : undefined,
    values,
  };
}

/** Writes the state back, dropping defaults so plain URLs stay plain; any change returns to page 1. */
export function writeSeriesBrowse(previous: URLSearchParams, state: SeriesBrowseState): URLSearchParams {
  const next = new URLSearchParams(previous);
  for (const key of ['sort', 'read_status', 'complete', 'status', 'letter', 'page', ...Object.values(VALUE_FILTERS)]) next.delete(key);
  if (state.sortKey !== 'metadata.titleSort' || state.descending) {
    next.set('sort', `${state.sortKey},${state.descending ? 'desc' : 'asc'}`);
  }
  for (const value of state.readStatus) next.append('read_status', value);
  if (state.complete !== undefined) next.set('complete', String(state.complete));
  for (const value of state.status) next.append('status', value);
  for (const name of FILTER_NAMES) for (const value of state.values[name]) next.append(VALUE_FILTERS[name], value);
  if (state.letter) next.set('letter', state.letter);
  return next;
}

export function sortParameter(state: SeriesBrowseState): string[] {
  return [`${state.sortKey},${state.descending ? 'desc' : 'asc'}`];
}

export function hasValueFilter(state: SeriesBrowseState): boolean {
  return FILTER_NAMES.some((name) => state.values[name].length > 0);
}

export function hasActiveFilter(state: SeriesBrowseState): boolean {
  return (
    state.readStatus.length > 0 || state.complete !== undefined || state.status.length > 0 || !!state.letter || hasValueFilter(state)
  );
}

export function emptyValueFilters(): Record<ValueFilter, string[]> {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, []])) as unknown as Record<ValueFilter, string[]>;
}
