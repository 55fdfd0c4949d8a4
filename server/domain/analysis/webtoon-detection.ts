import type { MediaPage } from '../../db/media-repository.ts';
import type { FolioContext } from '../context.ts';

/** A page at least this many times taller than wide is a strip, not a printed page (about 1.5). */
const STRIP_RATIO = 2;
/** Share of a book's measured pages that must be strips for the book to count as a webtoon. */
const STRIP_SHARE = 2 / 3;

/** True when most pages with known dimensions are much taller than wide. */
export function looksLikeWebtoon(pages: readonly Pick<MediaPage, 'width' | 'height'>[]): boolean {
  const measured = pages.filter((p) => (p.width ?? 0) > 0 && (p.height ?? 0) > 0);
  if (measured.length === 0) return false;
  const strips = measured.filter((p) => (p.height ?? 0) >= STRIP_RATIO * (p.width ?? 0)).length;
  return strips / measured.length >= STRIP_SHARE;
}

/**
 * After a book is analysed: a series with no reading direction yet (none from ComicInfo, EPUB or the
 * user) whose book is made of tall strips becomes WEBTOON, so the reader opens it scrolling. A locked
 * or already set direction is never changed: metadata sources and the user keep the last word.
 */
export function detectWebtoonSeries(ctx: FolioContext, seriesId: string, pages: readonly MediaPage[]): void {
  if (!looksLikeWebtoon(pages)) return;
  const meta = ctx.repos.seriesMetadata.findBySeriesId(seriesId);
  if (!meta || meta.readingDirectionLock || meta.readingDirection !== '') return;
  ctx.repos.seriesMetadata.update({ ...meta, readingDirection: 'WEBTOON', lastModified: Date.now() });
  const series = ctx.repos.series.findById(seriesId);
  if (series) ctx.events.emit({ name: 'SeriesChanged', data: { seriesId, libraryId: series.libraryId } });
}
