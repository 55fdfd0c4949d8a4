import { extname } from 'node:path';
import type { BookReader, MediaProfile } from './book-reader.ts';
import { epubReader } from './epub-reader.ts';
import { pdfReader } from './pdf-reader.ts';
import { rar4Reader, rar5Reader } from './rar-reader.ts';
import { sevenZipReader } from './sevenzip-reader.ts';
import { zipReader } from './zip-reader.ts';

/**
 * Every supported container format; the scanner and analyser pick from this list. EPUB comes
 * before zip: both start with a zip header, the EPUB signature is the more specific one.
 */
export const BOOK_READERS: readonly BookReader[] = [epubReader, zipReader, rar4Reader, rar5Reader, sevenZipReader, pdfReader];

export function bookExtension(filePath: string): string {
  return extname(filePath).slice(1).toLowerCase();
}

export function readerForExtension(filePath: string): BookReader | undefined {
  const ext = bookExtension(filePath);
  return BOOK_READERS.find((r) => r.extensions.includes(ext));
}

export function readerForSignature(head: Buffer): BookReader | undefined {
  return BOOK_READERS.find((r) => r.matchesSignature(head));
}

/** The profile of books of a media type (as analysis stored it); undefined for none we read. */
export function mediaProfileOf(mediaType: string | null): MediaProfile | undefined {
  return BOOK_READERS.find((r) => r.mediaType === mediaType)?.mediaProfile;
}
