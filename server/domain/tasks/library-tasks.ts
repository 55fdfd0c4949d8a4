import type { FolioContext } from '../context.ts';
import type { TaskFailureReason } from '../events.ts';
import { putOffReason } from './put-off.ts';
import { analyseBook } from '../analysis/analyser.ts';
import { applyBookFileOptions, booksAwaitingFileOptions } from '../book-files/book-file-options.ts';
import { bookThumbnail } from '../posters/book-thumbnails.ts';
import { hashBookFile } from '../hashing/file-hash.ts';
import { barcodeSearchWanted, importBarcodeIsbn } from '../metadata/barcode-isbn.ts';
import { refreshBookMetadata, refreshLibrarySeriesMetadata } from '../metadata/metadata-refresh.ts';
import { SeriesJsonReads } from '../metadata/series-json-reads.ts';
import { submitPageHashMaintenance, submitPageHashing } from '../hashing/page-hashing.ts';
import { scanLibrary } from '../library/scanner.ts';
import { emptyTrash } from '../library/trash.ts';

/**
 * Queues a scan of a library; the scan queues analysis of every new or changed book (every book
 * when `deep`), and empties the trash afterwards when the library asks for it.
 */
export function submitLibraryScan(ctx: FolioContext, libraryId: string, deep = false, attempt = 0): void {
  ctx.tasks.submit(
    'ScanLibrary',
    `ScanLibrary:${libraryId}`,
    async () => {
      let toAnalyse: string[];
      try {
        ({ toAnalyse } = await scanLibrary(ctx, libraryId));
      } catch (error) {
        // A database that cannot be written now (another process's lock, a full disk), descriptors
        // run out: the task queue puts the scan off and runs it again, and says so (put-off.ts).
        // Retrying here too ran it twice.
        if (putOffReason(error)) throw error;
        // Say why, try again with back-off (a later scan brings the library in line whatever this
        // one left undone), and still fail the task so the admin's task figures count it.
        const retry = attempt < MAX_SCAN_RETRIES ? SCAN_RETRY_BASE_MS * 2 ** attempt : null;
        ctx.logger.error({ err: error, libraryId, attempt: attempt + 1, retryInMs: retry }, 'library scan failed');
        if (retry !== null) setTimeout(() => submitLibraryScan(ctx, libraryId, deep, attempt + 1), retry).unref();
        throw error;
      }
      // Each folder's series.json read once for the scan and the analyses it queues.
      const seriesJson = new SeriesJsonReads();
      await refreshLibrarySeriesMetadata(ctx, libraryId, seriesJson);
      const ids = deep ? liveBookIds(ctx, libraryId) : toAnalyse;
      // One commit for the stored rows of thousands of queued analyses, not one each.
      ctx.db.transaction(() => {
        for (const bookId of ids) submitBookAnalysis(ctx, bookId, 0, seriesJson);
      })();
      const analysed = new Set(ids);
      for (const bookId of booksAwaitingFileOptions(ctx, libraryId)) {
        if (!analysed.has(bookId)) submitFileOptions(ctx, bookId);
      }
      submitPageHashMaintenance(ctx, libraryId);
      if (ctx.repos.libraries.findById(libraryId)?.emptyTrashAfterScan) await emptyTrash(ctx, libraryId);
    },
    10,
    { libraryId, deep },
  );
}

/**
 * Waits before retrying an analysis whose metadata import was put off for lack of resources: 1 s,
 * 2 s, 4 s… for `backOffSteps` tries, then every 5 min until it is done (tests lower these). It is
 * never given up: such a book has its analysis recorded but is not READY (not readable) until its
 * ComicInfo/EPUB rating is imported (analyser.ts), and giving up left it unreadable until a scan,
 * for good in a library whose scheduled scans are off. One timer per such book, and past the
 * back-off the scan's series.json reads are let go (read again from the folder).
 */
