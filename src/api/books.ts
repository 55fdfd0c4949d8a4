import { apiUrl, getJson, getJsonNow, sendJson } from './http.ts';
import { pageQuery, type PageRequest } from './paging.ts';
import type { BookDto, MediaStatus, Page, PageDto, ReadProgressUpdateDto, ReadStatus } from './types.ts';

export interface BookFilter {
  libraryId?: string[];
  mediaStatus?: MediaStatus[];
  readStatus?: ReadStatus[];
  search?: string;
}

export function getBooks(filter: BookFilter = {}, paging?: PageRequest): Promise<Page<BookDto>> {
  return getJson('/api/v1/books', 'retrieve_books', {
    query: {
      library_id: filter.libraryId,
      media_status: filter.mediaStatus,
      read_status: filter.readStatus,
      search: filter.search,
      ...pageQuery(paging),
    },
  });
}

/** `now`: the request leaves within this call (see getJsonNow), for a book being opened. */
export function getBook(bookId: string, { now = false } = {}): Promise<BookDto> {
  return (now ? getJsonNow : getJson)<BookDto>(`/api/v1/books/${encodeURIComponent(bookId)}`, 'retrieve_book');
}

export function getBookPages(bookId: string, { now = false } = {}): Promise<PageDto[]> {
  return (now ? getJsonNow : getJson)<PageDto[]>(`/api/v1/books/${encodeURIComponent(bookId)}/pages`, 'retrieve_book_pages');
}

export async function updateReadProgress(
  bookId: string,
  progress: ReadProgressUpdateDto,
  signal?: AbortSignal,
): Promise<void> {
  await sendJson('PATCH', `/api/v1/books/${encodeURIComponent(bookId)}/read-progress`, 'update_read_progress', {
    json: progress,
    signal,
  });
}

/**
 * The same PATCH for a page that is being closed: `keepalive` lets the request outlive the page, so
 * the last page turned just before closing the tab is not lost. Fire and forget.
 */
export function sendReadProgressKeepalive(bookId: string, progress: ReadProgressUpdateDto): void {
  void fetch(apiUrl(`/api/v1/books/${encodeURIComponent(bookId)}/read-progress`), {
    method: 'PATCH',
    keepalive: true,
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify(progress),
  }).catch((error: unknown) => console.warn(`The progress in book ${bookId} could not be saved while the page closed`, error));
}

export async function deleteReadProgress(bookId: string): Promise<void> {
  await sendJson('DELETE', `/api/v1/books/${encodeURIComponent(bookId)}/read-progress`, 'delete_read_progress');
}

export function bookThumbnailUrl(bookId: string): string {
  return apiUrl(`/api/v1/books/${encodeURIComponent(bookId)}/thumbnail`);
}

/**
 * The version of a book's pages as Folio's server names it (`v` of a page URL): a page asked for
 * with its book's current version may be cached without revalidation, because that address can
 * never show other bytes. Built from the book's size and file date, which change with its file.
 */
export function pageVersion(book: Pick<BookDto, 'sizeBytes' | 'fileLastModified'>): string {
  return `${book.sizeBytes.toString(36)}.${book.fileLastModified}`;
}

/**
 * URL of one page (1-based). `convert` asks the server to re-encode formats the browser cannot
 * decode; `version` (see pageVersion) makes the answer cacheable for good.
 */
export function pageUrl(bookId: string, pageNumber: number, convert?: 'jpeg' | 'png', version?: string): string {
  const params = new URLSearchParams();
  if (convert) params.set('convert', convert);
  if (version) params.set('v', version);
  const query = params.size ? `?${params}` : '';
  return apiUrl(`/api/v1/books/${encodeURIComponent(bookId)}/pages/${pageNumber}${query}`);
}

export function pageThumbnailUrl(bookId: string, pageNumber: number): string {
  return apiUrl(`/api/v1/books/${encodeURIComponent(bookId)}/pages/${pageNumber}/thumbnail`);
}
