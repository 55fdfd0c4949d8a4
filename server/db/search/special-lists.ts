import { type SqlFragment, sql } from './sql-fragment.ts';

/**
 * "On deck" (REFERENCE §3.5): for each series where the user has finished at least one book and
 * has none in progress, the first unread live book in series order. The ids of those books, as a
 * set the book query starts from (book-search.ts): there is at most one per series the user has
 * read in, so it is always small, whatever else the query asks.
 *
 * The candidate series come once from the user's own progress (an uncorrelated set; a correlated
 * EXISTS per book walked all of the user's progress for each of the library's books: 23 s at
 * 50,000 books), and each one's first unread book from its own few books (book_series). As a
 * condition on the books instead, a library filter beside it made SQLite start from every book of
 * the library (book_library) and test each one: 10-25 ms at 50,000 books against 1-5 ms.
 */
export function onDeckBooks(userId: string): SqlFragment {
  return sql(
    `SELECT (SELECT yb.id FROM book yb JOIN book_metadata ym ON ym.book_id = yb.id
               LEFT JOIN read_progress yr ON yr.book_id = yb.id AND yr.user_id = ?
              WHERE yb.series_id = candidate.series_id AND yb.deleted_date IS NULL AND yr.book_id IS NULL
              ORDER BY ym.number_sort, yb.id LIMIT 1) AS book_id
       FROM (SELECT xb.series_id FROM read_progress xr JOIN book xb ON xb.id = xr.book_id
              WHERE xr.user_id = ? AND xr.completed = 1 AND xb.deleted_date IS NULL
             EXCEPT
             SELECT xb.series_id FROM read_progress xr JOIN book xb ON xb.id = xr.book_id
              WHERE xr.user_id = ? AND xr.completed = 0 AND xb.deleted_date IS NULL) candidate`,
    userId,
    userId,
    userId,
  );
}

/** "Updated" series: modified after creation (i.e. not merely new). */
export const updatedSeriesRestriction = (): SqlFragment => sql('s.last_modified > s.created');
