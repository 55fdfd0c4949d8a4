import { MediaError } from '../media/book-reader.ts';
import { analyseOpened } from '../media/analyse-container.ts';
import type { Media, MediaFile, MediaPage } from '../db/media-repository.ts';
import type { FolioContext } from './context.ts';
import { applyBookFileOptions } from './book-file-options.ts';
import { removeGeneratedThumbnails } from './book-thumbnails.ts';
import { refreshBookMetadata } from './metadata-refresh.ts';
import { detectWebtoonSeries } from './webtoon-detection.ts';

/**
 * Analyses one book file and records the outcome. Failures become media status ERROR with a Komga
 * error code in `comment`; they never throw, so one broken file cannot stop a library.
 */
export async function analyseBook(ctx: FolioContext, bookId: string): Promise<void> {
  const book = ctx.repos.books.findById(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !media || book.deletedDate !== null) return;
  const library = ctx.repos.libraries.findById(book.libraryId);
  const now = Date.now();
  let next: Media;
  let pages: MediaPage[] = [];
  let files: MediaFile[] = [];
  try {
    const result = await ctx.archives.withFreshHandle(book.url, ({ reader, book: opened }) =>
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
    if (result.failedEntries.length > 0) comments.push('ERR_1007');
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
    if (pages.length === 0) pages = [];
  } catch (error) {
    const code = error instanceof MediaError ? error.code : 'ERR_1005';
    if (!(error instanceof MediaError)) ctx.log(`analysis of ${book.url} failed`, error);
    next = { ...media, status: 'ERROR', mediaType: null, comment: code, pageCount: 0, lastModified: now };
    pages = [];
    files = [];
  }
  // The file may have been removed or re-queued while we were reading it.
  if (!ctx.repos.books.findById(bookId)) return;
  ctx.repos.media.replaceAnalysis(next, pages, files);
  ctx.archives.forget(book.url);
  await removeGeneratedThumbnails(ctx, bookId);
  if (next.status === 'READY') {
    await refreshBookMetadata(ctx, bookId, { barcode: false });
    detectWebtoonSeries(ctx, book.seriesId, pages);
  }
  ctx.events.emit({ name: 'BookChanged', data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId } });
  if (next.status === 'READY') await applyBookFileOptions(ctx, bookId);
}
