import { isMainThread } from 'node:worker_threads';
import { analyseOpened, openByContent } from '../../media/analyse-container.ts';
import { MediaError } from '../../media/book-reader.ts';
import { epubReader } from '../../media/epub-reader.ts';
import { zipReader, useSynchronousReads } from '../../media/zip-reader.ts';
import { assertReadableBook } from '../library/library-paths.ts';
import type { ThreadFailure, ThreadOutcome, ThreadTask } from './analysis-thread-protocol.ts';

/**
 * The entry of an analysis thread (see analysis-threads.ts): one book's listing and page headers,
 * read away from the main thread, once the book was checked to lie inside its library. Zip-based
 * books only (CBZ, EPUB): the bulk of any library, and formats read with plain positioned reads.
 * RAR, 7-Zip and PDF have workers or decoders of their own and stay on the main thread's path.
 */

const THREAD_READERS = new Set([zipReader, epubReader]);

// In this thread reads block nothing but this thread.
if (!isMainThread) useSynchronousReads();

export default async function analyseInThread({ filePath, libraryRoots, withDimensions }: ThreadTask): Promise<ThreadOutcome> {
  try {
    // The same containment as every read through the archive pool, before the file is opened.
    await assertReadableBook(libraryRoots, filePath);
    const { reader, book } = await openByContent(filePath);
    try {
      // Its content says another format (a .cbz that is really a RAR): the main thread's path reads it.
      if (!THREAD_READERS.has(reader)) return { notHere: true };
      const { pages, files, failedEntries, pageCount, epubDivinaCompatible } = await analyseOpened(reader, book, withDimensions);
      return { analysis: { mediaType: reader.mediaType, pages, files, failedEntries, pageCount, epubDivinaCompatible } };
    } finally {
      book.close();
    }
  } catch (error) {
    return { failure: describeFailure(error) };
  }
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describeFailure(error: unknown): ThreadFailure {
  if (error instanceof MediaError) {
    let causeCode: string | undefined;
    for (let cause = error.cause, depth = 0; cause && depth < 8 && !causeCode; cause = (cause as { cause?: unknown }).cause, depth++) {
      causeCode = errnoCode(cause);
    }
    return { kind: 'media', code: error.code, message: error.message, ...(causeCode ? { causeCode } : {}) };
  }
  const code = errnoCode(error);
  if (code) return { kind: 'errno', code, message: String((error as Error).message ?? error) };
  return { kind: 'other', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
