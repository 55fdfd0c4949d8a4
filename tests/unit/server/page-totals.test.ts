import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/database.ts';
import { type CatalogueDatabase, openCatalogueDatabase } from './support/catalogue-database.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';
import { searchSeries } from '../../../server/db/search/series-search.ts';

/**
 * Every page of a book or series list counted all its matching rows (a COUNT over 50,000 books
 * costs as much as the page), and so did a whole (unpaged) list, whose length is its total. The
 * count now runs only when the page cannot tell the total; the totals, which Komga's clients page
 * with, stay exact.
 */
const SERIES = 7;
const BOOKS = 3;
let catalogue: CatalogueDatabase;
let db: Db;

beforeAll(async () => {
  catalogue = await openCatalogueDatabase('page-totals');
  db = catalogue.db;
  for (let s = 0; s < SERIES; s++) {
    const seriesId = catalogue.addSeries(`S${s}`);
    for (let b = 1; b <= BOOKS; b++) {
      catalogue.addBook(seriesId, `S${s} ${b}`, b);
    }
  }
});

afterAll(async () => {
  await catalogue.close();
});

/** The statements a search prepares (each runs once), and its result. */
function counting<T>(run: () => T): { result: T; counts: number } {
  const original = db.prepare.bind(db);
  let counts = 0;
  (db as unknown as { prepare: unknown }).prepare = (source: string) => {
    if (/^SELECT COUNT\(\*\)/.test(source)) counts++;
    return original(source);
  };
  try {
    return { result: run(), counts };
  } finally {
    (db as unknown as { prepare: unknown }).prepare = original;
  }
}

const lists = {
  books: (limit: number | null, offset: number, condition?: unknown) => searchBooks(db, { userId: 'nobody', condition, sort: [], limit, offset }),
  series: (limit: number | null, offset: number, condition?: unknown) => searchSeries(db, { userId: 'nobody', condition, sort: [], limit, offset }),
};
const sizes = { books: SERIES * BOOKS, series: SERIES };
const nothing = { deleted: { operator: 'isTrue' } };

describe.each(['books', 'series'] as const)('%s', (kind) => {
  const all = sizes[kind];
  const list = lists[kind];

  it('a whole list is its own total, with no count', () => {
    const { result, counts } = counting(() => list(null, 0));
    expect(result.ids.length).toBe(all);
    expect(result.total).toBe(all);
    expect(counts).toBe(0);
  });

  it('the last page, not full, tells the total, with no count', () => {
    const { result, counts } = counting(() => list(5, 5 * Math.floor(all / 5)));
    expect(result.ids.length).toBe(all % 5);
    expect(result.total).toBe(all);
    expect(counts).toBe(0);
  });

  it('an empty list is known from its empty first page', () => {
    const { result, counts } = counting(() => list(5, 0, nothing));
    expect(result).toMatchObject({ ids: [], total: 0 });
    expect(counts).toBe(0);
  });

  it('a full page, or an empty one past the end, is counted', () => {
    for (const [limit, offset] of [[2, 0], [2, 2], [all, 0], [2, all + 10]] as const) {
      const { result, counts } = counting(() => list(limit, offset));
      expect(result.total, `${limit}@${offset}`).toBe(all);
      expect(counts, `${limit}@${offset}`).toBe(1);
    }
    const sizeZero = counting(() => list(0, 0));
    expect(sizeZero.result).toMatchObject({ ids: [], total: all });
    const past = counting(() => list(5, 40, nothing));
    expect(past.result.total).toBe(0);
  });
});
