import type { Db } from './database.ts';
import { type BookQuery, type IdPage, searchBooks } from './search/book-search.ts';
import { type SeriesQuery, searchSeries } from './search/series-search.ts';

/** Searches of books and series by Komga's condition grammar (compiled to SQL in search/). */
export class SearchRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** One page of book ids matching the query; a condition written wrongly throws SearchConditionError. */
  books(query: BookQuery): IdPage {
    return searchBooks(this.db, query);
  }

  /** One page of series ids matching the query; a condition written wrongly throws SearchConditionError. */
  series(query: SeriesQuery): IdPage {
    return searchSeries(this.db, query);
  }
}
