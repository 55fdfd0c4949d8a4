import type { Db } from './database.ts';
import { type ColumnMap, insertSql, objectToParams, rowToObject, updateSql } from './columns.ts';
import { SERIES_COLUMNS, contentRestriction } from './search/content-restriction.ts';
import type { User } from './user-repository.ts';
import { cachedStatement } from './statement-cache.ts';

export interface Series {
  id: string;
  libraryId: string;
  name: string;
  /** Absolute path of the series folder. */
  url: string;
  fileLastModified: number;
  oneshot: boolean;
  deletedDate: number | null;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<Series> = {
  id: ['id', 'text'],
  libraryId: ['library_id', 'text'],
  name: ['name', 'text'],
  url: ['url', 'text'],
  fileLastModified: ['file_last_modified', 'int'],
  oneshot: ['oneshot', 'bool'],
  deletedDate: ['deleted_date', 'int'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

export class SeriesRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findById(id: string): Series | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM series WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  /** Every series of a library, deleted ones included (the scanner needs them to restore). */
  findByLibrary(libraryId: string): Series[] {
    const rows = cachedStatement(this.db, 'SELECT * FROM series WHERE library_id = ?').all(libraryId) as Record<
      string,
      unknown
    >[];
    return rows.map((row) => rowToObject(COLUMNS, row));
  }

  insert(series: Series): void {
    cachedStatement(this.db, insertSql('series', COLUMNS)).run(objectToParams(COLUMNS, series));
  }

  update(series: Series): void {
    cachedStatement(this.db, updateSql('series', COLUMNS, 'id')).run(objectToParams(COLUMNS, series));
  }

  /** Whether the series exists and `viewer` (when given) may see it under their content restrictions. */
  isVisible(id: string, viewer?: User): boolean {
    const restriction = viewer && contentRestriction(viewer, SERIES_COLUMNS, 'item');
    const where = restriction ? ` AND (${restriction.sql})` : '';
    return cachedStatement(this.db, `SELECT 1 FROM series s WHERE s.id = ?${where}`).get(id, ...(restriction?.params ?? [])) !== undefined;
  }

  /** Live series with their title and first release date (read-list matching indexes them by title). */
  findLiveTitles(): { id: string; title: string; releaseDate: string | null }[] {
    return cachedStatement(
      this.db,
      `SELECT s.id, sm.title, sbm.release_date AS releaseDate FROM series s JOIN series_metadata sm ON sm.series_id = s.id
       LEFT JOIN series_books_metadata sbm ON sbm.series_id = s.id WHERE s.deleted_date IS NULL`,
    ).all() as { id: string; title: string; releaseDate: string | null }[];
  }

  /** Removes a series for good (its metadata and other rows go with it by cascade). */
  delete(id: string): void {
    cachedStatement(this.db, 'DELETE FROM series WHERE id = ?').run(id);
  }
}
