import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../../server/db/database.ts';
import { type CatalogueDatabase, openCatalogueDatabase } from './support/catalogue-database.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';
import { searchSeries } from '../../../server/db/search/series-search.ts';
import { withPlans } from './query-plans.ts';

/**
 * A read list's books and a collection's series (readListId / collectionId conditions, the read
 * list and collection pages, OPDS, Mihon) were found by testing every book or series of the server
 * for membership: bench/big-library.ts, a read list of 200 books among 55,000, 145-225 ms for the
 * admin, and sorting them by their place in the list read every list's entries once per member (no
 * index by member). These check the members and order are exact, and the plans use the indexes.
 */
let catalogue: CatalogueDatabase;
let db: Db;
const bookIds: string[] = [];
const seriesIds: string[] = [];
const READ_LIST = 'RL';
const COLLECTION = 'CO';

beforeAll(async () => {
  catalogue = await openCatalogueDatabase('membership-plans');
  db = catalogue.db;
  for (let s = 0; s < 30; s++) {
    const seriesId = catalogue.addSeries(`S${s}`);
    seriesIds.push(seriesId);
    for (let b = 1; b <= 3; b++) {
      bookIds.push(catalogue.addBook(seriesId, `S${s} ${b}`, b));
    }
  }
  db.prepare('INSERT INTO readlist (id, name, created, last_modified) VALUES (?, ?, ?, ?)').run(READ_LIST, 'List', catalogue.now, catalogue.now);
  bookIds.filter((_, i) => i % 7 === 0).forEach((id, n) => db.prepare('INSERT INTO readlist_book (readlist_id, book_id, number) VALUES (?, ?, ?)').run(READ_LIST, id, n));
  db.prepare('INSERT INTO collection (id, name, created, last_modified) VALUES (?, ?, ?, ?)').run(COLLECTION, 'Collection', catalogue.now, catalogue.now);
  seriesIds.filter((_, i) => i % 4 === 1).forEach((id, n) => db.prepare('INSERT INTO collection_series (collection_id, series_id, number) VALUES (?, ?, ?)').run(COLLECTION, id, n));
});

afterAll(async () => {
  await catalogue.close();
});


it('a read list holds exactly its books, read from the list and not from every book', () => {
  const members = bookIds.filter((_, i) => i % 7 === 0);
  const is = withPlans(db, () => searchBooks(db, { userId: 'u', condition: { readListId: { operator: 'is', value: READ_LIST } }, sort: [{ property: 'readList.number', direction: 'asc' }], limit: 5, offset: 0 }));
  expect(is.result.ids).toEqual(members.slice(0, 5));
  expect(is.result.total).toBe(members.length);
  // Its books are looked up by id from the list (the sort by list position then reads each one's entry).
  expect(is.plan).not.toMatch(/^SCAN b\b|SEARCH b USING INDEX book_library/m);
  expect(is.plan).toMatch(/SEARCH b USING INDEX sqlite_autoindex_book_1 \(id=\?\)\nLIST SUBQUERY/);
  expect(is.plan).toMatch(/rb USING COVERING INDEX sqlite_autoindex_readlist_book_1 \(readlist_id=\?\)/);
  // Each book's position is found from its own entries (migration 015), not by reading every list's.
  expect(is.plan).toMatch(/SEARCH rb USING INDEX readlist_book_book \(book_id=\?\)/);
  const isNot = searchBooks(db, { userId: 'u', condition: { readListId: { operator: 'isNot', value: READ_LIST } }, sort: [], limit: null, offset: 0 });
  expect(new Set(isNot.ids)).toEqual(new Set(bookIds.filter((id) => !members.includes(id))));
});

it('a collection holds exactly its series, read from the collection and not from every series', () => {
  const collected = seriesIds.filter((_, i) => i % 4 === 1);
  const is = withPlans(db, () => searchSeries(db, { userId: 'u', condition: { collectionId: { operator: 'is', value: COLLECTION } }, sort: [{ property: 'collection.number', direction: 'asc' }], limit: 3, offset: 0 }));
  expect(is.result.ids).toEqual(collected.slice(0, 3));
  expect(is.result.total).toBe(collected.length);
  // Its series are looked up by key from the collection, never by reading every series.
  expect(is.plan).not.toMatch(/^SCAN (s|sm)\b/m);
  expect(is.plan).toMatch(/SEARCH (s|sm) USING (COVERING )?INDEX \S+ \((series_)?id=\?\)\nLIST SUBQUERY/);
  expect(is.plan).toMatch(/cs USING COVERING INDEX sqlite_autoindex_collection_series_1 \(collection_id=\?\)/);
  expect(is.plan).toMatch(/SEARCH cs USING INDEX collection_series_series \(series_id=\?\)/);
  const isNot = searchSeries(db, { userId: 'u', condition: { collectionId: { operator: 'isNot', value: COLLECTION } }, sort: [], limit: null, offset: 0 });
  expect(new Set(isNot.ids)).toEqual(new Set(seriesIds.filter((id) => !collected.includes(id))));
});
