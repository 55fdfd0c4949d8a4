import { apiUrl, getJson, sendJson } from './http.ts';
import { pageQuery, type PageRequest } from './paging.ts';
import type { BookDto, Page } from './types.ts';

/** Books sharing a file hash with another book (ADMIN). */
export function getDuplicateBooks(paging?: PageRequest): Promise<Page<BookDto>> {
  return getJson('/api/v1/books/duplicates', 'retrieve_books', { query: pageQuery(paging) });
}

export const PAGE_HASH_ACTIONS = ['DELETE_AUTO', 'DELETE_MANUAL', 'IGNORE'] as const;
export type PageHashAction = (typeof PAGE_HASH_ACTIONS)[number];

export interface PageHashKnownDto {
  hash: string;
  size: number | null;
  action: PageHashAction;
  deleteCount: number;
  matchCount: number;
  created: string;
  lastModified: string;
}

export interface PageHashUnknownDto {
  hash: string;
  size: number | null;
  matchCount: number;
}

export function getKnownPageHashes(action: PageHashAction | undefined, paging?: PageRequest): Promise<Page<PageHashKnownDto>> {
  return getJson('/api/v1/page-hashes', 'retrieve_known_page_hashes', { query: { action, ...pageQuery(paging) } });
}

export function getUnknownPageHashes(paging?: PageRequest): Promise<Page<PageHashUnknownDto>> {
  return getJson('/api/v1/page-hashes/unknown', 'retrieve_unknown_page_hashes', { query: pageQuery(paging) });
}

/** Gives a page hash an action (the page then counts as known). `size` -1 when unknown (SPEC §9). */
export async function setPageHashAction(hash: string, size: number | null, action: PageHashAction): Promise<void> {
  await sendJson('PUT', '/api/v1/page-hashes', 'add_page_hash', { json: { hash, size: size ?? -1, action } });
}

/** Deletes every page matching a known hash from the books that contain it. */
export async function deleteAllPageHashMatches(hash: string): Promise<void> {
  await sendJson('POST', `/api/v1/page-hashes/${encodeURIComponent(hash)}/delete-all`, 'delete_matches');
}

export function knownPageHashThumbnailUrl(hash: string): string {
  return apiUrl(`/api/v1/page-hashes/${encodeURIComponent(hash)}/thumbnail`);
}

export function unknownPageHashThumbnailUrl(hash: string): string {
  return apiUrl(`/api/v1/page-hashes/unknown/${encodeURIComponent(hash)}/thumbnail?resize=200`);
}

/** One page of a book carrying a known hash (PageHashMatchDto). */
export interface PageHashMatchDto {
  bookId: string;
  url: string;
  pageNumber: number;
  fileName: string;
  fileSize: number;
  mediaType: string;
}

export function getPageHashMatches(hash: string, paging?: PageRequest): Promise<Page<PageHashMatchDto>> {
  return getJson(`/api/v1/page-hashes/${encodeURIComponent(hash)}`, 'retrieve_matches', { query: pageQuery(paging) });
}

/** Removes one matching page from its book (the file is rewritten in the background). */
export async function deletePageHashMatch(hash: string, match: PageHashMatchDto): Promise<void> {
  await sendJson('POST', `/api/v1/page-hashes/${encodeURIComponent(hash)}/delete-match`, 'delete_matches', {
    json: { bookId: match.bookId, pageNumber: match.pageNumber, fileName: match.fileName },
  });
}
