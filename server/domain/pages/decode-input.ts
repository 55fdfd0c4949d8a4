import type { Book } from '../../db/book-repository.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import { checkDecodeInput, imageDecoding, withDecodeInput } from '../../media/image-decode.ts';
import { TimedOutInputs } from '../../media/timed-out-inputs.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import type { FolioContext } from '../context.ts';
import { servedPage } from './page-content.ts';

/**
 * Runs `work` on the stored bytes of page `number` (1-based) of a book, for the background work that
 * decodes pages (posters, the barcode search). The page is had as the page route has it
 * (servedPage): a stored page of known size is read whole, in one positioned read into a buffer
 * lent by the archive pool (no stream stages, no copy), and given back once `work` is done; drawn
 * pages (PDF), pages of unknown size and reads past the pool's budget are streamed instead. The
 * decode input limits of image-decode.ts hold either way: streams go through withDecodeInput, bytes
 * read whole through checkDecodeInput (RAR and 7z pages are read whole up to their 128 MiB page
 * limit, over the 64 MiB decode limit). Undefined when the page does
 * not exist. The bytes must not be kept after `work` settles. A page whose decode ran out of time
 * lately fails at once (see decodingPage).
 */
export async function withPageBytes<T>(
  ctx: FolioContext,
  book: Book,
  number: number,
  work: (bytes: Buffer, page: MediaPage) => Promise<T>,
  options: MediaWork = {},
): Promise<T | undefined> {
  return decodingPage(book, number, async () => {
    const served = await servedPage(ctx, book, number, options);
    if (!served) return undefined;
    if ('whole' in served) {
      try {
        return await work(checkDecodeInput(served.whole.bytes), served.page);
      } finally {
        served.whole.release();
      }
    }
    return withDecodeInput(served.stream, served.page.fileSize, options, (bytes) => work(bytes, served.page));
  });
}

/** Pages (book, page, file date and size) whose decode ran out of time lately. */
const timedOutPages = new TimedOutInputs();

/**
 * Runs `work`, which decodes page `number` of `book` (or the cover it declares), unless that page's
 * decode ran out of time lately: then it fails at once with OperationTimeout (503), so a hostile
 * page costs one decode time limit per ten minutes, not one core per request. Every decode of a
 * page goes through here (posters, page thumbnails, conversions, previews, the barcode search); a
 * changed book file is another version, decoded afresh.
 */
export function decodingPage<T>(book: Pick<Book, 'id' | 'url' | 'fileLastModified' | 'fileSize'>, number: number | 'cover', work: () => Promise<T>): Promise<T> {
  const key = `${book.id}\u0000${number}\u0000${book.fileLastModified}\u0000${book.fileSize}`;
  const what = number === 'cover' ? `decoding the cover of ${book.url}` : `decoding page ${number} of ${book.url}`;
  return timedOutPages.run(key, what, imageDecoding.timeoutSeconds * 1000, work);
}
