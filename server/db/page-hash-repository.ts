import type { Db } from './database.ts';
import { type SortOrder, orderBy } from './search/sort.ts';
import { BOOK_COLUMNS, contentRestriction } from './search/content-restriction.ts';
import type { User } from './user-repository.ts';

export type PageHashAction = 'DELETE_AUTO' | 'DELETE_MANUAL' | 'IGNORE';
export const PAGE_HASH_ACTIONS: readonly PageHashAction[] = ['DELETE_AUTO', 'DELETE_MANUAL', 'IGNORE'];

export interface KnownPageHash {
  hash: string;
  size: number | null;
  action: PageHashAction;
  deleteCount: number;
  matchCount: number;
  created: number;
  lastModified: number;
}

export interface UnknownPageHash {
  hash: string;
  size: number | null;
  matchCount: number;
}

/** A page (of a live book) whose stored bytes have a given hash. */
export interface PageHashMatch {
  bookId: string;
  seriesId: string;
  libraryId: string;
  url: string;
  pageNumber: number;
  fileName: string;
  fileSize: number;
  mediaType: string;
}

export interface Paged<T> {
  items: T[];
  total: number;
  sorted: boolean;
}

/** Pages of live books only: pages of deleted books are no longer on disk to act upon. */
const LIVE_PAGES = `media_page mp JOIN book b ON b.id = mp.book_id AND b.deleted_date IS NULL`;
const MATCH_COUNT = `(SELECT COUNT(*) FROM ${LIVE_PAGES} WHERE mp.file_hash = ph.hash)`;

/**
 * Page hashes (duplicate pages, REFERENCE §2.8). Hashes live on media_page.file_hash; "known" ones
 * are those an admin gave an action (page_hash rows), "unknown" ones are shared by several pages
 * and have no row yet. Given a viewer, pages count only in books that user may see (content
 * restrictions).
 */
