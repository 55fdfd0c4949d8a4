import { withDecodeInput } from '../../media/image-decode.ts';
import { isTransientFailure } from '../../media/transient-errors.ts';
import { type DrawnThumbnail, thumbnailJpeg } from '../../media/image-transcode.ts';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../../db/ids.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import type { FolioContext } from '../context.ts';
import { openBookCover } from './book-cover.ts';
import { decodingPage, withPageBytes } from '../pages/decode-input.ts';
import { thumbnailMaxEdge } from '../server-settings.ts';
import { type ThumbnailFile, thumbnailFilePath } from './thumbnail-files.ts';
import { GENERATED_POSTER_GONE, posterVersion, readSelectedPoster } from './chosen-poster.ts';
import { barcodeSearchWanted } from '../metadata/barcode-isbn.ts';
import { posterAndBarcodeLook } from '../../media/cover-look.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import { type CachedFile, smallFiles } from '../small-file-cache.ts';
import type { BookThumbnail } from '../../db/thumbnail-repository.ts';
import { storeDrawnPoster } from './poster-storage.ts';
import { SharedWork } from '../shared-work.ts';
import { requireWriter } from '../needs-primary.ts';

export type { ThumbnailFile };

/** One drawing of a book's poster at a time, for whoever asks (a request waits at most its limit). */
const drawing = new SharedWork<ThumbnailFile | null>();

/**
 * The selected poster of a book, generating it from page 1 on first request: a JPEG whose longest
 * edge is the thumbnailSize server setting (300 px by default), cached under
 * <data dir>/thumbnails/books. Null when the book has no readable first page. A chosen poster that
 * cannot be read now throws (chosen-poster.ts): it is never replaced by a drawn one for that.
 */
export async function bookThumbnail(
  ctx: FolioContext,
  bookId: string,
  existing: BookThumbnail | undefined = ctx.repos.thumbnails.findSelectedForBook(bookId),
  work: MediaWork = {},
): Promise<ThumbnailFile | null> {
  if (!existing) return generate(ctx, bookId, work);
  const { bookId: ownerId, ...row } = existing;
  // Read through the small-file cache: the route then serves these very bytes without touching the disk.
  const chosen = await readSelectedPoster(ctx, 'books', bookId, { ...row, ownerId });
  if (chosen === GENERATED_POSTER_GONE) return regenerateBookThumbnail(ctx, bookId, work);
  return chosen ?? generate(ctx, bookId, work);
}

/**
 * The poster's bytes when memory holds exactly the version its record names (the usual case once
 * it was served once), without waiting; undefined when the disk must be looked at (`bookThumbnail`).
 * Sidecars, which may change behind the server's back, always go through `bookThumbnail`.
 */
export function keptBookPoster(ctx: FolioContext, poster: BookThumbnail): CachedFile | undefined {
  const version = posterVersion(poster);
  return version === undefined ? undefined : smallFiles.peek(thumbnailFilePath(ctx, poster), version);
}

/** Draws a book's poster; one drawing at a time per book, done for whoever asked first. */
function generate(ctx: FolioContext, bookId: string, work: MediaWork): Promise<ThumbnailFile | null> {
  // Drawn once and stored, by the writer: a serving process hands the request over.
  requireWriter(ctx, `drawing the poster of book ${bookId}`);
  return drawing.run(bookId, () => generateNow(ctx, bookId, work), work, `the poster of book ${bookId}`);
}

