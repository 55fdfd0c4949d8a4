import { type SqlFragment, sql } from './sql-fragment.ts';

/**
 * "On deck" (REFERENCE §3.5): for each series where the user has finished at least one book and
 * has none in progress, the first unread live book in series order.
 */
export function onDeckRestriction(userId: string): SqlFragment {
  // The candidate series are computed once from the user's own progress (an uncorrelated IN),
  // not tested per book: a correlated EXISTS per book walked all of the user's progress rows for
  // each of the library's books (23 s at 50,000 books and 300 progress rows). The planner then
  // reads only those series' books through book_series.
  return sql(
    `b.deleted_date IS NULL
     AND r.book_id IS NULL
     AND b.series_id IN (
       SELECT xb.series_id FROM read_progress xr JOIN book xb ON xb.id = xr.book_id
        WHERE xr.user_id = ? AND xr.completed = 1 AND xb.deleted_date IS NULL
       EXCEPT
       SELECT xb.series_id FROM read_progress xr JOIN book xb ON xb.id = xr.book_id
        WHERE xr.user_id = ? AND xr.completed = 0 AND xb.deleted_date IS NULL)
     AND NOT EXISTS (SELECT 1 FROM book yb JOIN book_metadata ym ON ym.book_id = yb.id
                 LEFT JOIN read_progress yr ON yr.book_id = yb.id AND yr.user_id = ?
                 WHERE yb.series_id = b.series_id AND yb.deleted_date IS NULL AND yr.book_id IS NULL
                   AND (ym.number_sort < bm.number_sort OR (ym.number_sort = bm.number_sort AND yb.id < b.id)))`,
    userId,
    userId,
    userId,
  );
}

/** "Updated" series: modified after creation (i.e. not merely new). */
export const updatedSeriesRestriction = (): SqlFragment => sql('s.last_modified > s.created');
