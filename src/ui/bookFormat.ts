/**
 * The short name of a book file's format as readers know it (SPEC §3 book "format"), from the media
 * type the analysis found; an unknown type shows as itself.
 */
const FORMATS: Record<string, string> = {
  'application/zip': 'CBZ',
  'application/x-rar-compressed': 'CBR',
  'application/x-rar-compressed; version=4': 'CBR',
  'application/x-rar-compressed; version=5': 'CBR',
  'application/vnd.rar': 'CBR',
  'application/x-7z-compressed': 'CB7',
  'application/pdf': 'PDF',
  'application/epub+zip': 'EPUB',
};

export function bookFormat(mediaType: string): string {
  return FORMATS[mediaType.toLowerCase()] ?? mediaType;
}
