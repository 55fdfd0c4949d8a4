import type Database from 'better-sqlite3';
import { foldText, foldedSql } from './search/fold-text.ts';

/**
 * The titles the search compares folded (search/fold-text.ts), stored beside the title they come
 * from so a search compares a plain column (migration 007). This file owns them: the repositories
 * add them to every write through withFoldedTitles, and refoldMissingTitles fills in those another
 * tool left NULL (migration 008: a tool without Folio's fold_text cannot compute them).
 */

/** A folded column and the column it is folded from (always that column's name + `_folded`). */
type Fold = readonly [folded: string, source: string];

export const SERIES_FOLDS: readonly Fold[] = [
  ['title_folded', 'title'],
  ['title_sort_folded', 'title_sort'],
];
export const BOOK_FOLDS: readonly Fold[] = [['title_folded', 'title']];

/** The folded column names, to add to a write statement's columns. */
export function foldedColumns(folds: readonly Fold[]): string[] {
  return folds.map(([folded]) => folded);
}

/** A write's named parameters with each folded column computed from its source. */
export function withFoldedTitles(params: Record<string, unknown>, folds: readonly Fold[]): Record<string, unknown> {
  for (const [folded, source] of folds) {
    const value = params[source];
    params[folded] = value === null || value === undefined ? null : foldText(String(value));
  }
  return params;
}

/**
 * SQL for a stored folded title, folding the title on the fly where another tool left the stored
 * form NULL, so such a row is found before the next start folds it (COALESCE evaluates the fold
 * only for those rows; the others cost a plain column read).
 */
export function storedFoldedSql(alias: string, source: 'title' | 'title_sort'): string {
  return `COALESCE(${alias}.${source}_folded, ${foldedSql(`${alias}.${source}`)})`;
}

const TABLES: readonly { table: string; key: string; folds: readonly Fold[] }[] = [
  { table: 'series_metadata', key: 'series_id', folds: SERIES_FOLDS },
  { table: 'book_metadata', key: 'book_id', folds: BOOK_FOLDS },
];

/**
 * Folds every folded title that is NULL while its source is not: rows another tool inserted or
 * retitled (migration 008's triggers NULL a title's folded form when it changes alone), and every
 * row after a migration that changed how text folds. Returns how many rows it folded.
 */
export function refoldMissingTitles(db: Database.Database): number {
  let count = 0;
  db.transaction(() => {
    for (const { table, key, folds } of TABLES) {
      const missing = folds.map(([folded, source]) => `(${folded} IS NULL AND ${source} IS NOT NULL)`).join(' OR ');
      const rows = db.prepare(`SELECT ${key}, ${folds.map(([, source]) => source).join(', ')} FROM ${table} WHERE ${missing}`).all() as Record<string, unknown>[];
      if (rows.length === 0) continue;
      const update = db.prepare(`UPDATE ${table} SET ${folds.map(([folded]) => `${folded} = @${folded}`).join(', ')} WHERE ${key} = @${key}`);
      for (const row of rows) update.run(withFoldedTitles(row, folds));
      count += rows.length;
    }
  })();
  return count;
}
