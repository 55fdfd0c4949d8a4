import type { Book } from '../../db/book-repository.ts';
import type { Media, MediaFile } from '../../db/media-repository.ts';

/**
 * What an analysis has just read and recorded of a book (its row, media and files), handed to the
 * metadata sources so that they do not read the same rows again: a scan analyses thousands of books.
 */
export interface AnalysedBook {
  book: Book;
  media: Media;
  files: readonly MediaFile[];
}
