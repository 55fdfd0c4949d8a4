import type { Db } from './database.ts';
import { cachedStatement } from './statement-cache.ts';

export type ThumbnailType = 'GENERATED' | 'SIDECAR' | 'USER_UPLOADED';

/** A poster of a book, series, collection or read list. */
export interface StoredThumbnail {
  id: string;
  /** The book/series/collection/read list it belongs to. */
  ownerId: string;
  type: ThumbnailType;
  /** Relative to the data dir for GENERATED/USER_UPLOADED; absolute for SIDECAR files. */
  filePath: string;
  selected: boolean;
  mediaType: string;
  width: number;
  height: number;
  fileSize: number;
  created: number;
  lastModified: number;
}

/** Book poster rows keep the historical `bookId` name. */
export type BookThumbnail = Omit<StoredThumbnail, 'ownerId'> & { bookId: string };

/**
 * Poster rows of one owner kind (table + owner column). Exactly one row per owner is selected
 * when any exist; files live under the data dir (or beside the book for sidecars).
 */
export class OwnedThumbnailRepository {
  protected readonly db: Db;
  private readonly table: string;
  private readonly owner: string;

  constructor(db: Db, table: string, ownerColumn: string) {
    this.db = db;
    this.table = table;
    this.owner = ownerColumn;
  }

  private select(where: string): string {
    return `SELECT id, ${this.owner} AS ownerId, type, file_path AS filePath, selected, media_type AS mediaType,
              width, height, file_size AS fileSize, created, last_modified AS lastModified
            FROM ${this.table} WHERE ${where}`;
  }

  private static hydrate(row: (Omit<StoredThumbnail, 'selected'> & { selected: number }) | undefined): StoredThumbnail | undefined {
    return row ? { ...row, selected: row.selected === 1 } : undefined;
  }

  list(ownerId: string): StoredThumbnail[] {
    const rows = cachedStatement(this.db, `${this.select(`${this.owner} = ?`)} ORDER BY created, id`).all(ownerId) as (Omit<StoredThumbnail, 'selected'> & { selected: number })[];
    return rows.map((r) => OwnedThumbnailRepository.hydrate(r)!);
  }

  /** The owners that have at least one SIDECAR row (few: local artwork is rare), read in one pass. */
  ownersWithSidecars(): Set<string> {
    const rows = cachedStatement(this.db, `SELECT DISTINCT ${this.owner} AS ownerId FROM ${this.table} WHERE type = 'SIDECAR'`).all() as { ownerId: string }[];
    return new Set(rows.map((row) => row.ownerId));
  }

  find(ownerId: string, id: string): StoredThumbnail | undefined {
    return OwnedThumbnailRepository.hydrate(cachedStatement(this.db, this.select(`${this.owner} = ? AND id = ?`)).get(ownerId, id) as never);
  }

  selected(ownerId: string): StoredThumbnail | undefined {
    return OwnedThumbnailRepository.hydrate(cachedStatement(this.db, this.select(`${this.owner} = ? AND selected = 1`)).get(ownerId) as never);
  }

