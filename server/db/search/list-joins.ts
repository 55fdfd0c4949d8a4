import type { SqlFragment } from './sql-fragment.ts';

/**
 * A table a list query joins to its main row by key (one row each: book_metadata, media,
 * series_metadata, the caller's read_progress), known in the SQL by `alias`.
 */
export interface ListJoin {
  alias: string;
  sql: string;
  params?: unknown[];
}

/** Every join of `joins`: what a page of rows reads (its DTOs are built from them). */
export const allJoins = (joins: readonly ListJoin[]): SqlFragment => ({ sql: joins.map((join) => join.sql).join('\n  '), params: joins.flatMap((join) => join.params ?? []) });
