import { authorInAnyRole } from './authorFilter.ts';
import { apiUrl, getJson, sendJson } from './http.ts';
import { pageQuery, type PageRequest } from './paging.ts';
import { seriesFilterParams, type SeriesQuery } from './browse.ts';
import type { BookDto, IsoDateTime, Page, ReadStatus, SeriesDto } from './types.ts';

export interface CollectionDto {
  id: string;
  name: string;
  ordered: boolean;
  seriesIds: string[];
  createdDate: IsoDateTime;
  lastModifiedDate: IsoDateTime;
  filtered: boolean;
}

export interface ReadListDto {
  id: string;
  name: string;
  summary: string;
  ordered: boolean;
  bookIds: string[];
  createdDate: IsoDateTime;
  lastModifiedDate: IsoDateTime;
  filtered: boolean;
}

export function getCollections(
  filter: { libraryIds?: string[]; search?: string },
  paging?: PageRequest,
): Promise<Page<CollectionDto>> {
  return getJson('/api/v1/collections', 'retrieve_collections', {
    query: { library_id: filter.libraryIds, search: filter.search, ...pageQuery(paging) },
  });
}

export function getCollection(collectionId: string): Promise<CollectionDto> {
  return getJson(`/api/v1/collections/${encodeURIComponent(collectionId)}`, 'retrieve_collection');
}

/** A collection's series, narrowed by the series filters (SPEC §7). */
export function getCollectionSeries(collectionId: string, filter: Omit<SeriesQuery, 'letter'>, paging?: PageRequest): Promise<Page<SeriesDto>> {
  return getJson(`/api/v1/collections/${encodeURIComponent(collectionId)}/series`, 'retrieve_series', {
    query: { ...seriesFilterParams(filter), ...pageQuery(paging) },
  });
}

export function collectionThumbnailUrl(collectionId: string): string {
  return apiUrl(`/api/v1/collections/${encodeURIComponent(collectionId)}/thumbnail`);
}

export function getReadLists(
  filter: { libraryIds?: string[]; search?: string },
  paging?: PageRequest,
): Promise<Page<ReadListDto>> {
  return getJson('/api/v1/readlists', 'retrieve_readlists', {
    query: { library_id: filter.libraryIds, search: filter.search, ...pageQuery(paging) },
  });
}

export function getReadList(readListId: string): Promise<ReadListDto> {
  return getJson(`/api/v1/readlists/${encodeURIComponent(readListId)}`, 'retrieve_readlist');
}

/** A read list's books, narrowed by read status, book tag, author and library (SPEC §7). */
export function getReadListBooks(
  readListId: string,
  filter: { readStatus?: ReadStatus[]; tag?: string[]; author?: string[]; libraryIds?: string[] },
  paging?: PageRequest,
): Promise<Page<BookDto>> {
  return getJson(`/api/v1/readlists/${encodeURIComponent(readListId)}/books`, 'retrieve_books', {
    query: {
      library_id: filter.libraryIds,
      read_status: filter.readStatus,
      tag: filter.tag,
      author: authorInAnyRole(filter.author),
      ...pageQuery(paging),
    },
  });
}

export function readListThumbnailUrl(readListId: string): string {
  return apiUrl(`/api/v1/readlists/${encodeURIComponent(readListId)}/thumbnail`);
}

export function createCollection(name: string, seriesIds: string[]): Promise<CollectionDto> {
  return sendJson('POST', '/api/v1/collections', 'add_collection', { json: { name, ordered: false, seriesIds } });
}

export async function setCollectionSeries(collectionId: string, seriesIds: string[]): Promise<void> {
  await sendJson('PATCH', `/api/v1/collections/${encodeURIComponent(collectionId)}`, 'update_collection', {
    json: { seriesIds },
  });
}

export function createReadList(name: string, bookIds: string[]): Promise<ReadListDto> {
  return sendJson('POST', '/api/v1/readlists', 'add_readlist', { json: { name, summary: '', ordered: true, bookIds } });
}

export async function setReadListBooks(readListId: string, bookIds: string[]): Promise<void> {
  await sendJson('PATCH', `/api/v1/readlists/${encodeURIComponent(readListId)}`, 'update_readlist', {
    json: { bookIds },
  });
}

export async function updateCollection(collectionId: string, update: { name?: string; ordered?: boolean }): Promise<void> {
  await sendJson('PATCH', `/api/v1/collections/${encodeURIComponent(collectionId)}`, 'update_collection', { json: update });
}

export async function deleteCollection(collectionId: string): Promise<void> {
  await sendJson('DELETE', `/api/v1/collections/${encodeURIComponent(collectionId)}`, 'delete_collection');
}

export async function updateReadList(
  readListId: string,
  update: { name?: string; summary?: string; ordered?: boolean },
): Promise<void> {
  await sendJson('PATCH', `/api/v1/readlists/${encodeURIComponent(readListId)}`, 'update_readlist', { json: update });
}

export async function deleteReadList(readListId: string): Promise<void> {
  await sendJson('DELETE', `/api/v1/readlists/${encodeURIComponent(readListId)}`, 'delete_readlist');
}

export function getSeriesCollections(seriesId: string): Promise<CollectionDto[]> {
  return getJson(`/api/v1/series/${encodeURIComponent(seriesId)}/collections`, 'retrieve_collections');
}

export function getBookReadLists(bookId: string): Promise<ReadListDto[]> {
  return getJson(`/api/v1/books/${encodeURIComponent(bookId)}/readlists`, 'retrieve_readlists');
}
