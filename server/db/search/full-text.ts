import { SearchConditionError } from './conditions.ts';
import { foldText, foldedSql } from './fold-text.ts';
import { type SqlFragment, likeEscape } from './sql-fragment.ts';

/**
 * Distinct words a search may hold. Each word is a LIKE over every searched field of every row, so
 * thousands of words made one request scan the library thousands of times, and past about a
 * thousand SQLite refused the statement ("Expression tree is too large") with a 500.
 */
export const MAX_SEARCH_WORDS = 32;

/** The text of a JSON array member: a string, or an object's name (authors) or title (alternate titles). */
const JSON_TEXT = "(CASE type WHEN 'object' THEN coalesce(json_extract(value, '$.name'), json_extract(value, '$.title')) ELSE value END)";

/**
 * Full-text search without an index: every word of the term must appear in at least one of the
 * fields, accents and case ignored (Komga's index folds them: "Pokemon" finds "Pokémon").
 * `foldedFields` are SQL for the fields' folded forms (fold-text.ts); `jsonFields` are JSON arrays
 * of strings or of `{name}` objects (tags, genres, authors, alternate titles).
 */
export function allWordsMatch(term: string, foldedFields: string[], jsonFields: string[]): SqlFragment | undefined {
  // A word said twice narrows nothing (the match ignores accents and case).
  const words = [...new Set(term.trim().split(/\s+/).filter(Boolean).map(foldText))];
  if (words.length === 0) return undefined;
  if (words.length > MAX_SEARCH_WORDS) throw new SearchConditionError(`A search may hold at most ${MAX_SEARCH_WORDS} different words`);
  const perWord = [
    ...foldedFields.map((f) => `${f} LIKE ? ESCAPE '\\'`),
    ...jsonFields.map(
      (f) =>
        `EXISTS (SELECT 1 FROM json_each(${f}) WHERE ${foldedSql(JSON_TEXT)} LIKE ? ESCAPE '\\')`,
    ),
  ];
  return {
    sql: words.map(() => `(${perWord.join(' OR ')})`).join(' AND '),
    params: words.flatMap((w) => perWord.map(() => `%${likeEscape(w)}%`)),
  };
}

/** Ranks exact title matches first, then titles starting with the term, then the rest (`foldedTitle` as in allWordsMatch). */
export function titleRelevance(term: string, foldedTitle: string): SqlFragment {
  const trimmed = term.trim();
  return {
    sql: `CASE WHEN ${foldedTitle} = ? THEN 0 WHEN ${foldedTitle} LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END`,
    params: [foldText(trimmed), `${likeEscape(foldText(trimmed))}%`],
  };
}

/** Whether results should be ranked: a term and no explicit sort, or an explicit `relevance` sort. */
export function wantsRelevance(term: string | undefined, sort: { property: string }[]): boolean {
  if (!term?.trim()) return false;
  return sort.length === 0 || sort.some((s) => s.property === 'relevance');
}
