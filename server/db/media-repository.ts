import type { MediaStatus } from './stored-values.ts';
import type { Db } from './database.ts';
import { type ColumnMap, insertSql, objectToParams, rowToObject, updateSql } from './columns.ts';
import { cachedStatement } from './statement-cache.ts';

export interface Media {
  bookId: string;
  status: MediaStatus;
  mediaType: string | null;
  comment: string | null;
  pageCount: number;
  epubDivinaCompatible: boolean;
  epubIsKepub: boolean;
  created: number;
  lastModified: number;
}

export interface MediaPage {
  /** 1-based. */
  number: number;
  /** Archive entry name: an identifier inside the archive, never a filesystem path. */
  fileName: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  fileSize: number | null;
}

export interface MediaFile {
  fileName: string;
  mediaType: string | null;
  fileSize: number | null;
}

const COLUMNS: ColumnMap<Media> = {
  bookId: ['book_id', 'text'],
  status: ['status', 'text'],
  mediaType: ['media_type', 'text'],
  comment: ['comment', 'text'],
  pageCount: ['page_count', 'int'],
  epubDivinaCompatible: ['epub_divina_compatible', 'bool'],
  epubIsKepub: ['epub_is_kepub', 'bool'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

/** A book's analysed content: status, format, pages (in reading order) and other files. */
export class MediaRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findByBookId(bookId: string): Media | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM media WHERE book_id = ?').get(bookId) as
      | Record<string, unknown>
      | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  insert(media: Media): void {
    cachedStatement(this.db, insertSql('media', COLUMNS)).run(objectToParams(COLUMNS, media));
  }

  update(media: Media): void {
    cachedStatement(this.db, updateSql('media', COLUMNS, 'book_id')).run(objectToParams(COLUMNS, media));
  }

  findPages(bookId: string): MediaPage[] {
    return cachedStatement(this.db, 
        `SELECT number, file_name AS fileName, media_type AS mediaType, width, height, file_size AS fileSize
         FROM media_page WHERE book_id = ? ORDER BY number`,
      )
      .all(bookId) as MediaPage[];
  }

  /**
   * The book's pages in order, `size` at a time, each chunk read when asked for (keyset on the
   * page number): no statement stays open between chunks, so a caller may yield in between.
   */
  *pageChunks(bookId: string, size: number): Generator<MediaPage[]> {
    const statement = cachedStatement(this.db,
      `SELECT number, file_name AS fileName, media_type AS mediaType, width, height, file_size AS fileSize
       FROM media_page WHERE book_id = ? AND number > ? ORDER BY number LIMIT ?`,
    );
    let after = 0;
    for (;;) {
      const chunk = statement.all(bookId, after, size) as MediaPage[];
      if (chunk.length === 0) return;
      yield chunk;
      if (chunk.length < size) return;
      after = chunk[chunk.length - 1]!.number;
    }
  }

  /** How many page images a book has (a text EPUB: none, whatever its page count says). */
  countPages(bookId: string): number {
    return (cachedStatement(this.db, 'SELECT COUNT(*) AS n FROM media_page WHERE book_id = ?').get(bookId) as { n: number }).n;
  }

  findPage(bookId: string, number: number): MediaPage | undefined {
    return cachedStatement(this.db, 
        `SELECT number, file_name AS fileName, media_type AS mediaType, width, height, file_size AS fileSize
         FROM media_page WHERE book_id = ? AND number = ?`,
      )
      .get(bookId, number) as MediaPage | undefined;
  }

  findFiles(bookId: string): MediaFile[] {
    return cachedStatement(this.db, 'SELECT file_name AS fileName, media_type AS mediaType, file_size AS fileSize FROM media_file WHERE book_id = ?')
      .all(bookId) as MediaFile[];
  }

  /**
   * Makes a recorded analysis READY, unless the row changed since it was recorded (a scan marked
   * the file OUTDATED again, another analysis recorded): `recorded` is the row as written then.
   */
  markReady(recorded: Pick<Media, 'bookId' | 'status' | 'lastModified'>): boolean {
    return (
      cachedStatement(this.db, "UPDATE media SET status = 'READY' WHERE book_id = ? AND status = ? AND last_modified = ?").run(
        recorded.bookId,
        recorded.status,
        recorded.lastModified,
      ).changes > 0
    );
  }

  /** Replaces the media row, pages and files of a book in one transaction. */
  replaceAnalysis(media: Media, pages: MediaPage[], files: MediaFile[]): void {
    const insertPage = cachedStatement(this.db, 
      `INSERT INTO media_page (book_id, number, file_name, media_type, width, height, file_size)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertFile = cachedStatement(this.db, 
      'INSERT INTO media_file (book_id, file_name, media_type, file_size) VALUES (?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      this.update(media);
      cachedStatement(this.db, 'DELETE FROM media_page WHERE book_id = ?').run(media.bookId);
      cachedStatement(this.db, 'DELETE FROM media_file WHERE book_id = ?').run(media.bookId);
      for (const p of pages) {
        insertPage.run(media.bookId, p.number, p.fileName, p.mediaType, p.width, p.height, p.fileSize);
      }
      for (const f of files) insertFile.run(media.bookId, f.fileName, f.mediaType, f.fileSize);
    })();
  }
}
