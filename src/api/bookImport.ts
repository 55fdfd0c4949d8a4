import { apiUrl, sendJson } from './http.ts';
import type { IsoDateTime, MediaStatus, PageDto } from './types.ts';

/**
 * How Folio's own failed-import messages start (BookImported `message`; Komga's are error codes):
 * given up after being put off for an hour, or cancelled before it ran. The server writes them
 * (server/domain/import/import-task.ts); tests/unit/server/import-given-up.test.ts holds both sides together.
 */
export const IMPORT_GIVEN_UP_PREFIX = 'Import given up after being put off';
export const IMPORT_CANCELLED_PREFIX = 'Import cancelled before it ran';

/** A file outside the libraries, scanned (and maybe analysed) for import (REFERENCE "transient books"). */
export interface TransientBookDto {
  id: string;
  name: string;
  url: string;
  fileLastModified: IsoDateTime;
  sizeBytes: number;
  size: string;
  mediaType: string;
  status: MediaStatus;
  comment: string;
  pages: PageDto[];
  files: string[];
  seriesId?: string | null;
  number?: number | null;
}

export function scanForImport(path: string): Promise<TransientBookDto[]> {
  return sendJson('POST', '/api/v1/transient-books', 'scan_import_folder', { json: { path } });
}

export function analyseTransientBook(id: string): Promise<TransientBookDto> {
  return sendJson('POST', `/api/v1/transient-books/${encodeURIComponent(id)}/analyze`, 'analyse_import_book');
}

export type CopyMode = 'HARDLINK' | 'MOVE';

export interface BookImportRequest {
  sourceFile: string;
  seriesId: string;
  upgradeBookId?: string;
  destinationName?: string;
}

export async function importBooks(books: BookImportRequest[], copyMode: CopyMode): Promise<void> {
  await sendJson('POST', '/api/v1/books/import', 'import_books', { json: { books, copyMode } });
}

/** A page of a scanned (not yet imported) book, 1-based. */
export function transientPageUrl(id: string, pageNumber: number): string {
  return apiUrl(`/api/v1/transient-books/${encodeURIComponent(id)}/pages/${pageNumber}`);
}
