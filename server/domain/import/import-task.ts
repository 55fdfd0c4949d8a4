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
  ctx.tasks.submit('ImportBook', `ImportBook:${sourceFile}`, async () => {
    try {
      placed ??= await placeImportedBook(ctx, request, copyMode);
      const bookId = await registerImportedBook(ctx, placed);
      ctx.events.emit({ name: 'BookImported', data: { bookId, sourceFile, success: true, message: null }, adminOnly: true });
    } catch (error) {
      if (putOffReason(error) !== undefined) throw error;
      if (!(error instanceof ImportError)) ctx.logger.error({ err: error, sourceFile }, 'book import failed');
      const message = error instanceof ImportError ? error.code : 'ERR_1022';
      ctx.events.emit({ name: 'BookImported', data: { bookId: null, sourceFile, success: false, message }, adminOnly: true });
    }
  });
}
