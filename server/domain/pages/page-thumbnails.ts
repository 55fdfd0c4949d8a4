import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withDecodeInput } from '../../media/image-decode.ts';
import { thumbnailJpeg } from '../../media/image-transcode.ts';
import type { Book } from '../../db/book-repository.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import type { FolioContext } from '../context.ts';
import { openBookPage } from './page-content.ts';
import { keepInCache } from './cache-files.ts';
import { decodingPage } from './decode-input.ts';
import { isMissingFile, rethrowUnless } from '../../fs-errors.ts';
import { fileSlots } from '../../media/file-slots.ts';
import { SharedWork } from '../shared-work.ts';

/** Longest side of a page thumbnail (REFERENCE §4). */
export const PAGE_THUMBNAIL_SIZE = 300;

/** One drawing of a page's thumbnail at a time, for whoever asks (a request waits at most its limit). */
const drawing = new SharedWork<Buffer>();

/**
 * A page shrunk to 300 px on its longest side, as JPEG, cached on disk under
 * <data dir>/cache/page-thumbnails/<book>/<analysis time>/<page>.jpg. Drawing one means decoding the
 * whole page (20+ MP on scans), and the reader's page browser asks for dozens at once, so each is
 * drawn once per analysis of the book; a re-analysed book gets a new folder and the old one goes.
 * Undefined when the page does not exist; throws when the page cannot be decoded.
 */
export async function pageThumbnail(
  ctx: FolioContext,
  book: Book,
  analysedAt: number,
  number: number,
  work: MediaWork = {},
): Promise<Buffer | undefined> {
  const bookDir = join(ctx.dataDir, 'cache', 'page-thumbnails', book.id);
  const version = String(analysedAt);
  const file = join(bookDir, version, `${number}.jpg`);
  try {
    return await fileSlots.withSlot(() => readFile(file));
  } catch (error) {
    rethrowUnless(error, isMissingFile); // not drawn yet
  }
  const pending = drawing.run(
    file,
    () =>
      decodingPage(book, number, async () => {
        // Drawn pages (PDF) are drawn straight at thumbnail size.
        const content = await openBookPage(ctx, book, number, { maxWidth: PAGE_THUMBNAIL_SIZE, maxHeight: PAGE_THUMBNAIL_SIZE, ...work });
        if (!content) throw new PageMissing();
        const { data: bytes } = await withDecodeInput(content.stream, content.page.fileSize, work, (input) => thumbnailJpeg(input, PAGE_THUMBNAIL_SIZE, 80, work));
        await keepInCache(ctx, bookDir, version, file, bytes);
        return bytes;
      }),
    work,
    `the thumbnail of page ${number} of ${book.url}`,
  );
  try {
    return await pending;
  } catch (error) {
    if (error instanceof PageMissing) return undefined;
    throw error;
  }
}

class PageMissing extends Error {}
