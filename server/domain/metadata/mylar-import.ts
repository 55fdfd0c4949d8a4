import { join } from 'node:path';
import type { SeriesMetadata } from '../../db/series-metadata-repository.ts';
import type { FolioContext } from '../context.ts';
import { OutsideLibraryError } from '../library/library-paths.ts';
import { SeriesJsonReads } from './series-json-reads.ts';
import { boundedImport } from './bounded-import.ts';

/** Mylar3 writes this file into each series folder it manages. */
export const MYLAR_FILE = 'series.json';

/** The part of Mylar's series.json the series metadata takes (other fields are ignored). */
export interface MylarSeries {
  name?: string;
  publisher?: string;
  description_text?: string | null;
  description_formatted?: string | null;
  status?: string;
  booktype?: string;
  age_rating?: string | null;
  comicid?: number | string;
  year?: number;
  volume?: number | null;
  total_issues?: number;
}

/**
 * The JSON types each taken field may have, as Mylar writes them; a value of another type is left
 * out, as if absent. Any tool (or hand) writes series.json: a number where Mylar writes a string
 * ("age_rating": 12) threw a TypeError out of the import and failed the whole library's scan.
 */
const MYLAR_FIELDS: Record<keyof MylarSeries, readonly ('string' | 'number' | 'null')[]> = {
  name: ['string'],
  publisher: ['string'],
  description_text: ['string', 'null'],
  description_formatted: ['string', 'null'],
  status: ['string'],
  booktype: ['string'],
  age_rating: ['string', 'null'],
  comicid: ['number', 'string'],
  year: ['number'],
  volume: ['number', 'null'],
  total_issues: ['number'],
};

const jsonType = (value: unknown) => (value === null ? 'null' : typeof value);

/** Largest whole number a count or an age may be: Komga's are Kotlin Ints. */
const MAX_INT = 2 ** 31 - 1;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** Mylar age ratings ("All", "9+", "12+", "15+", "17+", "Adult") as a minimum age. */
export function mylarAgeRating(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^all$/i.test(value.trim())) return 0;
  if (/^adult$/i.test(value.trim())) return 18;
  const age = /(\d+)\s*\+?/.exec(value);
  return age && Number(age[1]) <= MAX_INT ? Number(age[1]) : undefined;
}

/**
 * Nesting a series.json may have; Mylar's has three levels. JSON.parse runs on the thread that
 * answers requests, and 1 MiB of nested arrays held it 230-400 ms (flat text of that size: 1 ms).
 */
export const MAX_JSON_DEPTH = 32;

/** Whether JSON text nests arrays or objects deeper than `limit`: one pass, strings skipped. */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** Parses series.json text; null when it is not a Mylar series document (or nests deeper than MAX_JSON_DEPTH). */
export function parseMylarSeries(text: string): MylarSeries | null {
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return null;
  }
  const metadata = typeof doc === 'object' && doc !== null ? (doc as { metadata?: unknown }).metadata : undefined;
  if (typeof metadata !== 'object' || metadata === null) return null;
  // Only the fields taken: the rest of the document (of any shape) is not carried further.
  const all = metadata as Record<string, unknown>;
  const taken: Record<string, unknown> = {};
  for (const [key, types] of Object.entries(MYLAR_FIELDS)) {
    if (key in all && (types as readonly string[]).includes(jsonType(all[key]))) taken[key] = all[key];
  }
  return taken as MylarSeries;
}

/** The series metadata with what series.json says, locked fields untouched. */
export function applyMylar(meta: SeriesMetadata, mylar: MylarSeries, appendVolume: boolean): SeriesMetadata {
  const next = { ...meta };
  const name = str(mylar.name);
  if (name) {
    // Same rule as ComicInfo's Volume: a volume after the first is part of the title when asked.
    const title = appendVolume && typeof mylar.volume === 'number' && mylar.volume > 1 ? `${name} (${mylar.volume})` : name;
    if (!meta.titleLock) next.title = title;
    if (!meta.titleSortLock) next.titleSort = title;
  }
  const publisher = str(mylar.publisher);
  if (publisher && !meta.publisherLock) next.publisher = publisher;
  const summary = str(mylar.description_text) ?? str(mylar.description_formatted);
  if (summary && !meta.summaryLock) next.summary = summary;
  const status = str(mylar.status)?.toLowerCase();
  if (!meta.statusLock) {
    if (status === 'ended') next.status = 'ENDED';
    else if (status === 'continuing') next.status = 'ONGOING';
  }
  const age = mylarAgeRating(mylar.age_rating);
  if (age !== undefined && !meta.ageRatingLock) next.ageRating = age;
  const total = mylar.total_issues;
  if (typeof total === 'number' && Number.isInteger(total) && total > 0 && total <= MAX_INT && !meta.totalBookCountLock) {
    next.totalBookCount = total;
  }
  const comicId = mylar.comicid !== undefined ? String(mylar.comicid).trim() : '';
  if (/^\d+$/.test(comicId) && !meta.linksLock) {
    // Mylar's comicid is a ComicVine volume id.
    const url = `https://comicvine.gamespot.com/volume/4050-${comicId}/`;
    if (!meta.links.some((l) => l.url === url)) next.links = [...meta.links.filter((l) => l.label !== 'ComicVine'), { label: 'ComicVine', url }];
  }
  return next;
}

/**
 * Library option importMylarSeries: a Mylar `series.json` in the series folder fills the series
 * metadata (title, publisher, summary, status, age rating, total book count, ComicVine link).
 * Returns true when the series metadata changed. A scan passes its `seriesJson`, so that its
 * analyses do not read the file once per book.
 */
export async function importMylarSeries(ctx: FolioContext, seriesId: string, seriesJson = new SeriesJsonReads()): Promise<boolean> {
  const series = ctx.repos.series.findById(seriesId);
  const library = series && ctx.repos.libraries.findById(series.libraryId);
  if (!series || !library?.importMylarSeries || series.oneshot || series.deletedDate !== null) return false;
  const path = join(series.url, MYLAR_FILE);
  // A series.json linked out of the library is not the library's to read (README "Security").
  let text: string | null;
  try {
    text = await seriesJson.read(path, library.root);
  } catch (error) {
    if (!(error instanceof OutsideLibraryError)) throw error;
    ctx.log(`${path} not read: it leads out of its library`, error);
    return false;
  }
  if (text === null) return false;
  const parsed = parseMylarSeries(text);
  if (!parsed) {
    ctx.log(`${path} is not a Mylar series document`);
    return false;
  }
  const mylar = boundedImport(ctx, parsed, path);
  const meta = ctx.repos.seriesMetadata.findBySeriesId(seriesId);
  if (!meta) return false;
  const next = applyMylar(meta, mylar, library.importComicInfoSeriesAppendVolume);
  if (JSON.stringify(next) === JSON.stringify(meta)) return false;
  ctx.repos.seriesMetadata.update({ ...next, lastModified: Date.now() });
  ctx.events.emit({ name: 'SeriesChanged', data: { seriesId, libraryId: series.libraryId } });
  return true;
}
