import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolioContext } from '../context.ts';

/**
 * Empties a library's trash: books and series flagged deleted by scans are removed for good,
 * with their read progress, generated posters and cached page images. Returns how many books went.
 */
export async function emptyTrash(ctx: FolioContext, libraryId: string): Promise<number> {
  const books = ctx.repos.books.findByLibrary(libraryId).filter((b) => b.deletedDate !== null);
  const series = ctx.repos.series.findByLibrary(libraryId).filter((s) => s.deletedDate !== null);
  const files: string[] = [];
  ctx.db.transaction(() => {
    for (const book of books) {
      files.push(...ctx.repos.thumbnails.deleteGeneratedForBook(book.id));
      ctx.repos.books.delete(book.id);
    }
    for (const s of series) {
      if (ctx.repos.books.countBySeries(s.id) === 0) ctx.repos.series.delete(s.id);
    }
  })();
  for (const file of files) await rm(join(ctx.dataDir, file), { force: true });
  // Drawn PDF pages and page thumbnails of the removed books.
  for (const book of books) {
    for (const cache of ['rendered-pages', 'page-thumbnails']) {
      await rm(join(ctx.dataDir, 'cache', cache, book.id), { recursive: true, force: true });
    }
  }
  for (const book of books) {
    ctx.events.emit({ name: 'BookDeleted', data: { bookId: book.id, seriesId: book.seriesId, libraryId } });
  }
  for (const s of series) ctx.events.emit({ name: 'SeriesDeleted', data: { seriesId: s.id, libraryId } });
  return books.length;
}
