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

/** The plans of the COUNT statements a search runs. */
function countPlans(run: () => unknown): string[] {
  const original = db.prepare.bind(db);
  const plans: string[] = [];
  (db as unknown as { prepare: unknown }).prepare = (source: string) => {
    const statement = original(source);
    if (!/^SELECT COUNT\(\*\)/.test(source)) return statement;
    const explain = original(`EXPLAIN QUERY PLAN ${source}`);
    return { get: (...args: unknown[]) => (plans.push((explain.all(...args) as { detail: string }[]).map((r) => r.detail).join('\n')), statement.get(...args)) };
  };
  try {
    run();
    return plans;
  } finally {
    (db as unknown as { prepare: unknown }).prepare = original;
  }
}

describe('a count joins only what its conditions read', () => {
  // bench/big-library.ts: "latest books" counted 55,000 books joined to their metadata, media and
  // series metadata (40-110 ms) when the book table alone tells how many there are (3 ms).
  const lookups = (plan: string) => [...plan.matchAll(/SEARCH (\w+) USING/g)].map((m) => m[1]);

  it('books: the book table alone, then each table a condition names', () => {
    const plain = countPlans(() => searchBooks(db, { userId: 'nobody', condition: { deleted: { operator: 'isFalse' } }, sort: [{ property: 'lastModified', direction: 'desc' }], limit: 2, offset: 0 }));
    expect(plain).toHaveLength(1);
    expect(lookups(plain[0]!)).toEqual([]);
    const ready = countPlans(() => searchBooks(db, { userId: 'nobody', condition: { mediaStatus: { operator: 'is', value: 'READY' } }, sort: [], limit: 2, offset: 0 }));
    expect(ready.join('\n')).toMatch(/\bm\b/);
    expect(ready.join('\n')).not.toMatch(/\b(bm|sm|r)\b/);
    const unread = countPlans(() => searchBooks(db, { userId: 'nobody', condition: { readStatus: { operator: 'is', value: 'UNREAD' } }, sort: [], limit: 2, offset: 0 }));
    expect(unread.join('\n')).toMatch(/\br\b/);
  });

  it('series: the series table alone unless a condition reads its metadata', () => {
    const plain = countPlans(() => searchSeries(db, { userId: 'nobody', sort: [{ property: 'metadata.titleSort', direction: 'asc' }], limit: 2, offset: 0 }));
    expect(plain).toHaveLength(1);
    expect(lookups(plain[0]!)).toEqual([]);
    const ended = countPlans(() => searchSeries(db, { userId: 'nobody', condition: { seriesStatus: { operator: 'is', value: 'ONGOING' } }, sort: [], limit: 2, offset: 0 }));
    expect(ended.join('\n')).toMatch(/\bsm\b/);
  });

  it('and the totals are those of the rows listed', () => {
    for (const condition of [undefined, { deleted: { operator: 'isFalse' } }, { mediaStatus: { operator: 'is', value: 'READY' } }, { readStatus: { operator: 'is', value: 'UNREAD' } }, nothing]) {
      const whole = searchBooks(db, { userId: 'nobody', condition, sort: [], limit: null, offset: 0 });
      expect(searchBooks(db, { userId: 'nobody', condition, sort: [], limit: 2, offset: 0 }).total).toBe(whole.ids.length);
    }
    for (const condition of [undefined, { seriesStatus: { operator: 'is', value: 'ONGOING' } }, { readStatus: { operator: 'is', value: 'UNREAD' } }]) {
      const whole = searchSeries(db, { userId: 'nobody', condition, sort: [], limit: null, offset: 0 });
      expect(searchSeries(db, { userId: 'nobody', condition, sort: [], limit: 2, offset: 0 }).total).toBe(whole.ids.length);
    }
  });
});
