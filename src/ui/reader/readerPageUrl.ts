import { pageUrl } from '../../api/books.ts';
import { needsConversion } from '../../engine/mediaTypes.ts';
import type { PageInfo } from '../../engine/types.ts';

/**
 * The address the reader decodes a page from: as stored, or converted to JPEG when the browser cannot
 * show its format. One function, so a decode started ahead of the view asks for the view's own URL.
 */
export function readerPageUrl(bookId: string, page: Pick<PageInfo, 'number' | 'mediaType'>, version?: string): string {
  return pageUrl(bookId, page.number, needsConversion(page.mediaType) ? 'jpeg' : undefined, version);
}
