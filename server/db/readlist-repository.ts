import type { Db } from './database.ts';
import { foldedSql } from './search/fold-text.ts';
import { type FullTextFields, fullTextMatch } from './search/full-text.ts';
import { type SortOrder, orderBy } from './search/sort.ts';

/** Komga searches names through its index (search box syntax, accents ignored): see full-text.ts. */
const NAME_SEARCH: FullTextFields = { defaults: { folded: [foldedSql('name')] }, named: { name: { folded: [foldedSql('name')] } }, authors: [] };

const READLIST_SORTS: Record<string, string> = {
  name: 'name COLLATE NOCASE',
  createdDate: 'created',
  lastModifiedDate: 'last_modified',
};

export interface ReadList {
  id: string;
  name: string;
  summary: string;
  ordered: boolean;
  /** Member books in reading order. */
  bookIds: string[];
  created: number;
  lastModified: number;
}

interface ReadListRow {
  id: string;
  name: string;
  summary: string;
  ordered: number;
  created: number;
  last_modified: number;
}

/** Read lists: books from any series, in a reading order. */
export class ReadListRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private hydrate(row: ReadListRow): ReadList {
    const bookIds = this.db
      .prepare('SELECT book_id FROM readlist_book WHERE readlist_id = ? ORDER BY number, book_id')
      .pluck()
      .all(row.id) as string[];
    return {
      id: row.id,
      name: row.name,
      summary: row.summary,
      ordered: row.ordered === 1,
      bookIds,
      created: row.created,
      lastModified: row.last_modified,
    };
  }

  findById(id: string): ReadList | undefined {
    const row = this.db.prepare('SELECT * FROM readlist WHERE id = ?').get(id) as ReadListRow | undefined;
    return row ? this.hydrate(row) : undefined;
  }

  findByName(name: string): ReadList | undefined {
    const row = this.db.prepare('SELECT * FROM readlist WHERE name = ?').get(name) as ReadListRow | undefined;
    return row ? this.hydrate(row) : undefined;
  }

  /**
   * Every read list whose name contains `search`, in the requested order: Komga sorts read lists by
   * name, createdDate or lastModifiedDate and ignores other properties; by name when none is known.
   */
  findAll(search?: string, sort: SortOrder[] = []): { lists: ReadList[]; sorted: boolean } {
    const order = orderBy(sort, READLIST_SORTS, [{ property: 'name', direction: 'asc' }], 'id');
    const match = search ? fullTextMatch(search, NAME_SEARCH) : undefined;
    const rows = this.db.prepare(`SELECT * FROM readlist ${match ? `WHERE ${match.sql}` : ''} ${order.clause}`).all(...(match?.params ?? [])) as ReadListRow[];
    // Komga reports a page unsorted only when every property asked for was unknown.
    return { lists: rows.map((row) => this.hydrate(row)), sorted: sort.length === 0 || order.sorted };
  }

  findByBook(bookId: string): ReadList[] {
    const rows = this.db
      .prepare(
        `SELECT r.* FROM readlist r JOIN readlist_book rb ON rb.readlist_id = r.id
         WHERE rb.book_id = ? ORDER BY r.name COLLATE NOCASE`,
      )
      .all(bookId) as ReadListRow[];
    return rows.map((row) => this.hydrate(row));
  }

  save(list: ReadList): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO readlist (id, name, summary, ordered, created, last_modified) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET name = excluded.name, summary = excluded.summary, ordered = excluded.ordered,
             last_modified = excluded.last_modified`,
        )
        .run(list.id, list.name, list.summary, list.ordered ? 1 : 0, list.created, list.lastModified);
      this.db.prepare('DELETE FROM readlist_book WHERE readlist_id = ?').run(list.id);
      const insert = this.db.prepare('INSERT INTO readlist_book (readlist_id, book_id, number) VALUES (?, ?, ?)');
      list.bookIds.forEach((bookId, index) => insert.run(list.id, bookId, index));
    })();
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM readlist WHERE id = ?').run(id);
  }

  /** Read lists without a single book. */
  findEmptyIds(): string[] {
    return this.db
      .prepare('SELECT id FROM readlist r WHERE NOT EXISTS (SELECT 1 FROM readlist_book rb WHERE rb.readlist_id = r.id)')
      .pluck()
      .all() as string[];
  }

  /**
   * Puts one book in a list at a given position number (imported story-arc numbers), or after
   * the last one when no number is known. Other members keep their numbers.
   */
  placeBook(readListId: string, bookId: string, number: number | undefined): void {
    const position =
      number ??
      ((this.db.prepare('SELECT MAX(number) FROM readlist_book WHERE readlist_id = ?').pluck().get(readListId) as number | null) ?? -1) + 1;
    this.db
      .prepare(
        `INSERT INTO readlist_book (readlist_id, book_id, number) VALUES (?, ?, ?)
         ON CONFLICT(readlist_id, book_id) DO UPDATE SET number = excluded.number`,
      )
      .run(readListId, bookId, position);
  }
}
