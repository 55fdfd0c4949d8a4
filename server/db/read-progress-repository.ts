import type { Db } from './database.ts';
import { type ColumnMap, rowToObject } from './columns.ts';
import { cachedStatement } from './statement-cache.ts';
import { bookAwaitingRestriction } from './search/content-restriction.ts';
import type { User } from './user-repository.ts';

export interface ReadProgress {
  bookId: string;
  userId: string;
  /** 1-based. */
  page: number;
  completed: boolean;
  readDate: number;
  deviceId: string;
  deviceName: string;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<ReadProgress> = {
  bookId: ['book_id', 'text'],
  userId: ['user_id', 'text'],
  page: ['page', 'int'],
  completed: ['completed', 'bool'],
  readDate: ['read_date', 'int'],
  deviceId: ['device_id', 'text'],
  deviceName: ['device_name', 'text'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

export class ReadProgressRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  find(bookId: string, userId: string): ReadProgress | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM read_progress WHERE book_id = ? AND user_id = ?').get(bookId, userId) as
      | Record<string, unknown>
      | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  /** Insert or update; `created` is kept from the first write. */
  upsert(p: ReadProgress): void {
    cachedStatement(this.db, 
        `INSERT INTO read_progress (book_id, user_id, page, completed, read_date, device_id, device_name, created, last_modified)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(book_id, user_id) DO UPDATE SET page = excluded.page, completed = excluded.completed,
           read_date = excluded.read_date, device_id = excluded.device_id, device_name = excluded.device_name,
           last_modified = excluded.last_modified`,
      )
      .run(p.bookId, p.userId, p.page, p.completed ? 1 : 0, p.readDate, p.deviceId, p.deviceName, p.created, p.lastModified);
  }

  delete(bookId: string, userId: string): boolean {
    return cachedStatement(this.db, 'DELETE FROM read_progress WHERE book_id = ? AND user_id = ?').run(bookId, userId).changes > 0;
  }

  /**
   * A series' live books `viewer` may see (content restrictions: a book awaiting analysis may be
   * kept back) in number-sort order with their progress on each: `completed` is null for a book
   * not started.
   */
  seriesBooksByNumberSort(seriesId: string, viewer: User): { bookId: string; numberSort: number; completed: boolean | null }[] {
    // The series is the caller's to check (shown already); of its live books, those kept back.
    const restriction = bookAwaitingRestriction(viewer, 'b.id');
    const rows = this.db
      .prepare(
        `SELECT b.id AS bookId, bm.number_sort AS numberSort, r.completed FROM book b
         JOIN book_metadata bm ON bm.book_id = b.id
         LEFT JOIN read_progress r ON r.book_id = b.id AND r.user_id = ?
         WHERE b.series_id = ? AND b.deleted_date IS NULL${restriction ? ` AND (${restriction.sql})` : ''} ORDER BY bm.number_sort, b.id`,
      )
      .all(viewer.id, seriesId, ...(restriction?.params ?? [])) as { bookId: string; numberSort: number; completed: number | null }[];
    return rows.map((row) => ({ ...row, completed: row.completed === null ? null : row.completed === 1 }));
  }

  /**
   * Read counts of a series' live books for one user, of the books `viewer` may see (a book
   * awaiting analysis may be kept back from a restricted reader: not counted either).
   */
  seriesCounts(seriesId: string, viewer: User): { total: number; read: number; inProgress: number } {
    // The series is the caller's to check (shown already); of its live books, those kept back.
    const restriction = bookAwaitingRestriction(viewer, 'b.id');
    return cachedStatement(this.db,
        `SELECT COUNT(*) AS total,
                COALESCE(SUM(CASE WHEN r.completed = 1 THEN 1 ELSE 0 END), 0) AS read,
                COALESCE(SUM(CASE WHEN r.completed = 0 THEN 1 ELSE 0 END), 0) AS inProgress
         FROM book b LEFT JOIN read_progress r ON r.book_id = b.id AND r.user_id = ?
         WHERE b.series_id = ? AND b.deleted_date IS NULL${restriction ? ` AND (${restriction.sql})` : ''}`,
      )
      .get(viewer.id, seriesId, ...(restriction?.params ?? [])) as { total: number; read: number; inProgress: number };
  }
}
