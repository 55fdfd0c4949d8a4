import type { BookDto } from '../../api/types.ts';

/**
 * A reflowable (text) EPUB: read in the EPUB reader. EPUBs made only of images are read page by
 * page like comics (their pages are images the server lists).
 */
export function isTextEpub(book: Pick<BookDto, 'media'>): boolean {
  return book.media.mediaProfile === 'EPUB' && !book.media.epubDivinaCompatible;
}
