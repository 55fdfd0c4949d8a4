import type { Book } from '../../db/book-repository.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import { MAX_DECODE_INPUT_BYTES, readForDecode } from '../../media/image-decode.ts';
import type { FolioContext } from '../context.ts';
import { bookArchive, openBookPage } from './page-content.ts';

/**
 * Runs `work` on the stored bytes of page `number` (1-based) of a book, for the background work that
 * decodes pages (posters, the barcode search). A stored page of known size is read whole, in one
 * positioned read into a buffer lent by the archive pool (no stream stages, no copy), and given
 * back once `work` is done; drawn pages (PDF), pages of unknown size and reads past the pool's
 * budget are streamed instead. Either way the decode input limits of image-decode.ts hold.
 * Undefined when the page does not exist. The bytes must not be kept after `work` settles.
 */
export async function withPageBytes<T>(
  ctx: FolioContext,
  book: Book,
  number: number,
  work: (bytes: Buffer, page: MediaPage) => Promise<T>,
): Promise<T | undefined> {
  const page = ctx.repos.media.findPage(book.id, number);
  if (!page) return undefined;
  if (page.fileSize !== null && page.fileSize <= MAX_DECODE_INPUT_BYTES) {
    // The archive the page routes use, so the poster, the barcode search and readers share one open archive.
    const archive = await bookArchive(ctx, book);
    if (!archive.renderPage) {
      const whole = await archive.readWholeEntry(page.fileName, page.fileSize);
      if (whole) {
        try {
          return await work(whole.bytes, page);
        } finally {
          whole.release();
        }
      }
    }
  }
  const content = await openBookPage(ctx, book, number);
  if (!content) return undefined;
  return work(await readForDecode(content.stream, content.page.fileSize), content.page);
}
