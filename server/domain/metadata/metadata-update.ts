import { READING_DIRECTIONS, SERIES_STATUSES } from '../../db/stored-values.ts';
import type { BookMetadata } from '../../db/book-metadata-repository.ts';
import type { SeriesMetadata } from '../../db/series-metadata-repository.ts';
import { canonicalLanguageTag, isLanguageTag } from './language-tag.ts';

/**
 * A PATCH body that breaks a rule on one field; becomes a 400 whose violation names the field, as
 * Komga's bean validation answers (`{fieldName, message}`). The message reads "<field> <rule>".
 */
export class MetadataValidationError extends Error {
  readonly fieldName: string;
  readonly rule: string;
  constructor(fieldName: string, rule: string) {
    super(`${fieldName} ${rule}`);
    this.name = 'MetadataValidationError';
    this.fieldName = fieldName;
    this.rule = rule;
  }
}

type Body = Record<string, unknown>;
const fail = (fieldName: string, rule: string): never => {
  throw new MetadataValidationError(fieldName, rule);
};
const has = (body: Body, key: string) => Object.prototype.hasOwnProperty.call(body, key);

/** A text that must not be blank, stored trimmed as Komga's metadata classes keep their texts. */
function nonBlankString(body: Body, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.trim() === '') return fail(key, 'must not be blank');
  return v.trim();
}
function optionalString(body: Body, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return fail(key, 'must be a string');
  return v;
}
function optionalBoolean(body: Body, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') return fail(key, 'must be a boolean');
  return v;
}
function stringList(value: unknown, key: string): string[] {
  if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) return fail(key, 'must be a list of strings');
  return [...new Set((value as string[]).map((x) => x.trim()).filter(Boolean))];
}
function pairList<K extends string>(value: unknown, key: string, fields: readonly K[], check?: (item: Record<K, string>) => void) {
  if (!Array.isArray(value)) return fail(key, 'must be a list');
  return value.map((raw) => {
    if (!raw || typeof raw !== 'object') return fail(key, 'items must be objects');
    const item = {} as Record<K, string>;
    for (const field of fields) {
      const v = (raw as Body)[field];
      if (typeof v !== 'string' || v.trim() === '') return fail(`${key}.${field}`, 'must not be blank');
      item[field] = v.trim();
    }
    check?.(item);
    return item;
  });
}
/**
 * The schemes Komga's link validation takes (Hibernate's @URL, which asks java.net.URL): a
 * `javascript:`, `data:` or `vbscript:` link would run in any client that shows links as anchors.
 */
const LINK_SCHEMES = new Set(['http:', 'https:', 'ftp:', 'file:', 'jar:', 'mailto:']);
const validUrl = (item: { url: string }) => {
  let url: URL;
  try {
    url = new URL(item.url);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return fail('links.url', `must be a valid URL: ${item.url}`);
  }
  if (!LINK_SCHEMES.has(url.protocol)) fail('links.url', `must be an http, https, ftp, file, jar or mailto URL: ${item.url}`);
};

type LockKey<T> = Extract<keyof T, `${string}Lock`>;
/** Each model's lock flags; a Record so that a lock added to the model must be listed here. */
const BOOK_LOCKS: Record<LockKey<BookMetadata>, true> = {
  titleLock: true, summaryLock: true, numberLock: true, numberSortLock: true, releaseDateLock: true,
  authorsLock: true, tagsLock: true, isbnLock: true, linksLock: true,
};
const SERIES_LOCKS: Record<LockKey<SeriesMetadata>, true> = {
  statusLock: true, titleLock: true, titleSortLock: true, summaryLock: true, readingDirectionLock: true,
  publisherLock: true, ageRatingLock: true, languageLock: true, genresLock: true, tagsLock: true,
  totalBookCountLock: true, sharingLabelsLock: true, linksLock: true, alternateTitlesLock: true,
};

/** Every lock flag of `locks` present in the body (null means keep); other `…Lock` members are unknown and ignored. */
function readLocks(patch: Record<string, unknown>, body: Body, locks: object): void {
  for (const key of Object.keys(locks)) {
    const v = optionalBoolean(body, key);
    if (v !== undefined) patch[key] = v;
  }
}

/** A validated update applied to the stored metadata. */
export function applyMetadataPatch<T extends { lastModified: number }>(current: T, patch: Partial<T>, now: number): T {
  return { ...current, ...patch, lastModified: now };
}

/**
 * ISBN-10 or ISBN-13 from any text; returned as ISBN-13 digits, "" for blank input. Text that is
 * not blank yet holds no digit ("N/A") is refused as Komga refuses it, not taken as a clear.
 */
export function normaliseIsbn(text: string): string {
  const digits = text.toUpperCase().replace(/[^0-9X]/g, '');
  if (text.trim() === '') return '';
  const isbn13Valid = (d: string) =>
    /^\d{13}$/.test(d) && [...d].reduce((sum, c, i) => sum + Number(c) * (i % 2 === 0 ? 1 : 3), 0) % 10 === 0;
  if (digits.length === 13 && isbn13Valid(digits)) return digits;
  if (digits.length === 10 && /^\d{9}[\dX]$/.test(digits)) {
    const sum = [...digits].reduce((s, c, i) => s + (c === 'X' ? 10 : Number(c)) * (10 - i), 0);
    if (sum % 11 === 0) {
      const base = `978${digits.slice(0, 9)}`;
      const check = (10 - ([...base].reduce((s, c, i) => s + Number(c) * (i % 2 === 0 ? 1 : 3), 0) % 10)) % 10;
      return `${base}${check}`;
    }
  }
  return fail('isbn', `is not a valid ISBN: ${text}`);
}

