/**
 * SPEC §5 validation rules for the edit dialogs, as pure functions returning a locale key for
 * the problem (or undefined when the value is fine). Empty optional values are fine.
 */

/** ISBN-13: 13 digits (hyphens and spaces allowed) with a valid check digit. */
export function isbnProblem(value: string): string | undefined {
  const digits = value.replace(/[\s-]/g, '');
  if (!digits) return undefined;
  if (!/^\d{13}$/.test(digits)) return 'validation.isbn';
  const sum = [...digits.slice(0, 12)].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  const check = (10 - (sum % 10)) % 10;
  return check === Number(digits[12]) ? undefined : 'validation.isbn';
}

/** A real calendar date written YYYY-MM-DD. */
export function dateProblem(value: string): string | undefined {
  if (!value) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return 'validation.date';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? undefined : 'validation.date';
}

/** A link must be a valid URL using http or https. */
export function urlProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'validation.url';
  } catch (error) {
    // The URL parser refuses what is no URL with a TypeError; anything else is no verdict on the text.
    if (error instanceof TypeError) return 'validation.url';
    throw error;
  }
}

/** Decimal numbers with a dot (number sort): "1", "1.5", "-2". */
export function decimalProblem(value: string): string | undefined {
  if (value.trim() === '') return 'validation.required';
  return /^-?\d+(\.\d+)?$/.test(value.trim()) ? undefined : 'validation.decimal';
}

/** Whole numbers at or above `min` (age rating ≥ 0, total book count ≥ 1); empty is allowed. */
export function integerAtLeastProblem(value: string, min: number): string | undefined {
  if (value.trim() === '') return undefined;
  if (!/^-?\d+$/.test(value.trim())) return 'validation.integer';
  return Number(value) >= min ? undefined : min === 0 ? 'validation.zero_or_more' : 'validation.greater_than_zero';
}

/** Index of each author row that repeats an earlier row's name and role ("already exists"). */
export function duplicateAuthorRows(authors: readonly { name: string; role: string }[]): Set<number> {
  const seen = new Set<string>();
  const duplicates = new Set<number>();
  authors.forEach((author, index) => {
    const key = `${author.name.trim().toLowerCase()}\u0000${author.role}`;
    if (!author.name.trim()) return;
    if (seen.has(key)) duplicates.add(index);
    seen.add(key);
  });
  return duplicates;
}

/** "a, b ,, c" → ["a", "b", "c"], without repeats. */
export function splitList(value: string): string[] {
  return [...new Set(value.split(',').map((part) => part.trim()).filter(Boolean))];
}

/**
 * A series language must be a well-formed BCP 47 tag (en, pt-BR, zh-Hant), as Komga checks it; empty
 * clears it. Intl rejects what is not well-formed, as Java's Locale.Builder does for Komga.
 */
export function languageTagProblem(value: string): string | undefined {
  const tag = value.trim();
  if (tag === '') return undefined;
  try {
    Intl.getCanonicalLocales(tag);
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return 'validation.language';
    throw error;
  }
}