  /** Adds a row; when `select` (or nothing else is selected) it becomes the selected one. */
  insert(t: StoredThumbnail, select: boolean): void {
    this.db.transaction(() => {
      const makeSelected = select || !this.selected(t.ownerId);
      if (makeSelected) cachedStatement(this.db, `UPDATE ${this.table} SET selected = 0 WHERE ${this.owner} = ?`).run(t.ownerId);
      cachedStatement(this.db, 
          `INSERT INTO ${this.table} (id, ${this.owner}, type, file_path, selected, media_type, width, height, file_size, created, last_modified)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(t.id, t.ownerId, t.type, t.filePath, makeSelected ? 1 : 0, t.mediaType, t.width, t.height, t.fileSize, t.created, t.lastModified);
    })();
  }

  markSelected(ownerId: string, id: string): boolean {
    return this.db.transaction(() => {
      if (!this.find(ownerId, id)) return false;
      cachedStatement(this.db, `UPDATE ${this.table} SET selected = (id = ?) WHERE ${this.owner} = ?`).run(id, ownerId);
      return true;
    })();
  }

  /** Deletes one row; if it was selected, the newest remaining one takes over. Returns the row. */
  delete(ownerId: string, id: string): StoredThumbnail | undefined {
    return this.db.transaction(() => {
      const row = this.find(ownerId, id);
      if (!row) return undefined;
      cachedStatement(this.db, `DELETE FROM ${this.table} WHERE id = ?`).run(id);
      if (row.selected) this.selectNewest(ownerId);
      return row;
    })();
  }

  /** Deletes every row of one type; returns their file paths (to unlink generated/uploaded files). */
  deleteByType(ownerId: string, type: ThumbnailType): string[] {
    // Most calls find nothing (every analysis clears the generated poster of a book that, when
    // new, has none): one indexed lookup instead of a transaction and the owner's whole list.
    if (!cachedStatement(this.db, `SELECT 1 AS found FROM ${this.table} WHERE ${this.owner} = ? AND type = ? LIMIT 1`).get(ownerId, type)) return [];
    return this.db.transaction(() => {
      const rows = this.list(ownerId).filter((t) => t.type === type);
      for (const row of rows) cachedStatement(this.db, `DELETE FROM ${this.table} WHERE id = ?`).run(row.id);
      if (rows.some((r) => r.selected)) this.selectNewest(ownerId);
      return rows.map((r) => r.filePath);
    })();
  }

  /** Files of this owner's posters under the data dir (generated and uploaded; sidecars are the user's). */
  dataDirFiles(ownerId: string): string[] {
    return this.list(ownerId)
      .filter((t) => t.type !== 'SIDECAR')
      .map((t) => t.filePath)
      .filter(Boolean);
  }

  /** Files of the sidecar posters imported for this owner (images beside the books). */
  sidecarFiles(ownerId: string): string[] {
    return this.list(ownerId)
      .filter((t) => t.type === 'SIDECAR' && t.filePath !== null)
      .map((t) => t.filePath);
  }

  private selectNewest(ownerId: string): void {
    const next = this.db
      .prepare(`SELECT id FROM ${this.table} WHERE ${this.owner} = ? ORDER BY (type = 'GENERATED'), created DESC LIMIT 1`)
      .pluck()
      .get(ownerId) as string | undefined;
    if (next) cachedStatement(this.db, `UPDATE ${this.table} SET selected = 1 WHERE id = ?`).run(next);
  }
}

/**
 * A book's selected poster with the book's library. Written as a scalar subquery: the same lookup as
 * a join of book and thumbnail_book measured 4.5-5.5x slower per execution in this SQLite (3.54), and
 * this runs for every book card shown.
 */
const BOOK_POSTER_SQL = `SELECT (SELECT library_id FROM book WHERE id = @bookId) AS libraryId, id, book_id AS bookId, type,
    file_path AS filePath, selected, media_type AS mediaType, width, height, file_size AS fileSize, created,
    last_modified AS lastModified
  FROM thumbnail_book WHERE book_id = @bookId AND selected = 1`;

/** Book posters, with the helpers the generator uses. */
export class ThumbnailRepository extends OwnedThumbnailRepository {
  constructor(db: Db) {
    super(db, 'thumbnail_book', 'book_id');
  }

  /**
   * What a poster request needs in one statement (it runs for every book card shown): the book's
   * library, for the access check, and its selected poster, if any. Undefined for an unknown book.
   */
  findBookPoster(bookId: string): { libraryId: string; poster: BookThumbnail | undefined } | undefined {
    const row = cachedStatement(this.db, BOOK_POSTER_SQL).get({ bookId }) as
      | (Omit<BookThumbnail, 'selected'> & { libraryId: string | null; selected: number })
      | undefined;
    if (!row) {
      // No poster selected (or none at all): the book alone.
      const book = cachedStatement(this.db, 'SELECT library_id AS libraryId FROM book WHERE id = ?').get(bookId) as { libraryId: string } | undefined;
      return book && { libraryId: book.libraryId, poster: undefined };
    }
    const { libraryId, ...poster } = row;
    // A poster row outlives no book (ON DELETE CASCADE); a null library would mean the book just went.
    return libraryId === null ? undefined : { libraryId, poster: { ...poster, selected: poster.selected === 1 } };
  }

  findSelectedForBook(bookId: string): BookThumbnail | undefined {
    const row = this.selected(bookId);
    if (!row) return undefined;
    const { ownerId, ...rest } = row;
    return { ...rest, bookId: ownerId };
  }

  /** Stores a generated poster; it is selected only when no other poster is. */
  insertGenerated(t: BookThumbnail): void {
    const { bookId, ...rest } = t;
    this.insert({ ...rest, ownerId: bookId }, false);
  }

  deleteGeneratedForBook(bookId: string): string[] {
    return this.deleteByType(bookId, 'GENERATED');
  }

  /** Books with a generated poster; with `smallerThan`, only those under it on both sides. */
  findBooksWithGeneratedPoster(smallerThan?: number): string[] {
    return this.db
      .prepare(
        `SELECT DISTINCT book_id FROM thumbnail_book
         WHERE type = 'GENERATED'${smallerThan !== undefined ? ' AND width < ? AND height < ?' : ''} ORDER BY book_id`,
      )
      .pluck()
      .all(...(smallerThan !== undefined ? [smallerThan, smallerThan] : [])) as string[];
  }

  /** Files under the data dir of the book and series posters of a library (sidecars excluded). */
  dataDirFilesOfLibrary(libraryId: string): string[] {
    const files = [
      ...(this.db
        .prepare(`SELECT t.file_path FROM thumbnail_book t JOIN book b ON b.id = t.book_id WHERE b.library_id = ? AND t.type <> 'SIDECAR'`)
        .pluck()
        .all(libraryId) as string[]),
      ...(this.db
        .prepare(`SELECT t.file_path FROM thumbnail_series t JOIN series s ON s.id = t.series_id WHERE s.library_id = ? AND t.type <> 'SIDECAR'`)
        .pluck()
        .all(libraryId) as string[]),
    ];
    return files.filter(Boolean);
  }
}
