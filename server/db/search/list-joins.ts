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

/** Whether a statement's text names `alias.` (`bm.` does not name `m`, nor `rsm.` name `sm`). */
export const namesAlias = (text: string, alias: string) => new RegExp(`(?<![\\w$])${alias}\\.`).test(text);

/**
 * The joins of `joins` the texts name, in order. A count reads every matching row, and each join is
 * one more key lookup per row: at 55,000 books the book table alone counted in 3 ms, with its
 * metadata, media and series metadata joined in 76 ms, although none of them changes how many rows
 * there are. That holds because Folio writes a book with its book_metadata and media rows and a
 * series with its series_metadata row, in one transaction (scanner.ts), and they are only deleted
 * with it (ON DELETE CASCADE): an inner join to them neither drops nor repeats a row. A left join
 * by key never does. So a count joins only what its conditions read.
 */
export function joinsNamed(joins: readonly ListJoin[], ...texts: string[]): SqlFragment {
  const used = joins.filter((join) => texts.some((text) => namesAlias(text, join.alias)));
  return { sql: used.map((join) => join.sql).join('\n  '), params: used.flatMap((join) => join.params ?? []) };
}

/** Every join of `joins`: what a page of rows reads (its DTOs are built from them). */
export const allJoins = (joins: readonly ListJoin[]): SqlFragment => ({ sql: joins.map((join) => join.sql).join('\n  '), params: joins.flatMap((join) => join.params ?? []) });
