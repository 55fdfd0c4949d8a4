import type { Book } from '../../db/book-repository.ts';
import type { Media } from '../../db/media-repository.ts';
import type { StoredProgression } from '../../db/r2-progression-repository.ts';
import type { ReadProgress } from '../../db/read-progress-repository.ts';
import type { FolioContext } from '../context.ts';
import type { EpubPositions } from './epub-positions.ts';

/** The update's input is unusable (400). */
export class ProgressionError extends Error {}
/** A newer progression is already stored (409, as Komga answers). */
export class ProgressionConflict extends Error {}

export interface LocatorInput {
  href: string;
  type: string;
  locations?: { position?: unknown; progression?: unknown; totalProgression?: unknown; fragments?: unknown };
  [key: string]: unknown;
}

export interface ProgressionInput {
  modified: number;
  deviceId: string;
  deviceName: string;
  locator: LocatorInput;
}

/**
 * A locator reduced to Komga's R2Locator, the shape every client decodes: Komga binds the body to
 * its own class, so keys it does not know are dropped and `locations.fragments` is always a list
 * (komga-webui sends `fragment`; a strict decoder of the contract needs `fragments`). Used before a
 * progression is stored and when one stored before this rule is read back.
 */
export function contractLocator(locator: Record<string, unknown>): LocatorInput {
  const shaped: LocatorInput = { href: String(locator.href ?? ''), type: String(locator.type ?? '') };
  if (typeof locator.title === 'string') shaped.title = locator.title;
  const locations = asRecord(locator.locations);
  if (locations) {
    const fragments = Array.isArray(locations.fragments) ? locations.fragments.filter((f): f is string => typeof f === 'string') : [];
    shaped.locations = { fragments, ...pick(locations, ['progression', 'position', 'totalProgression'], 'number') };
  }
  const text = asRecord(locator.text);
  if (text) shaped.text = pick(text, ['after', 'before', 'highlight'], 'string');
  if (typeof locator.koboSpan === 'string') shaped.koboSpan = locator.koboSpan;
  return shaped;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function pick(from: Record<string, unknown>, keys: string[], type: 'number' | 'string'): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => typeof from[key] === type).map((key) => [key, from[key]]));
}

/** The zip path an EPUB locator points at: its href after `/resource/`, decoded, without fragment or query. */
export function locatorResourcePath(href: string): string {
  const bare = href.split('#')[0]!.split('?')[0]!;
  const marker = bare.indexOf('/resource/');
  const path = marker >= 0 ? bare.slice(marker + '/resource/'.length) : bare;
  try {
    return path.split('/').map(decodeURIComponent).join('/');
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    throw new ProgressionError(`Invalid resource href: ${href}`);
  }
}

/** Komga completes an EPUB read through a Readium progression from this far into the book on. */
export const EPUB_COMPLETED_AT = 0.99;

/**
 * The page a Readium locator stands for. Image and PDF books: `locations.position`, or the page
 * number in a `/pages/{n}` href, completed at the last page. EPUBs: the position of the book whose
 * document is the href and whose start is the last one at or before `locations.progression`;
 * completed, as Komga does, once that position's own totalProgression (the client's is not trusted)
 * reaches 0.99 — and also at the book's last position, which in a book of fewer than 100
 * positions starts before 0.99 (Komga would never complete such a book from its progression).
 */
export function pageOfLocator(media: Media, locator: LocatorInput, positions: EpubPositions | null): { page: number; completed: boolean } {
  if (positions) {
    const path = locatorResourcePath(locator.href);
    const candidates = positions.inDocument(path);
    if (candidates.length === 0) throw new ProgressionError(`Resource does not exist in book: ${path}`);
    const progression = locator.locations?.progression;
    if (typeof progression !== 'number' || !Number.isFinite(progression)) throw new ProgressionError('locations.progression is required');
    const match = candidates.filter((p) => p.progression <= progression + 1e-9).at(-1) ?? candidates[0]!;
    const page = Math.min(Math.max(1, match.position), Math.max(1, media.pageCount));
    return { page, completed: match.totalProgression >= EPUB_COMPLETED_AT || match.position === positions.total };
  }
  let page = locator.locations?.position;
  if (page === undefined || page === null) {
    const fromHref = /\/pages\/(\d+)(?:[/?#]|$)/.exec(locator.href)?.[1];
    page = fromHref === undefined ? undefined : Number(fromHref);
  }
  if (typeof page !== 'number' || !Number.isInteger(page)) throw new ProgressionError('locations.position is required');
  if (page < 1 || page > media.pageCount) throw new ProgressionError(`Page number must be between 1 and ${media.pageCount}`);
  return { page, completed: page === media.pageCount };
}

/**
 * Stores a Readium progression for the user and the read progress it implies (page, completed,
 * read date = the progression's time, its device), announcing the change like any progress update.
 * A progression older than the stored read progress is refused.
 */
export function saveProgression(ctx: FolioContext, userId: string, book: Book, input: ProgressionInput, target: { page: number; completed: boolean }): void {
  const existing = ctx.repos.readProgress.find(book.id, userId);
  if (existing && existing.readDate > input.modified) throw new ProgressionConflict('A newer progression already exists');
  const now = Date.now();
  ctx.db.transaction(() => {
    ctx.repos.readProgress.upsert({
      bookId: book.id,
      userId,
      page: target.page,
      completed: target.completed,
      readDate: input.modified,
      deviceId: input.deviceId,
      deviceName: input.deviceName,
      created: existing?.created ?? now,
      lastModified: now,
    });
    ctx.repos.r2Progressions.save({ bookId: book.id, userId, deviceId: input.deviceId, deviceName: input.deviceName, locator: input.locator, modified: input.modified });
  })();
  ctx.events.emit({ name: 'ReadProgressChanged', data: { bookId: book.id, userId }, userId });
  ctx.events.emit({ name: 'ReadProgressSeriesChanged', data: { seriesId: book.seriesId, userId }, userId });
}

/**
 * The stored progression when it is still the latest word on the book's progress; undefined when
 * read progress was changed another way since (page-based readers, mark read), in which case the
 * caller rebuilds a locator from the page.
 */
export function currentProgression(ctx: FolioContext, progress: ReadProgress): StoredProgression | undefined {
  const stored = ctx.repos.r2Progressions.find(progress.bookId, progress.userId);
  return stored && stored.modified === progress.readDate ? stored : undefined;
}