export class PageHashRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findKnown(hash: string): KnownPageHash | undefined {
    const row = this.db
      .prepare(
        `SELECT ph.hash, ph.size, ph.action, ph.delete_count AS deleteCount, ${MATCH_COUNT} AS matchCount,
                ph.created, ph.last_modified AS lastModified
         FROM page_hash ph WHERE ph.hash = ?`,
      )
      .get(hash) as KnownPageHash | undefined;
    return row;
  }

  known(actions: PageHashAction[], sort: SortOrder[], limit: number | null, offset: number): Paged<KnownPageHash> {
    const where = actions.length > 0 ? `WHERE ph.action IN (${actions.map(() => '?').join(', ')})` : '';
    const order = orderBy(
      sort,
      { hash: 'ph.hash', size: 'ph.size', action: 'ph.action', deleteCount: 'ph.delete_count', matchCount: 'matchCount', created: 'ph.created', lastModified: 'ph.last_modified' },
      [{ property: 'matchCount', direction: 'desc' }],
      'ph.hash',
    );
    const items = this.db
      .prepare(
        `SELECT ph.hash, ph.size, ph.action, ph.delete_count AS deleteCount, ${MATCH_COUNT} AS matchCount,
                ph.created, ph.last_modified AS lastModified
         FROM page_hash ph ${where} ${order.clause} LIMIT ? OFFSET ?`,
      )
      .all(...actions, limit ?? -1, offset) as KnownPageHash[];
    const total = this.db.prepare(`SELECT COUNT(*) FROM page_hash ph ${where}`).pluck().get(...actions) as number;
    return { items, total, sorted: true };
  }

  /** Hashes shared by more than one page that no admin has decided about yet. */
  unknown(sort: SortOrder[], limit: number | null, offset: number, viewer?: User): Paged<UnknownPageHash> {
    const extra = viewer && contentRestriction(viewer, BOOK_COLUMNS);
    const restrict = extra ? `AND (${extra.sql})` : '';
    const params = extra?.params ?? [];
    const base = `SELECT mp.file_hash AS hash, MAX(mp.file_size) AS size, COUNT(*) AS matchCount,
                         MAX(mp.file_size) * COUNT(*) AS totalSize
                  FROM ${LIVE_PAGES}
                  WHERE mp.file_hash <> '' AND NOT EXISTS (SELECT 1 FROM page_hash k WHERE k.hash = mp.file_hash) ${restrict}
                  GROUP BY mp.file_hash HAVING COUNT(*) > 1`;
    const order = orderBy(
      sort,
      { hash: 'hash', size: 'size', matchCount: 'matchCount', totalSize: 'totalSize' },
      [{ property: 'totalSize', direction: 'desc' }],
      'hash',
    );
    const items = (
      this.db.prepare(`SELECT * FROM (${base}) ${order.clause} LIMIT ? OFFSET ?`).all(...params, limit ?? -1, offset) as (UnknownPageHash & {
        totalSize: number;
      })[]
    ).map(({ hash, size, matchCount }) => ({ hash, size, matchCount }));
    const total = this.db.prepare(`SELECT COUNT(*) FROM (${base})`).pluck().get(...params) as number;
    return { items, total, sorted: true };
  }

  matches(hash: string, sort: SortOrder[], limit: number | null, offset: number, viewer?: User): Paged<PageHashMatch> {
    const extra = viewer && contentRestriction(viewer, BOOK_COLUMNS);
    const restrict = extra ? `AND (${extra.sql})` : '';
    const params = extra?.params ?? [];
    const order = orderBy(
      sort,
      { bookId: 'b.id', url: 'b.url', pageNumber: 'mp.number', fileName: 'mp.file_name', fileSize: 'mp.file_size', mediaType: 'mp.media_type' },
      [
        { property: 'url', direction: 'asc' },
        { property: 'pageNumber', direction: 'asc' },
      ],
      'b.id',
    );
    const items = this.db
      .prepare(
        `SELECT b.id AS bookId, b.series_id AS seriesId, b.library_id AS libraryId, b.url, mp.number AS pageNumber,
                mp.file_name AS fileName, COALESCE(mp.file_size, 0) AS fileSize, mp.media_type AS mediaType
         FROM ${LIVE_PAGES} WHERE mp.file_hash = ? ${restrict} ${order.clause}, mp.number ASC LIMIT ? OFFSET ?`,
      )
      .all(hash, ...params, limit ?? -1, offset) as PageHashMatch[];
    const total = this.db
      .prepare(`SELECT COUNT(*) FROM ${LIVE_PAGES} WHERE mp.file_hash = ? ${restrict}`)
      .pluck()
      .get(hash, ...params) as number;
    return { items, total, sorted: true };
  }

  /** Creates the known hash or changes its action (and size when given). */
  save(hash: string, size: number | null, action: PageHashAction, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO page_hash (hash, size, action, delete_count, created, last_modified) VALUES (?, ?, ?, 0, ?, ?)
         ON CONFLICT(hash) DO UPDATE SET action = excluded.action, size = COALESCE(excluded.size, page_hash.size),
           last_modified = excluded.last_modified`,
      )
      .run(hash, size, action, now, now);
  }

  addDeleted(hash: string, count: number, now = Date.now()): void {
    this.db
      .prepare('UPDATE page_hash SET delete_count = delete_count + ?, last_modified = ? WHERE hash = ?')
      .run(count, now, hash);
  }

  /** Pages of a book whose hash is known with the given action. */
  bookPagesWithAction(bookId: string, action: PageHashAction): { number: number; fileName: string; hash: string }[] {
    return this.db
      .prepare(
        `SELECT mp.number, mp.file_name AS fileName, mp.file_hash AS hash
         FROM media_page mp JOIN page_hash ph ON ph.hash = mp.file_hash
         WHERE mp.book_id = ? AND ph.action = ? ORDER BY mp.number`,
      )
      .all(bookId, action) as { number: number; fileName: string; hash: string }[];
  }

  /** Live, analysed books of a library with pages of which none is hashed yet. */
  findUnhashedBooks(libraryId: string): string[] {
    return this.db
      .prepare(
        `SELECT b.id FROM book b JOIN media m ON m.book_id = b.id
         WHERE b.library_id = ? AND b.deleted_date IS NULL AND m.status = 'READY' AND m.page_count > 0
           AND NOT EXISTS (SELECT 1 FROM media_page mp WHERE mp.book_id = b.id AND mp.file_hash <> '')`,
      )
      .pluck()
      .all(libraryId) as string[];
  }

  /** Live books of a library holding a page whose hash is known with the given action. */
  findBooksWithAction(libraryId: string, action: PageHashAction): string[] {
    return this.db
      .prepare(
        `SELECT DISTINCT mp.book_id FROM media_page mp JOIN book b ON b.id = mp.book_id
         JOIN page_hash ph ON ph.hash = mp.file_hash AND ph.action = ?
         WHERE b.library_id = ? AND b.deleted_date IS NULL`,
      )
      .pluck()
      .all(action, libraryId) as string[];
  }

  setPageHash(bookId: string, number: number, hash: string): void {
    this.db.prepare('UPDATE media_page SET file_hash = ? WHERE book_id = ? AND number = ?').run(hash, bookId, number);
  }
}
