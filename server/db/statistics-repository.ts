import type { Db } from './database.ts';

/**
 * Counts over live content (deleted series and books left out) for the actuator metrics, each
 * optionally limited to some libraries (an empty list means every library).
 */
export class StatisticsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  liveSeriesCount(libraryIds: string[]): number {
    return this.count(`SELECT COUNT(*) FROM series WHERE deleted_date IS NULL${inLibraries('library_id', libraryIds)}`, libraryIds);
  }

  liveBookCount(libraryIds: string[]): number {
    return this.count(`SELECT COUNT(*) FROM book WHERE deleted_date IS NULL${inLibraries('library_id', libraryIds)}`, libraryIds);
  }

  /** Bytes of every live book file. */
  liveBookFileSize(libraryIds: string[]): number {
    return this.count(`SELECT COALESCE(SUM(file_size), 0) FROM book WHERE deleted_date IS NULL${inLibraries('library_id', libraryIds)}`, libraryIds);
  }

  /** Local artwork found beside books and series (thumbnails of type SIDECAR). */
  sidecarCount(libraryIds: string[]): number {
    return this.count(
      `SELECT (SELECT COUNT(*) FROM thumbnail_book t JOIN book b ON b.id = t.book_id WHERE t.type = 'SIDECAR'${inLibraries('b.library_id', libraryIds)})
            + (SELECT COUNT(*) FROM thumbnail_series t JOIN series s ON s.id = t.series_id WHERE t.type = 'SIDECAR'${inLibraries('s.library_id', libraryIds)})`,
      [...libraryIds, ...libraryIds],
    );
  }

  collectionCount(): number {
    return this.count('SELECT COUNT(*) FROM collection', []);
  }

  readListCount(): number {
    return this.count('SELECT COUNT(*) FROM readlist', []);
  }

  private count(sql: string, params: string[]): number {
    return Number(this.db.prepare(sql).pluck().get(...params) ?? 0);
  }
}

const inLibraries = (column: string, libraryIds: string[]) =>
  libraryIds.length ? ` AND ${column} IN (${libraryIds.map(() => '?').join(', ')})` : '';
