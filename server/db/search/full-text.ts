import { SearchConditionError } from './conditions.ts';
import { type SqlFragment, likeEscape } from './sql-fragment.ts';

/**
 * Distinct words a search may hold. Each word is a LIKE over every searched field of every row, so
 * thousands of words made one request scan the library thousands of times, and past about a
 * thousand SQLite refused the statement ("Expression tree is too large") with a 500.
 */
export const MAX_SEARCH_WORDS = 32;

/**
 * Full-text search without an index: every word of the term must appear (case-insensitively)
 * in at least one of the fields. `jsonFields` are JSON arrays of strings or of `{name}` objects
 * (tags, genres, authors, alternate titles).
 */
export function allWordsMatch(term: string, fields: string[], jsonFields: string[]): SqlFragment | undefined {
  // A word said twice narrows nothing (the match ignores case).
  const words = [...new Map(term.trim().split(/\s+/).filter(Boolean).map((w) => [w.toLowerCase(), w])).values()];
  if (words.length === 0) return undefined;
  if (words.length > MAX_SEARCH_WORDS) throw new SearchConditionError(`A search may hold at most ${MAX_SEARCH_WORDS} different words`);
  const perWord = [
    ...fields.map((f) => `${f} LIKE ? ESCAPE '\\'`),
    ...jsonFields.map(
      (f) =>
        `EXISTS (SELECT 1 FROM json_each(${f}) WHERE (CASE type WHEN 'object' THEN coalesce(json_extract(value, '$.name'), json_extract(value, '$.title')) ELSE value END) LIKE ? ESCAPE '\\')`,
    ),
  ];
  return {
    sql: words.map(() => `(${perWord.join(' OR ')})`).join(' AND '),
    params: words.flatMap((w) => perWord.map(() => `%${likeEscape(w)}%`)),
  };
}

/** Ranks exact title matches first, then titles starting with the term, then the rest. */
export function titleRelevance(term: string, titleColumn: string): SqlFragment {
  const trimmed = term.trim();
  return {
    sql: `CASE WHEN lower(${titleColumn}) = lower(?) THEN 0 WHEN ${titleColumn} LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END`,
    params: [trimmed, `${likeEscape(trimmed)}%`],
  };
}

/** Whether results should be ranked: a term and no explicit sort, or an explicit `relevance` sort. */
export function wantsRelevance(term: string | undefined, sort: { property: string }[]): boolean {
  if (!term?.trim()) return false;
  return sort.length === 0 || sort.some((s) => s.property === 'relevance');
}