/**
 * A release date as Jackson reads a LocalDate: `yyyy-MM-dd`, surrounding blanks ignored; a date
 * and time (`2020-01-02T10:00:00`, or with `Z` as JavaScript's toISOString writes it) keeps its
 * date; an empty text is no date (it clears, as null does). Anything else is refused.
 */
function localDate(text: string | undefined): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  const match = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?Z?)?$/.exec(trimmed);
  const date = match?.[1];
  if (!date || Number.isNaN(Date.parse(date))) return fail('releaseDate', 'must be a date (yyyy-MM-dd)');
  return date;
}

export type BookMetadataPatch = Partial<BookMetadata>;

/**
 * BookMetadataUpdateDto (REFERENCE §2.11): title/number/numberSort and locks are null-means-keep;
 * summary, releaseDate, authors, tags, isbn and links are presence-tracked (explicit null clears).
 * Manual edits ignore locks. Returns the changes asked for, validated without the stored metadata:
 * Komga validates the body before its handler looks the book up, so a bad body is a 400 even for a
 * book that does not exist.
 */
export function readBookMetadataUpdate(raw: unknown): BookMetadataPatch {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('body', 'must be a JSON object');
  const body = raw as Body;
  const next: BookMetadataPatch = {};
  const title = nonBlankString(body, 'title');
  if (title !== undefined) next.title = title;
  const number = nonBlankString(body, 'number');
  if (number !== undefined) next.number = number;
  if (body.numberSort !== undefined && body.numberSort !== null) {
    if (typeof body.numberSort !== 'number' || !Number.isFinite(body.numberSort)) fail('numberSort', 'must be a number');
    next.numberSort = body.numberSort as number;
  }
  if (has(body, 'summary')) next.summary = optionalString(body, 'summary')?.trim() ?? '';
  if (has(body, 'releaseDate')) next.releaseDate = localDate(optionalString(body, 'releaseDate'));
  if (has(body, 'authors')) next.authors = body.authors === null ? [] : pairList(body.authors, 'authors', ['name', 'role'] as const).map((a) => ({ name: a.name, role: a.role.toLowerCase() }));
  if (has(body, 'tags')) next.tags = body.tags === null ? [] : stringList(body.tags, 'tags');
  if (has(body, 'isbn')) next.isbn = body.isbn === null ? '' : normaliseIsbn(optionalString(body, 'isbn') ?? '');
  if (has(body, 'links')) next.links = body.links === null ? [] : pairList(body.links, 'links', ['label', 'url'] as const, validUrl);
  readLocks(next, body, BOOK_LOCKS);
  return next;
}

function enumValue<T extends string>(value: unknown, allowed: readonly T[], key: string): T {
  const match = typeof value === 'string' ? allowed.find((a) => a.toLowerCase() === value.toLowerCase()) : undefined;
  return match ?? fail(key, `must be one of ${allowed.join(', ')}`);
}

export type SeriesMetadataPatch = Partial<SeriesMetadata>;

/**
 * SeriesMetadataUpdateDto: status/title/titleSort/summary/publisher/language and locks are
 * null-means-keep; readingDirection, ageRating, genres, tags, sharingLabels, links,
 * alternateTitles and totalBookCount are presence-tracked. Validated without the stored metadata,
 * as readBookMetadataUpdate.
 */
export function readSeriesMetadataUpdate(raw: unknown): SeriesMetadataPatch {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('body', 'must be a JSON object');
  const body = raw as Body;
  const next: SeriesMetadataPatch = {};
  if (body.status !== undefined && body.status !== null) next.status = enumValue(body.status, SERIES_STATUSES, 'status');
  const title = nonBlankString(body, 'title');
  if (title !== undefined) next.title = title;
  const titleSort = nonBlankString(body, 'titleSort');
  if (titleSort !== undefined) next.titleSort = titleSort;
  // Trimmed, and the language in its canonical spelling, as Komga's SeriesMetadata stores them.
  for (const key of ['summary', 'publisher'] as const) {
    const v = optionalString(body, key);
    if (v !== undefined) next[key] = v.trim();
  }
  const language = optionalString(body, 'language');
  if (language !== undefined) {
    if (!isLanguageTag(language)) fail('language', 'must be a valid BCP 47 language tag');
    next.language = canonicalLanguageTag(language);
  }
  if (has(body, 'readingDirection')) {
    next.readingDirection = body.readingDirection === null ? '' : enumValue(body.readingDirection, READING_DIRECTIONS, 'readingDirection');
  }
  if (has(body, 'ageRating')) {
    const v = body.ageRating;
    if (v !== null && (!Number.isInteger(v) || (v as number) < 0)) fail('ageRating', 'must be a positive integer or 0');
    next.ageRating = v as number | null;
  }
  if (has(body, 'totalBookCount')) {
    const v = body.totalBookCount;
    if (v !== null && (!Number.isInteger(v) || (v as number) <= 0)) fail('totalBookCount', 'must be greater than 0');
    next.totalBookCount = v as number | null;
  }
  for (const key of ['genres', 'tags', 'sharingLabels'] as const) {
    if (has(body, key)) next[key] = body[key] === null ? [] : stringList(body[key], key);
  }
  if (has(body, 'links')) next.links = body.links === null ? [] : pairList(body.links, 'links', ['label', 'url'] as const, validUrl);
  if (has(body, 'alternateTitles')) {
    next.alternateTitles = body.alternateTitles === null ? [] : pairList(body.alternateTitles, 'alternateTitles', ['label', 'title'] as const);
  }
  readLocks(next, body, SERIES_LOCKS);
  return next;
}
