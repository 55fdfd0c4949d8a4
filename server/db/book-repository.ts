import type { Db } from './database.ts';
import { type ColumnMap, insertSql, objectToParams, rowToObject, updateSql } from './columns.ts';
import { type SortOrder, orderBy } from './search/sort.ts';
import { BOOK_COLUMNS, contentRestriction } from './search/content-restriction.ts';
import type { User } from './user-repository.ts';
import { cachedStatement } from './statement-cache.ts';

export interface Book {
  id: string;
  seriesId: string;
  libraryId: string;
  name: string;
  /** Absolute path of the book file. */
  url: string;
  /** 1-based position in the series (natural order of names). */
  number: number;
  fileLastModified: number;
  fileSize: number;
  fileHash: string;
  oneshot: boolean;
  deletedDate: number | null;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<Book> = {
  id: ['id', 'text'],
  seriesId: ['series_id', 'text'],
  libraryId: ['library_id', 'text'],
  name: ['name', 'text'],
  url: ['url', 'text'],
  number: ['number', 'int'],
  fileLastModified: ['file_last_modified', 'int'],
  fileSize: ['file_size', 'int'],
  fileHash: ['file_hash', 'text'],
  oneshot: ['oneshot', 'bool'],
  deletedDate: ['deleted_date', 'int'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

export class BookRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findById(id: string): Book | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM book WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  /** Every book of a series, deleted ones included, in series order. */
  findBySeries(seriesId: string): Book[] {
    const rows = cachedStatement(this.db, 'SELECT * FROM book WHERE series_id = ? ORDER BY number').all(seriesId) as Record<
      string,
      unknown
    >[];
    return rows.map((row) => rowToObject(COLUMNS, row));
  }

  /** Ids of a series' live books in reading order (number sort, then id). */
  findLiveIdsBySeriesInNumberOrder(seriesId: string): string[] {
    return this.db
      .prepare(
        `SELECT b.id FROM book b JOIN book_metadata bm ON bm.book_id = b.id
         WHERE b.series_id = ? AND b.deleted_date IS NULL ORDER BY bm.number_sort, b.id`,
      )
      .pluck()
      .all(seriesId) as string[];
  }

  /** Number and title of a series' live books in reading order (read-list matching). */
  findLiveNumbersBySeries(seriesId: string): { bookId: string; number: string; title: string }[] {
    return cachedStatement(
      this.db,
      `SELECT b.id AS bookId, bm.number, bm.title FROM book b JOIN book_metadata bm ON bm.book_id = b.id
       WHERE b.series_id = ? AND b.deleted_date IS NULL ORDER BY bm.number_sort`,
    ).all(seriesId) as { bookId: string; number: string; title: string }[];
  }

  /**
   * Whether the book exists and `viewer` (when given) may see it under their content restrictions.
   * The content guard asks this on every book request of a restricted user (each page, each poster):
   * the statement is prepared once per shape (its text depends only on how many libraries and labels
   * the restriction names; the values are bound), not once per request.
   */
  isVisible(id: string, viewer?: User): boolean {
    const restriction = viewer && contentRestriction(viewer, BOOK_COLUMNS, 'item');
    const where = restriction ? ` AND (${restriction.sql})` : '';
    return cachedStatement(this.db, `SELECT 1 FROM book b WHERE b.id = ?${where}`).get(id, ...(restriction?.params ?? [])) !== undefined;
  }

  /** How many books (deleted ones included) a series still has. */
  countBySeries(seriesId: string): number {
    return this.db.prepare('SELECT COUNT(*) FROM book WHERE series_id = ?').pluck().get(seriesId) as number;
  }

  /**
   * Live books whose file hash another live book shares, by hash then path unless `sort` names
   * known properties; only books `viewer` may see when given (content restrictions).
   */
  findDuplicateFiles(sort: SortOrder[], limit: number | null, offset: number, viewer?: User): { ids: string[]; total: number } {
    const extra = viewer && contentRestriction(viewer, BOOK_COLUMNS);
    const where = `b.deleted_date IS NULL AND b.file_hash <> '' AND b.file_hash IN (
        SELECT file_hash FROM book WHERE deleted_date IS NULL AND file_hash <> '' GROUP BY file_hash HAVING COUNT(*) > 1)
      ${extra ? `AND (${extra.sql})` : ''}`;
    const params = extra?.params ?? [];
    const order = orderBy(
      sort,
      { fileHash: 'b.file_hash', name: 'b.name', url: 'b.url', fileSize: 'b.file_size', created: 'b.created', lastModified: 'b.last_modified' },
      [{ property: 'fileHash', direction: 'asc' }, { property: 'url', direction: 'asc' }],
      'b.id',
    );
    const ids = this.db
      .prepare(`SELECT b.id FROM book b WHERE ${where} ${order.clause} LIMIT ? OFFSET ?`)
      .pluck()
      .all(...params, limit ?? -1, offset) as string[];
    const total = this.db.prepare(`SELECT COUNT(*) FROM book b WHERE ${where}`).pluck().get(...params) as number;
    return { ids, total };
  }

  /** Whether the library holds a book not flagged deleted whose file is inside `folder`. */
  hasLiveBooksUnder(libraryId: string, folder: string): boolean {
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    return (
      cachedStatement(this.db, 'SELECT 1 FROM book WHERE library_id = ? AND deleted_date IS NULL AND substr(url, 1, length(?)) = ? LIMIT 1').get(libraryId, prefix, prefix) !==
      undefined
    );
  }

  findByLibrary(libraryId: string): Book[] {
    const rows = cachedStatement(this.db, 'SELECT * FROM book WHERE library_id = ?').all(libraryId) as Record<
      string,
      unknown
    >[];
    return rows.map((row) => rowToObject(COLUMNS, row));
  }

  insert(book: Book): void {
    cachedStatement(this.db, insertSql('book', COLUMNS)).run(objectToParams(COLUMNS, book));
  }

  update(book: Book): void {
    cachedStatement(this.db, updateSql('book', COLUMNS, 'id')).run(objectToParams(COLUMNS, book));
  }

  /** Removes a book row for good (its metadata, media and progress go with it by cascade). */
  delete(id: string): void {
    cachedStatement(this.db, 'DELETE FROM book WHERE id = ?').run(id);
  }
}