export const analysisRetry = { baseMs: 1_000, maxMs: 5 * 60_000, backOffSteps: 12 };
/** A failed scan is tried again after 1 s, 2 s, 4 s, 8 s, 16 s. */
const SCAN_RETRY_BASE_MS = 1_000;
const MAX_SCAN_RETRIES = 5;

function announceAnalysisFailed(ctx: FolioContext, bookId: string, reason: TaskFailureReason): void {
  ctx.events.emit({ name: 'TaskFailed', data: { taskType: 'AnalyzeBook', bookId, reason }, adminOnly: true });
}

/** `seriesJson`: the series.json files of the scan or action that queued the analysis, read once per folder. */
export function submitBookAnalysis(ctx: FolioContext, bookId: string, attempt = 0, seriesJson?: SeriesJsonReads): void {
  const key = `AnalyzeBook:${bookId}`;
  ctx.tasks.submit(
    'AnalyzeBook',
    key,
    async () => {
      const outcome = await analyseBook(ctx, bookId, seriesJson).catch((error: unknown) => {
        if (putOffReason(error) === undefined) announceAnalysisFailed(ctx, bookId, 'failed');
        throw error;
      });
      // Nothing recorded, so no BookChanged: a screen waiting for this analysis is told (TaskFailed).
      if (outcome === 'skipped') announceAnalysisFailed(ctx, bookId, 'book-changed');
      if (outcome === 'deferred') {
        // The book keeps its former status (unreadable) meanwhile: retried until the import is done.
        const backingOff = attempt < analysisRetry.backOffSteps;
        const delay = backingOff ? Math.min(analysisRetry.maxMs, analysisRetry.baseMs * 2 ** attempt) : analysisRetry.maxMs;
        const reads = backingOff ? seriesJson : undefined;
        // The queue holds the wait: counted as a waiting analysis, its stored row kept (a restart
        // meanwhile runs the analysis again at start), ended by "cancel all tasks", which says so.
        ctx.tasks.retryLater(
          'AnalyzeBook',
          key,
          delay,
          () => submitBookAnalysis(ctx, bookId, Math.min(attempt + 1, analysisRetry.backOffSteps), reads),
          () => announceAnalysisFailed(ctx, bookId, 'cancelled'),
        );
        return;
      }
      // The file options (repairExtensions, convertToCbz) rewrite a readable book's file; a
      // converted book asks for its own analysis again.
      if (outcome === 'ready') await applyBookFileOptions(ctx, bookId);
      // The follow-up tasks' stored rows in one commit, deciding on one reading of the book's rows;
      // this task's own row goes in it too (a crash cannot leave both to run).
      ctx.db.transaction(() => {
        const book = ctx.repos.books.findById(bookId);
        const media = ctx.repos.media.findByBookId(bookId);
        submitPosterGeneration(ctx, bookId, media);
        submitBarcodeSearch(ctx, bookId, book, media);
        submitBookHash(ctx, bookId, book);
        submitPageHashing(ctx, bookId, book);
        ctx.tasks.finishStored(key);
      })();
    },
    5,
    { bookId },
  );
}

/** Repairs the extension of, or converts to CBZ, a book already analysed (after a scan). */
function submitFileOptions(ctx: FolioContext, bookId: string): void {
  // Not kept across restarts: the next scan finds the book again.
  ctx.tasks.submit('ConvertBook', `ConvertBook:${bookId}`, () => applyBookFileOptions(ctx, bookId), 2);
}

/**
 * Draws the poster of a freshly analysed book in the background, so browsing a new library
 * does not wait for dozens of posters to be generated on first view. (Not persisted: a poster
 * that was not drawn is drawn on first request.)
 */
export function submitPosterGeneration(ctx: FolioContext, bookId: string, media = ctx.repos.media.findByBookId(bookId)): void {
  if (media?.status !== 'READY') return;
  if (ctx.repos.thumbnails.findSelectedForBook(bookId)) return;
  ctx.tasks.submit('GenerateBookThumbnail', `GenerateBookThumbnail:${bookId}`, async () => {
    await bookThumbnail(ctx, bookId);
  }, 1);
}

