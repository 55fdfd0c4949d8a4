import type { Db } from './database.ts';
import { newId } from './ids.ts';
import { type SortOrder, orderBy } from './search/sort.ts';
import { SERIES_COLUMNS, contentRestriction } from './search/content-restriction.ts';
import type { User } from './user-repository.ts';

export type HistoricalEventType =
  | 'BookFileDeleted'
  | 'SeriesFolderDeleted'
  | 'DuplicatePageDeleted'
  | 'BookConverted'
  | 'BookImported';

export interface HistoricalEvent {
  id: string;
  type: HistoricalEventType;
  bookId: string | null;
  seriesId: string | null;
  timestamp: number;
  /** Human-labelled details ("name", "reason", "former file", ...). */
  properties: Record<string, string>;
}

interface Row {
  id: string;
  type: HistoricalEventType;
  book_id: string | null;
  series_id: string | null;
  timestamp: number;
  properties: string;
}

const SORT_COLUMNS: Record<string, string> = {
  timestamp: 'timestamp',
  type: 'type',
  bookId: 'book_id',
  seriesId: 'series_id',
};

/** The history of file operations; rows outlive the books and series they mention. */
export class HistoryRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(event: Omit<HistoricalEvent, 'id' | 'timestamp'> & { timestamp?: number }): HistoricalEvent {
    const timestamp = event.timestamp ?? Date.now();
    const full: HistoricalEvent = { ...event, id: newId(timestamp), timestamp };
    this.db
      .prepare('INSERT INTO historical_event (id, type, book_id, series_id, timestamp, properties) VALUES (?, ?, ?, ?, ?, ?)')
      .run(full.id, full.type, full.bookId, full.seriesId, full.timestamp, JSON.stringify(full.properties));
    return full;
  }

  /**
   * One page of events; the default order is newest first. `visibility.viewer` hides events about
   * existing series that user may not see (content restrictions). Events about no
   * series, or one that no longer exists, are kept when `visibility.orphans` is true (administrators:
   * nothing else remembers them) and hidden otherwise (a user sees what happened to the content they
   * may see, never to files nothing links them to any more).
   */
  page(
    sort: SortOrder[],
    limit: number | null,
    offset: number,
    visibility: { viewer: User; orphans: boolean },
  ): { events: HistoricalEvent[]; total: number; sorted: boolean } {
    const order = orderBy(sort, SORT_COLUMNS, [{ property: 'timestamp', direction: 'desc' }], 'id');
    const seriesRestriction = contentRestriction(visibility.viewer, SERIES_COLUMNS);
    const visible = `EXISTS (SELECT 1 FROM series s WHERE s.id = series_id${seriesRestriction ? ` AND (${seriesRestriction.sql})` : ''})`;
    const orphan = 'series_id IS NULL OR NOT EXISTS (SELECT 1 FROM series s WHERE s.id = series_id)';
    const where = !visibility.orphans
      ? `WHERE ${visible}`
      : seriesRestriction
        ? `WHERE ${orphan} OR ${visible}`
        : '';
    const params = seriesRestriction?.params ?? [];
    const rows = this.db
      .prepare(`SELECT * FROM historical_event ${where} ${order.clause} LIMIT ? OFFSET ?`)
      .all(...params, limit ?? -1, offset) as Row[];
    const total = this.db.prepare(`SELECT COUNT(*) FROM historical_event ${where}`).pluck().get(...params) as number;
    return {
      events: rows.map((r) => ({
        id: r.id,
        type: r.type,
        bookId: r.book_id,
        seriesId: r.series_id,
        timestamp: r.timestamp,
        properties: JSON.parse(r.properties) as Record<string, string>,
      })),
      total,
      sorted: true,
    };
  }
}
