/**
 * Whether a series language is acceptable: empty (no language), or a well-formed BCP 47 tag as
 * Komga requires (its check is Java's Locale.Builder; Intl.getCanonicalLocales rejects the same
 * ill-formed tags with a RangeError).
 */
export function isLanguageTag(value: string): boolean {
  if (value === '') return true;
  try {
    Intl.getCanonicalLocales(value);
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/**
 * A series language as Komga stores it (SeriesMetadata normalises through ICU's toLanguageTag):
 * the canonical spelling of the tag, "EN-us" → "en-US"; empty stays empty. For tags isLanguageTag accepts.
 */
export function canonicalLanguageTag(value: string): string {
  const tag = value.trim();
  return tag === '' ? '' : (Intl.getCanonicalLocales(tag)[0] ?? tag);
}