async function generateNow(ctx: FolioContext, bookId: string, work: MediaWork): Promise<ThumbnailFile | null> {
  const book = ctx.repos.books.findById(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || media?.status !== 'READY') return null;
  const edge = thumbnailMaxEdge(ctx.repos.serverSettings);
  // Page 1 is also searched for an ISBN barcode: one decode does both when the search will run.
  const lookForBars = barcodeSearchWanted(ctx, book);
  const draw = async (source: Buffer, page?: MediaPage): Promise<DrawnThumbnail | null> => {
    try {
      if (!lookForBars || !page?.width || !page.height) return await thumbnailJpeg(source, edge, 85, work);
      const { thumbnail, mayHoldBarcode } = await posterAndBarcodeLook(source, { width: page.width, height: page.height }, edge, 85, work);
      if (!mayHoldBarcode) ctx.pagesWithoutBars.remember(book, page.number);
      return thumbnail;
    } catch (error) {
      // A busy server (decode queue full, a time limit) says nothing about the page: try again later.
      if (isTransientFailure(error)) throw error;
      ctx.logger.warn({ err: error, bookId }, 'book poster not drawn: first page cannot be decoded');
      return null;
    }
  };
  let drawn: DrawnThumbnail | null | undefined;
  try {
    drawn = await withPageBytes(ctx, book, 1, draw, work);
    if (drawn === undefined) {
      // Books without page images (text EPUB) fall back to their declared cover.
      drawn = await decodingPage(book, 'cover', async () => {
        const cover = await openBookCover(ctx, bookId, work);
        return cover ? withDecodeInput(cover, undefined, work, (bytes) => draw(bytes)) : null;
      });
    }
  } catch (error) {
    // No archive handle or descriptor free: the caller answers 503 (a task fails and the poster is
    // drawn on first request), instead of a 404 or another book's poster standing in for it.
    if (isTransientFailure(error)) throw error;
    ctx.logger.warn({ err: error, bookId }, 'book poster not drawn: first page unreadable');
    return null;
  }
  if (!drawn) return null;
  const output = drawn;
  const relative = join('thumbnails', 'books', `${bookId}.jpg`);
  const absolutePath = join(ctx.dataDir, relative);
  // Written aside then renamed over the poster drawn before (its record names the same file): a
  // write cut short (a full disk) leaves that one whole, and a reader never sees half a file. A
  // data folder that cannot take it costs the reader nothing: the drawn bytes are served, and no
  // record names a file that is not there (the poster drawn before, if any, keeps its own).
  if (!(await storeDrawnPoster(ctx, absolutePath, output.data, { bookId }))) {
    return { absolutePath, mediaType: 'image/jpeg', lastModified: Date.now(), bytes: output.data };
  }
  const now = Date.now();
  ctx.repos.thumbnails.deleteGeneratedForBook(bookId);
  ctx.repos.thumbnails.insertGenerated({
    id: newId(now),
    bookId,
    type: 'GENERATED',
    filePath: relative,
    selected: true,
    mediaType: 'image/jpeg',
    width: output.width,
    height: output.height,
    fileSize: output.data.length,
    created: now,
    lastModified: now,
  });
  ctx.events.emit({ name: 'ThumbnailBookAdded', data: { bookId, seriesId: book.seriesId, selected: true } });
  return { absolutePath, mediaType: 'image/jpeg', lastModified: now };
}

/**
 * Draws a book's generated poster again, at the current thumbnail size. When the generated poster
 * was the selected one it stays selected; a chosen sidecar or uploaded poster keeps its place.
 */
export async function regenerateBookThumbnail(ctx: FolioContext, bookId: string, work: MediaWork = {}): Promise<ThumbnailFile | null> {
  const wasSelected = ctx.repos.thumbnails.findSelectedForBook(bookId)?.type === 'GENERATED';
  const result = await generate(ctx, bookId, work);
  const fresh = ctx.repos.thumbnails.list(bookId).find((t) => t.type === 'GENERATED');
  if (wasSelected && fresh && !fresh.selected) ctx.repos.thumbnails.markSelected(bookId, fresh.id);
  return result;
}

/** Forgets generated posters of a book whose content changed. */
export async function removeGeneratedThumbnails(ctx: FolioContext, bookId: string): Promise<void> {
  for (const relative of ctx.repos.thumbnails.deleteGeneratedForBook(bookId)) {
    await rm(join(ctx.dataDir, relative), { force: true });
  }
}
