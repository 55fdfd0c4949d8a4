/**
 * How Komga compares text in searches: contains / beginsWith / endsWith through its SQLite function
 * UDF_STRIP_ACCENTS (decompose, drop the combining marks), so "Pokemon" finds "Pokémon"; is / isNot
 * through an ICU collation at primary strength, which ignores accents and case and also equates
 * "ß" with "ss", "æ" with "ae", the compatibility forms ("ﬁ", full-width letters) with their plain
 * letters. Folio compares one folded form for every operator, the closer of the two to primary
 * strength, so "strasse" finds "Straße" and "aesop" finds "Æsop" whichever operator is used.
 */

/** Combining diacritical marks (U+0300–U+036F), left behind by decomposition. */
const COMBINING_MARKS = /[\u0300-\u036f]/g;
/**
 * Lower-case letters that decomposition keeps whole (a stroke or a ligature is not a combining
 * mark), spelled as a reader would type them on a plain keyboard.
 */
const SPELLED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŧ: 't',
  ı: 'i',
  ƀ: 'b',
  ƶ: 'z',
};
const SPELLED_LETTERS = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'g');
/** Printable ASCII: nothing to fold but case, the common case, answered without normalising. */
const PRINTABLE_ASCII = /^[ -~]*$/;

/**
 * The form two texts share when they are equal ignoring accents, case and the letters above.
 * Compatibility decomposition (NFKD) first, so ligatures and full-width letters become their
 * letters and an accented stroked letter ("Ǿ") its stroked letter; lower case after it (it can
 * yield capitals: "ℌ" is "H") and after the marks are gone ("İ" lower-cased keeps a dot); the table
 * last, once capitals ("ẞ", "Æ") are lower case.
 */
export function foldText(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPELLED_LETTERS, (c) => SPELLED[c]!)
    .normalize('NFC');
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

/**
 * Characters beyond which a stored text is taken to equal no text a search holds (at most 1,000
 * characters, simplify.ts MAX_CONDITION_TEXT), without folding it: folding drops accents and may
 * undo a decomposed form, so a real text shrinks a few times at most, and folding a non-ASCII text
 * is a JavaScript call over all of it (a book's ComicInfo.xml may hold a tag of half a million).
 */
export const MAX_EQUAL_TEXT = 8000;

/** SQL true when the folded `column` equals the parameter given for it (a NULL column: NULL). */
export function foldedEqualsSql(column: string): string {
  return `(length(${column}) <= ${MAX_EQUAL_TEXT} AND ${foldedSql(column)} = ?)`;
}

/** SQL true when the folded `column` differs from the parameter given for it (a NULL column: NULL). */
export function foldedDiffersSql(column: string): string {
  return `(length(${column}) > ${MAX_EQUAL_TEXT} OR ${foldedSql(column)} <> ?)`;
}
