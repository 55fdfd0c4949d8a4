import type { Author } from '../../db/stored-values.ts';
import type { FolioContext } from '../context.ts';

/**
 * Recomputes the series' `booksMetadata`: distinct authors and tags over its live books, the
 * earliest release date, and the summary of the first book that has one.
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
  const existing = ctx.repos.seriesBooksMetadata.findBySeriesId(seriesId);
  ctx.repos.seriesBooksMetadata.upsert({
    seriesId,
    authors: [...authors.values()],
    tags: [...tags].sort(),
    releaseDate,
    summary,
    summaryNumber,
    created: existing?.created ?? now,
    lastModified: now,
  });
}
