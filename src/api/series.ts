import { apiUrl, getJson, getJsonNow } from './http.ts';
import { pageQuery, type PageRequest } from './paging.ts';
import type { BookDto, MediaStatus, Page, ReadStatus, SeriesDto } from './types.ts';

export interface SeriesFilter {
  libraryId?: string[];
  search?: string;
  readStatus?: ReadStatus[];
  /** false: only series whose folder still exists. */
  deleted?: boolean;
}

export function getSeriesList(filter: SeriesFilter = {}, paging?: PageRequest): Promise<Page<SeriesDto>> {
  return getJson('/api/v1/series', 'retrieve_series', {
    query: {
      library_id: filter.libraryId,
      search: filter.search,
      read_status: filter.readStatus,
      deleted: filter.deleted,
      ...pageQuery(paging),
    },
  });
}

/** `now`: the request leaves within this call (see getJsonNow), for a book being opened. */
export function getSeries(seriesId: string, { now = false } = {}): Promise<SeriesDto> {
  return (now ? getJsonNow : getJson)<SeriesDto>(`/api/v1/series/${encodeURIComponent(seriesId)}`, 'retrieve_series');
}

export function getSeriesBooks(
  seriesId: string,
  paging?: PageRequest,
  filter: { mediaStatus?: MediaStatus[]; readStatus?: ReadStatus[] } = {},
): Promise<Page<BookDto>> {
  return getJson(`/api/v1/series/${encodeURIComponent(seriesId)}/books`, 'retrieve_books', {
    query: { media_status: filter.mediaStatus, read_status: filter.readStatus, ...pageQuery(paging) },
  });
}

export function seriesThumbnailUrl(seriesId: string): string {
  return apiUrl(`/api/v1/series/${encodeURIComponent(seriesId)}/thumbnail`);
}
