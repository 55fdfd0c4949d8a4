import type { Book } from '../../db/book-repository.ts';
import { type ConvertFormat, type ConvertedImage, convertImage, previewJpeg } from '../../media/image-transcode.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import type { FolioContext } from '../context.ts';
import { type PageContent, openBookPage } from './page-content.ts';
import { decodingPage } from './decode-input.ts';

export type { ConvertFormat, ConvertedImage } from '../../media/image-transcode.ts';

/**
 * An opened page re-encoded as `format` (the page routes' `?convert=`), within the decode limits:
 * a page over them is refused with ERR_1007. The page's stream is consumed. Its bytes stay counted
 * in the conversions' budget until `release` (once the response has closed).
 */
export function convertedPage(book: Book, content: PageContent, format: ConvertFormat, work: MediaWork = {}): Promise<ConvertedImage> {
  return decodingPage(book, content.page.number, () => convertImage(content.stream, content.page.fileSize, format, work));
}

/**
 * A JPEG preview of one page, at most `edge` pixels on its longest side (page-hash previews).
 * Undefined when the book or page does not exist.
 */
export async function pagePreview(ctx: FolioContext, bookOrId: Book | string, number: number, edge: number, work: MediaWork = {}): Promise<Buffer | undefined> {
  const book = typeof bookOrId === 'string' ? ctx.repos.books.findById(bookOrId) : bookOrId;
  if (!book) return undefined;
  return decodingPage(book, number, async () => {
    const content = await openBookPage(ctx, book, number, work);
    if (!content) return undefined;
    return previewJpeg(content.stream, content.page.fileSize, edge, work);
  });
}