/** Hashes the book file when its library wants hashes and it has none yet (lowest priority). */
export function submitBookHash(ctx: FolioContext, bookId: string, book = ctx.repos.books.findById(bookId)): void {
  if (!book || book.fileHash !== '' || book.deletedDate !== null) return;
  if (!ctx.repos.libraries.findById(book.libraryId)?.hashFiles) return;
  ctx.tasks.submit('HashBook', `HashBook:${bookId}`, () => hashBookFile(ctx, bookId), 0, { bookId });
}

/**
 * The barcode ISBN search that analysis leaves out (the other metadata sources ran with it), at
 * the lowest priority, queued only when it can find something (option on, READY, ISBN empty and
 * unlocked). Komga's task type; its own key, so a full refresh asked meanwhile still runs.
 */
export function submitBarcodeSearch(
  ctx: FolioContext,
  bookId: string,
  book = ctx.repos.books.findById(bookId),
  media = book && ctx.repos.media.findByBookId(bookId),
): void {
  if (!book || media?.status !== 'READY' || !barcodeSearchWanted(ctx, book)) return;
  ctx.tasks.submit('RefreshBookMetadata', `BarcodeIsbn:${bookId}`, async () => {
    if (!(await importBarcodeIsbn(ctx, bookId))) return;
    const found = ctx.repos.books.findById(bookId);
    if (found) ctx.events.emit({ name: 'BookChanged', data: { bookId, seriesId: found.seriesId, libraryId: found.libraryId } });
  }, 0, { bookId, barcodeOnly: true });
}

/**
 * An administrator's "analyse" of a library or a series: one analysis per book, sharing one reading
 * of each folder's series.json as a scan's analyses do (a file changed meanwhile is still read
 * again). Not kept past this action's tasks: a later action reads every file afresh.
 */
export function submitBooksAnalysis(ctx: FolioContext, bookIds: readonly string[]): void {
  const seriesJson = new SeriesJsonReads();
  // The stored rows of every queued analysis in one commit, as a scan stores them.
  ctx.db.transaction(() => {
    for (const bookId of bookIds) submitBookAnalysis(ctx, bookId, 0, seriesJson);
  })();
}

/** An administrator's "refresh metadata" of a library or a series: as submitBooksAnalysis, for the refresh. */
export function submitMetadataRefreshes(ctx: FolioContext, bookIds: readonly string[]): void {
  const seriesJson = new SeriesJsonReads();
  ctx.db.transaction(() => {
    for (const bookId of bookIds) submitMetadataRefresh(ctx, bookId, seriesJson);
  })();
}

/** `seriesJson`: the series.json files of the action that queued the refresh, read once per folder. */
export function submitMetadataRefresh(ctx: FolioContext, bookId: string, seriesJson?: SeriesJsonReads): void {
  ctx.tasks.submit('RefreshBookMetadata', `RefreshBookMetadata:${bookId}`, async () => {
    await refreshBookMetadata(ctx, bookId, { seriesJson });
    const book = ctx.repos.books.findById(bookId);
    if (book) ctx.events.emit({ name: 'BookChanged', data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId } });
  }, 0, { bookId });
}

/** Empties a library's trash in the background (kept across restarts like the other tasks). */
export function submitEmptyTrash(ctx: FolioContext, libraryId: string): void {
  ctx.tasks.submit('EmptyTrash', `EmptyTrash:${libraryId}`, async () => void (await emptyTrash(ctx, libraryId)), 0, { libraryId });
}

export function liveBookIds(ctx: FolioContext, libraryId: string, seriesId?: string): string[] {
  const books = seriesId ? ctx.repos.books.findBySeries(seriesId) : ctx.repos.books.findByLibrary(libraryId);
  return books.filter((b) => b.deletedDate === null).map((b) => b.id);
}
