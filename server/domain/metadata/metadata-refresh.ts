import { join } from 'node:path';
import { importBarcodeIsbn } from './barcode-isbn.ts';
import type { AnalysedBook } from '../analysis/analysed-book.ts';
import type { FolioContext } from '../context.ts';
import { isTransientFailure } from '../../media/transient-errors.ts';
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
 * One source failing for a reason of its own does not stop the others, nor what its caller does
 * next (an analysis' webtoon detection, events and follow-up tasks): see `eachSource`.
 */
export async function refreshBookMetadata(
  ctx: FolioContext,
  bookId: string,
  options: { barcode?: boolean; known?: AnalysedBook; seriesJson?: SeriesJsonReads } = {},
): Promise<void> {
  const { known } = options;
  const book = known?.book ?? ctx.repos.books.findById(bookId);
  if (!book) return;
  const source = (name: string, file: () => string) => ({ bookId, seriesId: book.seriesId, source: name, file });
  await eachSource(ctx, source('ComicInfo.xml', () => book.url), () => importComicInfo(ctx, bookId, known));
  await eachSource(ctx, source('EPUB package', () => book.url), async () => {
    if (await importEpubMetadata(ctx, bookId, known)) refreshSeriesAggregation(ctx, book.seriesId, Date.now());
  });
  if (options.barcode !== false) await eachSource(ctx, source('barcode ISBN', () => book.url), () => importBarcodeIsbn(ctx, bookId));
  await eachSource(ctx, source(MYLAR_FILE, () => join(ctx.repos.series.findById(book.seriesId)?.url ?? '', MYLAR_FILE)), () =>
    importMylarSeries(ctx, book.seriesId, options.seriesJson),
  );
}

/**
 * Runs one metadata source of a book. A failure of its own (a row another tool's trigger refuses,
 * a bug on an input nobody foresaw) is logged as an error with the book, its series, the source
 * and its file, and the book's other sources still run: the book is readable whatever its
 * metadata says, and before, an analysis whose series.json import failed ended there, without
 * its webtoon detection, BookChanged event or poster. A failure of the server (busy, timed out,
 * a locked or full database, descriptors run out) is thrown, so that the caller puts the work
 * off and runs it again as a whole.
 */
async function eachSource(
  ctx: FolioContext,
  where: { bookId: string; seriesId: string; source: string; file: () => string },
  work: () => Promise<unknown>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (isTransientFailure(error) || putOffReason(error)) throw error;
    ctx.logger.error(
      { err: error, bookId: where.bookId, seriesId: where.seriesId, source: where.source, file: where.file() },
      `${where.source} metadata import failed (the book's other metadata sources still run)`,
    );
  }
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
