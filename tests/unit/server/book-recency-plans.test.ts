import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/database.ts';
import { type CatalogueDatabase, openCatalogueDatabase } from './support/catalogue-database.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';
import { withPlans } from './query-plans.ts';

/**
 * "Recently added/updated books" sort every book by date to keep one page: at 50,000 books
 * (bench/big-library.ts) each dashboard load sorted them all in a temp B-tree. Migration 013 indexes
 * the two dates; the answers must stay the same, newest first, ties by id.
 */

let catalogue: CatalogueDatabase;
let db: Db;
const books: { id: string; created: number; lastModified: number; deleted: boolean }[] = [];

beforeAll(async () => {
  catalogue = await openCatalogueDatabase('recency');
  db = catalogue.db;
  for (let s = 0; s < 30; s++) {
    const seriesId = catalogue.addSeries(`S${s}`);
    for (let b = 0; b < 5; b++) {
      // Dates out of id order, some equal (ties go by id), some books deleted.
      const created = catalogue.now - ((s * 37 + b * 11) % 50) * 1000;
      const lastModified = catalogue.now - ((s * 13 + b * 29) % 40) * 1000;
      const deleted = (s + b) % 9 === 0;
      const id = catalogue.addBook(seriesId, `S${s} ${b}`, b, { created, lastModified, deleted });
      books.push({ id, created, lastModified, deleted });
    }
  }
});

afterAll(async () => {
  await catalogue.close();
});

describe.each([
  ['lastModified', 'lastModified', 'book_last_modified'],
  ['createdDate', 'created', 'book_created'],
] as const)('books newest first by %s', (property, field, index) => {
  it('pages as a full sort would, read through the index', () => {
    const expected = books
      .filter((b) => !b.deleted)
      .sort((a, b) => b[field] - a[field] || (a.id < b.id ? -1 : 1))
      .map((b) => b.id);
    for (const offset of [0, 20, 40]) {
      const { result, plan } = withPlans(db, () =>
        searchBooks(db, { userId: 'nobody', condition: { deleted: { operator: 'isFalse' } }, sort: [{ property, direction: 'desc' }], limit: 20, offset }),
      );
      expect(result.ids).toEqual(expected.slice(offset, offset + 20));
      expect(result.total).toBe(expected.length);
      expect(plan).toContain(`SCAN b USING INDEX ${index}`);
      expect(plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  });
});

describe('ready books newest first (OPDS latest books)', () => {
  // OPDS 1.2 and 2 ask for ready, live books by creation date. READY was an index search
  // (media_status): SQLite read every ready book, 55,000 in bench/big-library.ts, and sorted them all.
  const ready = { allOf: [{ mediaStatus: { operator: 'is', value: 'READY' } }, { deleted: { operator: 'isFalse' } }] };

  it('walks the date index and skips the books that are not ready', () => {
    const failed = books.filter((_, i) => i % 4 === 1).map((b) => b.id);
    for (const id of failed) db.prepare("UPDATE media SET status = 'ERROR' WHERE book_id = ?").run(id);
    try {
      const expected = books
        .filter((b) => !b.deleted && !failed.includes(b.id))
        .sort((a, b) => b.created - a.created || (a.id < b.id ? -1 : 1))
        .map((b) => b.id);
      for (const offset of [0, 20, 40]) {
        const { result, plan } = withPlans(db, () => searchBooks(db, { userId: 'nobody', condition: ready, sort: [{ property: 'createdDate', direction: 'desc' }], limit: 20, offset }));
        expect(result.ids).toEqual(expected.slice(offset, offset + 20));
        expect(result.total).toBe(expected.length);
        expect(plan).toContain('SCAN b USING INDEX book_created');
        expect(plan).not.toMatch(/media_status/);
      }
      // The few books in a rarer state are still found through the index (the media analysis screen).
      const { result, plan } = withPlans(db, () => searchBooks(db, { userId: 'nobody', condition: { mediaStatus: { operator: 'is', value: 'ERROR' } }, sort: [], limit: null, offset: 0 }));
      expect(new Set(result.ids)).toEqual(new Set(failed));
      expect(plan).toMatch(/SEARCH m USING (COVERING )?INDEX media_status/);
    } finally {
      db.prepare("UPDATE media SET status = 'READY'").run();
    }
  });
});
