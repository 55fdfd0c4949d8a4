/**
 * The one place where metadata read from a library's files (ComicInfo.xml, an EPUB's package
 * document, Mylar's series.json) is made fit to store. Every byte of a library is hostile: before
 * this, a ComicInfo.xml's 1 MB title, a package document's 4 MB description or a series.json's
 * 1e300 issues went to SQLite as they were. The importers parse; what they found passes here
 * before it reaches a repository, whatever the field, so that a new field is bounded too.
 *
 * Limits (README "Metadata import limits") keep every real book whole: real summaries run to a
 * few KB, tag and credit lists to a few dozen, titles to a couple of hundred characters.
 */
export const IMPORT_LIMITS = {
  /** One short text (title, series, publisher, number, a tag, an author's name): characters kept. */
  textChars: 1024,
  /** A summary or description: characters kept. */
  longTextChars: 64 * 1024,
  /** Values kept of one list (tags, genres, authors, links). */
  listValues: 256,
  /**
   * Read lists (story arcs) and collections (series groups) one file puts its book or series in:
   * each name is a row created on first sight, and real books name a handful.
   */
  groupValues: 32,
  /** Characters of all the texts of one list together; values past it are dropped. */
  listChars: 32 * 1024,
  /** A number larger than this (a count, a year, a position) is no real one: dropped. */
  maxNumber: 2_147_483_647,
} as const;

/** Fields holding prose, bounded by longTextChars; every other text is short. */
const LONG_TEXT = new Set(['summary', 'description', 'description_text', 'description_formatted']);
/** Lists whose every value creates a row (a read list, a collection): bounded by groupValues. */
const GROUPS = new Set(['readLists', 'collections']);
/** Fields holding an ISO date (yyyy-MM-dd): one that names no day of the calendar is dropped. */
const DATES = new Set(['releaseDate']);

/** C0 and C1 control characters but tab, line feed and carriage return: no text carries them. */
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** Half of a surrogate pair without its other half (text decoded from broken UTF-16). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export interface BoundedImport<T> {
  value: T;
  /** What was cut or dropped, one line each ("book.title: 300011 characters cut to 1024"). */
  cuts: string[];
}

/**
 * `value` (an importer's plain result: objects, arrays, strings, numbers) within IMPORT_LIMITS:
 * control characters and unpaired surrogates removed, texts cut at a character boundary, lists
 * cut, numbers beyond maxNumber or not finite dropped (undefined), impossible dates dropped, -0
 * made 0. The cost is linear in the value's size; the importers have already bounded its depth.
 */
export function boundImported<T>(value: T): BoundedImport<T> {
  const cuts: string[] = [];
  return { value: bound(value, '', false, cuts) as T, cuts };
}

function bound(value: unknown, path: string, long: boolean, cuts: string[]): unknown {
  if (typeof value === 'string') return boundText(value, path, long ? IMPORT_LIMITS.longTextChars : IMPORT_LIMITS.textChars, cuts);
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) > IMPORT_LIMITS.maxNumber) {
      cuts.push(`${path}: ${value} dropped (beyond ±${IMPORT_LIMITS.maxNumber})`);
      return undefined;
    }
    return value === 0 ? 0 : value;
  }
  if (Array.isArray(value)) return boundList(value, path, GROUPS.has(path) ? IMPORT_LIMITS.groupValues : IMPORT_LIMITS.listValues, cuts);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    let bounded = bound(field, at, LONG_TEXT.has(key), cuts);
    if (DATES.has(key) && typeof bounded === 'string' && !isCalendarDate(bounded)) {
      cuts.push(`${at}: ${JSON.stringify(bounded.slice(0, 40))} dropped (no such date)`);
      bounded = undefined;
    }
    out[key] = bounded;
  }
  return out;
}

function boundText(text: string, path: string, limit: number, cuts: string[]): string {
  // Only what can be kept is cleaned: the expressions over 4 MB of control characters took
  // 350-500 ms of the request thread. Twice the limit leaves room for what cleaning removes.
  const clean = text.slice(0, 2 * limit + 1).replace(CONTROLS, '').replace(LONE_SURROGATE, '\uFFFD');
  if (clean.length <= limit && text.length <= 2 * limit + 1) return clean;
  if (clean.length <= limit) {
    cuts.push(`${path}: ${text.length} characters cut to ${clean.length}`);
    return clean;
  }
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(clean[limit - 1]!) ? limit - 1 : limit;
  cuts.push(`${path}: ${text.length} characters cut to ${end}`);
  return clean.slice(0, end);
}

function boundList(values: unknown[], path: string, limit: number, cuts: string[]): unknown[] {
  const out: unknown[] = [];
  let chars = 0;
  for (const value of values) {
    if (out.length === limit) break;
    const bounded = bound(value, `${path}[]`, false, cuts);
    chars += textLength(bounded);
    if (chars > IMPORT_LIMITS.listChars) break;
    out.push(bounded);
  }
  if (out.length < values.length) cuts.push(`${path}: ${values.length} values cut to ${out.length}`);
  return out;
}

/** Characters of the texts in a list value (a tag, or an author's name and role). */
function textLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce<number>((sum, field) => sum + (typeof field === 'string' ? field.length : 0), 0);
}

/** yyyy-MM-dd naming a real day from year 1 to 9999. */
function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(2000, month, 0)).getUTCDate() && (month !== 2 || day <= 28 || isLeap(year));
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** One warning line for an import that had to cut: at most a few of the cuts, then how many more. */
export function describeCuts(cuts: string[]): string {
  const shown = cuts.slice(0, 8).join('; ');
  return cuts.length > 8 ? `${shown}; and ${cuts.length - 8} more` : shown;
}
