import { MediaError } from '../../media/book-reader.ts';
import { isTransientFailure } from '../../media/transient-errors.ts';
import { isMissingFile } from '../../fs-errors.ts';
import { analyseOpened } from '../../media/analyse-container.ts';
import type { Media, MediaFile, MediaPage } from '../../db/media-repository.ts';
import type { FolioContext } from '../context.ts';
import { archiveVersion } from '../book-archive.ts';
import { removeGeneratedThumbnails } from '../posters/book-thumbnails.ts';
import { refreshBookMetadata } from '../metadata/metadata-refresh.ts';
import type { SeriesJsonReads } from '../metadata/series-json-reads.ts';
import { detectWebtoonSeries } from './webtoon-detection.ts';

/**
 * What became of an analysis: recorded with the book readable ('ready') or not ('recorded'), or
 * put off because the server was short of resources ('deferred': nothing recorded, or the book
 * recorded but its metadata not imported yet; either way the caller analyses it again later).
 */
export type AnalysisOutcome = 'ready' | 'recorded' | 'deferred' | 'skipped';

/**
 * Analyses one book file and records the outcome. Failures of the file become media status ERROR
 * with a Komga error code in `comment`; they never throw, so one broken file cannot stop a
 * library. Failures of the server (out of descriptors, no free archive handle, a time limit) are
 * not the book's fault: nothing is recorded and the caller retries later ('deferred'). The analyses
 * a scan queued share its `seriesJson` (series.json read once per folder).
 */
export async function analyseBook(ctx: FolioContext, bookId: string, seriesJson?: SeriesJsonReads): Promise<AnalysisOutcome> {
  const book = ctx.repos.books.findById(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !media || book.deletedDate !== null) return 'skipped';
  const library = ctx.repos.libraries.findById(book.libraryId);
  const now = Date.now();
  let next: Media;
  let pages: MediaPage[] = [];
  let files: MediaFile[] = [];
  try {
    // Opened afresh (handles of earlier content are dropped) and kept in the pool for the poster and
    // barcode search that follow, which would otherwise open the file again.
    const result = await ctx.archives.withCurrentHandle(book.url, archiveVersion(book), ({ reader, book: opened }) =>
      analyseOpened(reader, opened, library?.analyzeDimensions ?? true),
    );
    pages = result.pages.map((p, index) => ({
      number: index + 1,
      fileName: p.fileName,
      mediaType: p.mediaType,
      width: p.width,
      height: p.height,
      fileSize: p.fileSize,
    }));
    files = result.files;
    const comments: string[] = [];
    // Entries that cannot be read, or a listing that ended at damage (entries past it are lost).
    if (result.failedEntries.length > 0 || result.damage !== undefined) {
      comments.push('ERR_1007');
      ctx.logger.warn(
        { bookId, file: book.url, code: 'ERR_1007', entries: result.failedEntries.slice(0, 20), failedEntries: result.failedEntries.length, damage: result.damage },
        'book analysed with entries that cannot be read',
      );
    }
    const missing = result.missingEntries ?? [];
    if (missing.length > 0) {
      comments.push('ERR_1033');
      ctx.logger.warn({ bookId, file: book.url, code: 'ERR_1033', entries: missing.slice(0, 20), missingEntries: missing.length }, 'book analysed with listed files missing');
    }
    // A page whose bytes cannot be read keeps its slot (serving it fails), but a book with nothing
    // else has no page to show: Komga, which drops such entries, calls it a book without pages.
    const unreadable = new Set(result.unreadableEntries ?? []);
    if (pages.length > 0 && pages.every((p) => unreadable.has(p.fileName))) pages = [];
    // Text EPUBs have a page count (an estimate) but no page images.
    const pageCount = result.pageCount ?? pages.length;
    next = {
      ...media,
      status: pageCount > 0 ? 'READY' : 'ERROR',
      mediaType: result.reader.mediaType,
      comment: pageCount > 0 ? comments.join(' ') || null : 'ERR_1006',
      pageCount,
      epubDivinaCompatible: result.epubDivinaCompatible ?? false,
      lastModified: now,
    };
    if (pageCount === 0) ctx.logger.warn({ bookId, file: book.url, code: 'ERR_1006', otherFiles: files.length }, 'book analysis failed: no pages');
    if (pages.length === 0) pages = [];
  } catch (error) {
    if (isTransientFailure(error)) {
      ctx.logger.warn({ err: error, bookId, file: book.url }, 'analysis deferred: server short of resources');
      return 'deferred';
    }
    if (fileVanished(error)) {
      // Moved or removed since the scan saw it: the next scan finds out which (a moved book keeps
      // its analysis, a removed one goes to the trash). Recording it unreadable would drop the
      // pages of a book that is only elsewhere.
      ctx.logger.warn({ err: error, bookId, file: book.url }, 'analysis skipped: the file is no longer there');
      return 'skipped';
    }
    const code = error instanceof MediaError ? error.code : 'ERR_1005';
    // The media comment keeps only the code: the log is where an administrator learns why.
    ctx.logger.warn({ err: error, bookId, file: book.url, code }, 'book analysis failed');
    // A format no reader handles is UNSUPPORTED rather than broken (Komga's ERR_1001).
    const status = code === 'ERR_1001' ? 'UNSUPPORTED' : 'ERROR';
    next = { ...media, status, mediaType: null, comment: code, pageCount: 0, lastModified: now };
    pages = [];
    files = [];
  }
  // The file may have been removed or re-queued while we were reading it.
  const current = ctx.repos.books.findById(bookId);
  if (!current) return 'skipped';
  // A readable book is recorded under its former status (UNKNOWN or OUTDATED: its pages not served)
  // until its metadata is imported: its ComicInfo, EPUB package or series.json may rate its series
  // out of a restricted reader's reach, and READY first let such a reader read its pages for as
  // long as the import took, or until its retry when it was put off.
  const readable = next.status === 'READY';
  const recorded: Media = readable ? { ...next, status: media.status } : next;
  ctx.repos.media.replaceAnalysis(recorded, pages, files);
  // A book that cannot be read keeps no handle; a readable one keeps the one it was just read through.
  if (!readable) ctx.archives.forget(book.url);
  await removeGeneratedThumbnails(ctx, bookId);
  let metadataDeferred = false;
  if (readable) {
    try {
      await refreshBookMetadata(ctx, bookId, { barcode: false, known: { book: current, media: next, files }, seriesJson });
    } catch (error) {
      if (!isTransientFailure(error)) throw error;
      // Its ComicInfo/EPUB metadata could not be read now: the analysis is retried as a whole later
      // (recording it again changes nothing) so the import is not lost, and the book stays unread
      // until then (its rating unknown).
      ctx.logger.warn({ err: error, bookId, file: book.url }, 'metadata import deferred: server short of resources');
      metadataDeferred = true;
    }
    if (!metadataDeferred) ctx.repos.media.markReady(recorded);
    detectWebtoonSeries(ctx, book.seriesId, pages);
  }
  ctx.events.emit({ name: 'BookChanged', data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId } });
  if (metadataDeferred) return 'deferred';
  return next.status === 'READY' ? 'ready' : 'recorded';
}

/** The book file could not be opened because nothing is at its path any more (not: it is unreadable). */
function fileVanished(error: unknown): boolean {
  return error instanceof MediaError && error.code === 'ERR_1000' && isMissingFile(error.cause);
}
