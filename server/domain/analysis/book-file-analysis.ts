import { analyseOpened } from '../../media/analyse-container.ts';
import type { ThreadAnalysis } from './analysis-threads.ts';
import type { FolioContext } from '../context.ts';
import { libraryRoots } from '../library/library-paths.ts';

/** A book file's listing and page headers, with the media type of the format its content is in. */
export type BookFileAnalysis = ThreadAnalysis;

/**
 * Reads a book file for analysis. Zip-based books (nearly all of a comics library) are read in an
 * analysis thread, under the same symlink containment as every read and with their descriptor
 * counted against the archive pool; other formats, and a file whose content turns out to be one,
 * through a fresh handle of the archive pool on this thread. Either way, failures throw what the
 * analyser classifies: MediaError for a bad file, a transient error for a busy server.
 */
export async function analyseBookFile(ctx: FolioContext, filePath: string, withDimensions: boolean): Promise<BookFileAnalysis> {
  if (ctx.analysisThreads.handles(filePath)) {
    const task = { filePath, libraryRoots: libraryRoots(ctx), withDimensions };
    const inThread = await ctx.archives.withBorrowedCapacity(() => ctx.analysisThreads.analyse(task));
    if (inThread) return inThread;
  }
  const { reader, pages, files, failedEntries, pageCount, epubDivinaCompatible } = await ctx.archives.withFreshHandle(filePath, ({ reader, book }) =>
    analyseOpened(reader, book, withDimensions),
  );
  return { mediaType: reader.mediaType, pages, files, failedEntries, pageCount, epubDivinaCompatible };
}
