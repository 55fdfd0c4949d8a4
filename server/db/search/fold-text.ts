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
 * SQL for a text column's folded form (NULL stays NULL). fold_text is a call into JavaScript,
 * ~5 µs a row, so text that is all printable ASCII (GLOB finds no other character), whose folded
 * form is its lower case, is folded by SQLite's lower(). Titles have a stored folded column instead
 * (migration 007).
 */
export function foldedSql(column: string): string {
  return `(CASE WHEN ${column} GLOB '*[^ -~]*' THEN fold_text(${column}) ELSE lower(${column}) END)`;
}
