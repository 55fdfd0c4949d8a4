import type { Condition } from '../db/search/conditions.ts';
import { MEDIA_STATUSES, SERIES_STATUSES } from '../db/stored-values.ts';
import { type RawQuery, booleanParam, enumListParam, listParam, stringParam } from './query-params.ts';
import { badRequest } from './errors.ts';

const READ_STATUSES = ['UNREAD', 'IN_PROGRESS', 'READ'] as const;

/**
 * The deprecated GET list filters (snake_case query params, REFERENCE §3.4) expressed in the
 * POST search grammar, so both styles run through one query compiler: values of one parameter
 * are OR-ed, different parameters AND-ed.
 */
function anyOf(field: string, values: string[]): Condition | undefined {
  if (values.length === 0) return undefined;
  return { anyOf: values.map((value) => ({ [field]: { operator: 'is', value } })) };
}

function flag(field: string, value: boolean | undefined): Condition | undefined {
  if (value === undefined) return undefined;
  return { [field]: { operator: value ? 'isTrue' : 'isFalse' } };
}

function allOf(parts: (Condition | undefined)[]): Condition {
  return { allOf: parts.filter((p): p is Condition => p !== undefined) };
}

/** Values of a parameter without splitting at commas (an author is `name,role`). */
function rawValues(query: RawQuery, name: string): string[] {
  return [query[name], query[`${name}[]`]].flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])).filter(Boolean);
}

/** `author=<name>,<role>`: split at the last comma; either part may be empty. */
function authors(query: RawQuery): Condition | undefined {
  const values = rawValues(query, 'author');
  if (values.length === 0) return undefined;
  return {
    anyOf: values.map((v) => {
      const comma = v.lastIndexOf(',');
      const name = (comma < 0 ? v : v.slice(0, comma)).trim();
      const role = comma < 0 ? '' : v.slice(comma + 1).trim();
      return { author: { operator: 'is', value: { ...(name ? { name } : {}), ...(role ? { role } : {}) } } };
    }),
  };
}

/** `age_rating`: numbers, or any non-number meaning "no rating". */
function ageRatings(query: RawQuery): Condition | undefined {
  const values = listParam(query, 'age_rating');
  if (values.length === 0) return undefined;
  return {
    anyOf: values.map((v) =>
      /^\d+$/.test(v) ? { ageRating: { operator: 'is', value: Number(v) } } : { ageRating: { operator: 'isNull' } },
    ),
  };
}

/** `release_year`: the series' first release date falls in one of the years. */
function releaseYears(query: RawQuery): Condition | undefined {
  const years = listParam(query, 'release_year').filter((y) => /^\d{1,4}$/.test(y)).map(Number);
  if (years.length === 0) return undefined;
  const pad = (y: number) => String(y).padStart(4, '0');
  return {
    anyOf: years.map((y) => ({
      allOf: [
        { releaseDate: { operator: 'after', dateTime: `${pad(y - 1)}-12-31T12:00:00Z` } },
        { releaseDate: { operator: 'before', dateTime: `${pad(y + 1)}-01-01T12:00:00Z` } },
      ],
    })),
  };
}

/**
 * `search_regex=<regex>,<TITLE|TITLE_SORT>` (series only), split at the last comma. As Komga's
 * DelimitedPair resolver reads it, a value without a comma or naming another field (in any case,
 * but not padded) filters nothing, rather than searching the title.
 */
function searchRegex(query: RawQuery): Condition | undefined {
  const raw = rawValues(query, 'search_regex')[0];
  if (!raw?.trim()) return undefined;
  const comma = raw.lastIndexOf(',');
  if (comma < 0) return undefined;
  const field = REGEX_FIELDS[raw.slice(comma + 1).toLowerCase()];
  return field ? { [field]: { operator: 'is', value: raw.slice(0, comma) } } : undefined;
}
const REGEX_FIELDS: Record<string, 'titleRegex' | 'titleSortRegex'> = { title: 'titleRegex', title_sort: 'titleSortRegex' };

/**
 * `released_after=yyyy-MM-dd` (books): released on or after that day. Komga binds it as an ISO
 * LocalDate, so another spelling or a day that does not exist (2020-02-30) is a 400, not ignored.
 */
function releasedAfter(query: RawQuery): Condition | undefined {
  const day = stringParam(query, 'released_after')?.trim();
  if (!day) return undefined;
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(day)) && new Date(Date.parse(day)).toISOString().startsWith(day);
  if (!valid) throw badRequest(`Invalid value '${day}' for parameter released_after: a date (yyyy-MM-dd)`);
  return { releaseDate: { operator: 'after', dateTime: new Date(Date.parse(day) - 86_400_000).toISOString() } };
}

export function seriesConditionFromQuery(query: RawQuery): Condition {
  return allOf([
    anyOf('libraryId', listParam(query, 'library_id')),
    anyOf('collectionId', listParam(query, 'collection_id')),
    anyOf('seriesStatus', enumListParam(query, 'status', SERIES_STATUSES)),
    anyOf('readStatus', enumListParam(query, 'read_status', READ_STATUSES)),
    anyOf('publisher', listParam(query, 'publisher')),
    anyOf('language', listParam(query, 'language')),
    anyOf('genre', listParam(query, 'genre')),
    anyOf('tag', listParam(query, 'tag')),
    anyOf('sharingLabel', listParam(query, 'sharing_label')),
    flag('deleted', booleanParam(query, 'deleted')),
    flag('complete', booleanParam(query, 'complete')),
    flag('oneShot', booleanParam(query, 'oneshot')),
    authors(query),
    ageRatings(query),
    releaseYears(query),
    searchRegex(query),
  ]);
}

export function bookConditionFromQuery(query: RawQuery): Condition {
  return allOf([
    anyOf('libraryId', listParam(query, 'library_id')),
    anyOf('mediaStatus', enumListParam(query, 'media_status', MEDIA_STATUSES)),
    anyOf('readStatus', enumListParam(query, 'read_status', READ_STATUSES)),
    anyOf('tag', listParam(query, 'tag')),
    flag('deleted', booleanParam(query, 'deleted')),
    authors(query),
    releasedAfter(query),
  ]);
}
