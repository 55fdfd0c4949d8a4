import type { Book } from '../../db/book-repository.ts';
import { type ConvertFormat, convertImage, previewJpeg } from '../../media/image-transcode.ts';
import type { FolioContext } from '../context.ts';
import { type PageContent, openBookPage } from './page-content.ts';

export type { ConvertFormat } from '../../media/image-transcode.ts';

/**
 * An opened page re-encoded as `format` (the page routes' `?convert=`), within the decode limits:
 * a page over them is refused with ERR_1007. The page's stream is consumed.
 */
export function convertedPage(content: PageContent, format: ConvertFormat): Promise<Buffer> {
  return convertImage(content.stream, content.page.fileSize, format);
}

/**
 * A JPEG preview of one page, at most `edge` pixels on its longest side (page-hash previews).
 * Undefined when the book or page does not exist.
 */
export async function pagePreview(ctx: FolioContext, book: Book | string, number: number, edge: number): Promise<Buffer | undefined> {
  const content = await openBookPage(ctx, book, number);
  if (!content) return undefined;
  return previewJpeg(content.stream, content.page.fileSize, edge);
}
