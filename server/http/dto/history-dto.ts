import type { HistoricalEvent } from '../../db/history-repository.ts';
import { formatLocalDateTime } from './local-date-time.ts';

export interface HistoricalEventDto {
  id: string;
  type: string;
  timestamp: string;
  bookId: string | null;
  seriesId: string | null;
  properties: Record<string, string>;
}

/** A property value that is a server path: absolute POSIX, Windows drive or UNC. */
const SERVER_PATH = /^(\/|[a-zA-Z]:[\\/]|\\\\)/;

/**
 * Details for a caller who is not an administrator: server paths shrink to their file name, as
 * Komga reduces a book's `url` for them.
 */
function withoutServerPaths(properties: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, SERVER_PATH.test(value) ? (value.split(/[\\/]/).pop() ?? '') : value]),
  );
}

/**
 * HistoricalEventDto (REFERENCE §2.8). An event without a book or series names it null, as Jackson
 * writes Komga's nullable ids (the contract's "optional" is Kotlin's nullable, not an absent key).
 * `admin` false hides server paths in the details.
 */
export function toHistoricalEventDto(event: HistoricalEvent, admin: boolean): HistoricalEventDto {
  return {
    id: event.id,
    type: event.type,
    timestamp: formatLocalDateTime(event.timestamp),
    bookId: event.bookId || null,
    seriesId: event.seriesId || null,
    properties: admin ? event.properties : withoutServerPaths(event.properties),
  };
}
