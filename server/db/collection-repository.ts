import type { Db } from './database.ts';
import { foldedSql } from './search/fold-text.ts';
import { type FullTextFields, fullTextMatch } from './search/full-text.ts';

/** Komga searches names through its index (search box syntax, accents ignored): see full-text.ts. */
const NAME_SEARCH: FullTextFields = { defaults: { folded: [foldedSql('name')] }, named: { name: { folded: [foldedSql('name')] } }, authors: [] };

export interface Collection {
  id: string;
  name: string;
  ordered: boolean;
  /** Member series in collection order. */
  seriesIds: string[];
  created: number;
  lastModified: number;
}

interface CollectionRow {
  id: string;
  name: string;
  ordered: number;
  created: number;
  last_modified: number;
}

/** Collections of series (manual groupings, optionally ordered). */
export class CollectionRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private hydrate(row: CollectionRow): Collection {
    const seriesIds = this.db
      .prepare('SELECT series_id FROM collection_series WHERE collection_id = ? ORDER BY number')
      .pluck()
      .all(row.id) as string[];
    return { id: row.id, name: row.name, ordered: row.ordered === 1, seriesIds, created: row.created, lastModified: row.last_modified };
  }

  findById(id: string): Collection | undefined {
    const row = this.db.prepare('SELECT * FROM collection WHERE id = ?').get(id) as CollectionRow | undefined;
    return row ? this.hydrate(row) : undefined;
  }

  findByName(name: string): Collection | undefined {
    const row = this.db.prepare('SELECT * FROM collection WHERE name = ?').get(name) as CollectionRow | undefined;
    return row ? this.hydrate(row) : undefined;
  }

  /** All collections sorted by name, optionally those whose name contains `search`. */
  findAll(search?: string): Collection[] {
    const match = search ? fullTextMatch(search, NAME_SEARCH) : undefined;
    const rows = this.db.prepare(`SELECT * FROM collection ${match ? `WHERE ${match.sql}` : ''} ORDER BY name COLLATE NOCASE`).all(...(match?.params ?? [])) as CollectionRow[];
    return rows.map((row) => this.hydrate(row));
  }

  findBySeries(seriesId: string): Collection[] {
    const rows = this.db
      .prepare(
        `SELECT c.* FROM collection c JOIN collection_series cs ON cs.collection_id = c.id
         WHERE cs.series_id = ? ORDER BY c.name COLLATE NOCASE`,
      )
      .all(seriesId) as CollectionRow[];
    return rows.map((row) => this.hydrate(row));
  }

  /** Inserts or replaces a collection and its members. */
  save(collection: Collection): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO collection (id, name, ordered, created, last_modified) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET name = excluded.name, ordered = excluded.ordered, last_modified = excluded.last_modified`,
        )
        .run(collection.id, collection.name, collection.ordered ? 1 : 0, collection.created, collection.lastModified);
      this.db.prepare('DELETE FROM collection_series WHERE collection_id = ?').run(collection.id);
      const insert = this.db.prepare('INSERT INTO collection_series (collection_id, series_id, number) VALUES (?, ?, ?)');
      collection.seriesIds.forEach((seriesId, index) => insert.run(collection.id, seriesId, index));
    })();
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM collection WHERE id = ?').run(id);
  }

  /** Collections without a single series. */
  findEmptyIds(): string[] {
    return this.db
      .prepare('SELECT id FROM collection c WHERE NOT EXISTS (SELECT 1 FROM collection_series cs WHERE cs.collection_id = c.id)')
      .pluck()
      .all() as string[];
  }

  /** Appends a series to a collection unless it is already a member; true when added. */
  addSeries(collectionId: string, seriesId: string): boolean {
    const next = ((this.db.prepare('SELECT MAX(number) FROM collection_series WHERE collection_id = ?').pluck().get(collectionId) as number | null) ?? -1) + 1;
    return (
      this.db
        .prepare('INSERT OR IGNORE INTO collection_series (collection_id, series_id, number) VALUES (?, ?, ?)')
        .run(collectionId, seriesId, next).changes > 0
    );
  }
}
