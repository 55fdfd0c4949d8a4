import type { Author, WebLink } from './stored-values.ts';
import type { Db } from './database.ts';
import { type ColumnMap, insertSql, objectToParams, rowToObject, updateSql } from './columns.ts';
import { cachedStatement } from './statement-cache.ts';
import { BOOK_FOLDS, foldedColumns, withFoldedTitles } from './folded-titles.ts';

export interface BookMetadata {
  bookId: string;
  title: string;
  titleLock: boolean;
  summary: string;
  summaryLock: boolean;
  number: string;
  numberLock: boolean;
  numberSort: number;
  numberSortLock: boolean;
  releaseDate: string | null;
  releaseDateLock: boolean;
  authors: Author[];
  authorsLock: boolean;
  tags: string[];
  tagsLock: boolean;
  isbn: string;
  isbnLock: boolean;
  links: WebLink[];
  linksLock: boolean;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<BookMetadata> = {
  bookId: ['book_id', 'text'],
  title: ['title', 'text'],
  titleLock: ['title_lock', 'bool'],
  summary: ['summary', 'text'],
  summaryLock: ['summary_lock', 'bool'],
  number: ['number', 'text'],
  numberLock: ['number_lock', 'bool'],
  numberSort: ['number_sort', 'real'],
  numberSortLock: ['number_sort_lock', 'bool'],
  releaseDate: ['release_date', 'text'],
  releaseDateLock: ['release_date_lock', 'bool'],
  authors: ['authors', 'json'],
  authorsLock: ['authors_lock', 'bool'],
  tags: ['tags', 'json'],
  tagsLock: ['tags_lock', 'bool'],
  isbn: ['isbn', 'text'],
  isbnLock: ['isbn_lock', 'bool'],
  links: ['links', 'json'],
  linksLock: ['links_lock', 'bool'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

/** Fresh metadata for a new book: title from the file name, number from its position. */
export function defaultBookMetadata(bookId: string, title: string, position: number, now: number): BookMetadata {
  return {
    bookId,
    title,
    titleLock: false,
    summary: '',
    summaryLock: false,
    number: String(position),
    numberLock: false,
    numberSort: position,
    numberSortLock: false,
    releaseDate: null,
    releaseDateLock: false,
    authors: [],
    authorsLock: false,
    tags: [],
    tagsLock: false,
    isbn: '',
    isbnLock: false,
    links: [],
    linksLock: false,
    created: now,
    lastModified: now,
  };
}

export class BookMetadataRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findByBookId(bookId: string): BookMetadata | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM book_metadata WHERE book_id = ?').get(bookId) as
      | Record<string, unknown>
      | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  insert(metadata: BookMetadata): void {
    cachedStatement(this.db, insertSql('book_metadata', COLUMNS, foldedColumns(BOOK_FOLDS))).run(withFoldedTitles(objectToParams(COLUMNS, metadata), BOOK_FOLDS));
  }

  update(metadata: BookMetadata): void {
    cachedStatement(this.db, updateSql('book_metadata', COLUMNS, 'book_id', foldedColumns(BOOK_FOLDS))).run(withFoldedTitles(objectToParams(COLUMNS, metadata), BOOK_FOLDS));
  }
}
