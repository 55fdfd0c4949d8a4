import type { Author } from '../../db/stored-values.ts';
import type { FolioContext } from '../context.ts';
import { IMPORT_LIMITS } from './imported-text.ts';

/**
 * Distinct authors, and tags, the aggregation keeps. Each book's lists are bounded
 * (IMPORT_LIMITS.listValues) but their union over a series is not: 1,000 books of 256 distinct
 * tags made a row of 256,000, rebuilt on every book's import. Eight books' worth is more than
 * any real series shows (a long-running title credits a few hundred people).
 */
export const AGGREGATED_VALUES = 8 * IMPORT_LIMITS.listValues;

/**
 * Recomputes the series' `booksMetadata`: distinct authors and tags over its live books (at most
 * AGGREGATED_VALUES of each), the earliest release date, and the summary of the first book that has one.
 */
export function refreshSeriesAggregation(ctx: FolioContext, seriesId: string, now = Date.now()): void {
  const books = ctx.repos.books.findBySeries(seriesId).filter((b) => b.deletedDate === null);
  const authors = new Map<string, Author>();
  const tags = new Set<string>();
  let releaseDate: string | null = null;
  let summary = '';
  let summaryNumber = '';
  for (const book of books) {
    const meta = ctx.repos.bookMetadata.findByBookId(book.id);
    if (!meta) continue;
    for (const a of meta.authors) authors.set(`${a.name}\u0000${a.role}`, a);
    for (const t of meta.tags) tags.add(t);
    if (meta.releaseDate && (releaseDate === null || meta.releaseDate < releaseDate)) releaseDate = meta.releaseDate;
    if (!summary && meta.summary) {
      summary = meta.summary;
      summaryNumber = meta.number;
    }
  }
  if (authors.size > AGGREGATED_VALUES || tags.size > AGGREGATED_VALUES) {
    ctx.log(`series ${seriesId}: its books name ${authors.size} authors and ${tags.size} tags; the series keeps ${AGGREGATED_VALUES} of each`);
  }
  const existing = ctx.repos.seriesBooksMetadata.findBySeriesId(seriesId);
  ctx.repos.seriesBooksMetadata.upsert({
    seriesId,
    authors: [...authors.values()].slice(0, AGGREGATED_VALUES),
    tags: [...tags].sort().slice(0, AGGREGATED_VALUES),
    releaseDate,
    summary,
    summaryNumber,
    created: existing?.created ?? now,
    lastModified: now,
  });
}
