/**
 * How Komga compares text in searches: contains / beginsWith / endsWith through its SQLite function
 * UDF_STRIP_ACCENTS (commons-lang `stripAccents`: decompose, drop the combining marks, Ł → L), so
 * "Pokemon" finds "Pokémon"; is / isNot through an ICU collation at primary strength, which ignores
 * accents and case; its full-text index folds accents too. Folio compares the folded forms below.
 */

/** Combining diacritical marks (U+0300–U+036F), left behind by canonical decomposition. */
const COMBINING_MARKS = /[\u0300-\u036f]/g;
/** Letters whose stroke is not a combining mark, so decomposition keeps them (commons-lang maps them). */
const STROKED: Record<string, string> = { Ł: 'L', ł: 'l' };
const STROKED_LETTERS = /[Łł]/g;
/** Printable ASCII: nothing to strip, the common case, answered without normalising. */
const PRINTABLE_ASCII = /^[ -~]*$/;

export function stripAccents(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  return text.normalize('NFD').replace(COMBINING_MARKS, '').replace(STROKED_LETTERS, (c) => STROKED[c]!).normalize('NFC');
}

/** The form two texts share when they are equal ignoring accents and case. */
export function foldText(text: string): string {
  return stripAccents(text).toLowerCase();
}

/**
 * SQL for a text column's folded form (NULL stays NULL). fold_text is a call into JavaScript, so
 * ASCII text, as long in bytes as in characters, whose folded form is its lower case, is folded by
 * SQLite's lower(): over 10,000 titles one in ten accented, 5-6 ms against 11 ms calling fold_text
 * for every row (a GLOB for non-ASCII characters saved nothing), and 1 ms for a stored column, which
 * titles have (migration 007).
 */
export function foldedSql(column: string): string {
  return `(CASE WHEN length(CAST(${column} AS BLOB)) = length(${column}) THEN lower(${column}) ELSE fold_text(${column}) END)`;
}
