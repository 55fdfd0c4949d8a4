import { join } from 'node:path';
import { importBarcodeIsbn } from './barcode-isbn.ts';
import type { AnalysedBook } from '../analysis/analysed-book.ts';
import type { FolioContext } from '../context.ts';
import { putOffReason } from '../tasks/put-off.ts';
import { importEpubMetadata } from './epub-metadata-import.ts';
import { importComicInfo } from './metadata-import.ts';
import { MYLAR_FILE, importMylarSeries } from './mylar-import.ts';
import { refreshSeriesAggregation } from './series-aggregation.ts';
import type { SeriesJsonReads } from './series-json-reads.ts';

/**
 * Every automatic metadata source of a book, in a fixed order (ComicInfo, EPUB package, barcode
 * ISBN), each gated by its library option and each leaving locked fields alone; then the series
 * source (Mylar series.json). Runs after analysis and on a metadata refresh. Analysis leaves the
 * barcode out (`barcode: false`): decoding pages to look for one costs far more than analysis
 * itself, so it runs later as a low-priority task and books become readable first. The analyses
 * of a scan (or of an admin's analyse or refresh) share its `seriesJson`, so that each folder's file is read once.
 */
export async function refreshBookMetadata(
  ctx: FolioContext,
  bookId: string,
  options: { barcode?: boolean; known?: AnalysedBook; seriesJson?: SeriesJsonReads } = {},
): Promise<void> {
  const { known } = options;
  await importComicInfo(ctx, bookId, known);
  const fromEpub = await importEpubMetadata(ctx, bookId, known);
  if (options.barcode !== false) await importBarcodeIsbn(ctx, bookId);
  const book = known?.book ?? ctx.repos.books.findById(bookId);
  if (!book) return;
  if (fromEpub) refreshSeriesAggregation(ctx, book.seriesId, Date.now());
  await importMylarSeries(ctx, book.seriesId, options.seriesJson);
}

/**
 * Series sources for every live series of a library (after a scan: series.json may be new). One
 * series' failure is that series' own (its file, its row): it is logged with the series and its
 * file, and the others are still imported; before, it ended the scan task there, and the analyses
 * of the scan's new books, queued after this, were never queued. A failure of the server (a
 * locked or full database, descriptors run out: put-off.ts) ends it as before, so the task
 * queue puts the whole task off and runs it again.
 */
export async function refreshLibrarySeriesMetadata(ctx: FolioContext, libraryId: string, seriesJson: SeriesJsonReads): Promise<void> {
  if (!ctx.repos.libraries.findById(libraryId)?.importMylarSeries) return;
  for (const series of ctx.repos.series.findByLibrary(libraryId)) {
    if (series.deletedDate !== null) continue;
    try {
      await importMylarSeries(ctx, series.id, seriesJson);
    } catch (error) {
      if (putOffReason(error)) throw error;
      ctx.logger.error({ err: error, libraryId, seriesId: series.id, file: join(series.url, MYLAR_FILE) }, 'series metadata import failed (the other series of the library are still imported)');
    }
  }
}
