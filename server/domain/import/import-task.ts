import type { FolioContext } from '../context.ts';
import { putOffReason } from '../tasks/put-off.ts';
import { type BookImportRequest, type CopyMode, ImportError, type PlacedImport, placeImportedBook, registerImportedBook } from './book-import.ts';

/**
 * Queues the import of one outside file; its outcome is announced to administrators as a
 * BookImported event. A failure of the server (a locked or full database, a shortage of
 * descriptors: put-off.ts) is not the import's: it is rethrown, so the task queue puts the task off
 * and runs it again as it does every task, instead of telling the client ERR_1022 for a file that
 * may already be in its series folder. A retry goes on from where the import was: once the file is
 * placed (the source gone for MOVE, the destination taken) only the scan and history are run again.
 */
export function submitBookImport(ctx: FolioContext, request: BookImportRequest, copyMode: CopyMode): void {
  const { sourceFile } = request;
  let placed: PlacedImport | undefined;
  const failed = (message: string) => ctx.events.emit({ name: 'BookImported', data: { bookId: null, sourceFile, success: false, message }, adminOnly: true });
  ctx.tasks.submit(
    'ImportBook',
    `ImportBook:${sourceFile}`,
    async () => {
      try {
        placed ??= await placeImportedBook(ctx, request, copyMode);
        const bookId = await registerImportedBook(ctx, placed);
        ctx.events.emit({ name: 'BookImported', data: { bookId, sourceFile, success: true, message: null }, adminOnly: true });
      } catch (error) {
        if (putOffReason(error) !== undefined) throw error;
        if (!(error instanceof ImportError)) ctx.logger.error({ err: error, sourceFile }, 'book import failed');
        failed(error instanceof ImportError ? error.code : 'ERR_1022');
      }
    },
    0,
    undefined,
    // Put off for an hour and dropped, or cancelled: the import screen waits for this file's outcome.
    (why) => {
      // Where the file is: with MOVE once placed, in its series folder, and no book until a scan.
      const where = { sourceFile, copyMode, placedAt: placed?.destination ?? null, seriesId: request.seriesId };
      if (why.kind === 'given-up') {
        ctx.logger.error({ err: why.error, ...where, reason: why.reason, tries: why.tries }, 'book import given up: put off for too long');
        failed(`${IMPORT_GIVEN_UP}: ${why.reason}`);
      } else {
        ctx.logger.warn(where, 'book import cancelled before it ran');
        failed(IMPORT_CANCELLED);
      }
    },
  );
}

/**
 * The messages of a failed BookImported that no Komga error code says (Komga gives up on nothing and
 * cancels no import): in plain English for other clients; Folio's recognises them by their start
 * (src/api/bookImport.ts, IMPORT_GIVEN_UP_PREFIX and IMPORT_CANCELLED_PREFIX) and says them in the
 * user's language.
 */
export const IMPORT_GIVEN_UP = 'Import given up after being put off for an hour';
export const IMPORT_CANCELLED = 'Import cancelled before it ran';
