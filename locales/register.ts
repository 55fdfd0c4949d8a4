/*
 * How each translation addresses the reader, where its language has two ways (locales/glossary/<code>.md
 * says which): the forms of the other way, which locales/check.ts reports. A language's strings were
 * written in several sessions, and a reader meets the switch between "du" and "Sie" from one
 * screen to the next as a change of voice. Only forms that can be nothing but the avoided address.
 */
/** Whole words only: JavaScript's \b knows ASCII letters alone, and misses "ștergeți" or "dumneavoastră". */
const words = (pattern: string) => new RegExp(`(?<!\\p{L})(?:${pattern})(?!\\p{L})`, 'iu');

export const AVOIDED_ADDRESS: Readonly<Record<string, RegExp>> = {
  // du throughout: an imperative with "Sie" ("Löschen Sie", "versuchen Sie es"), "Ihnen", "Ihr Konto".
  de: /(?<!\p{L})\p{L}+en Sie(?!\p{L})|(?<!\p{L})Ihnen(?!\p{L})|(?<!\p{L})Ihr(?:e[mnrs]?)? (?:eigenes )?Konto(?!\p{L})/u,
  // tú throughout: usted and its imperatives of the verbs the strings use.
  es: words('usted|cópiela|elimine|inténtelo|pruebe|elija|vuelva a intentarlo'),
  // The second person singular throughout: dumneavoastră and the plural imperatives of messages.
  ro: words('dumneavoastră|încercați|ștergeți|alegeți|cereți'),
};

/** The keys whose text addresses the reader the way the language's glossary avoids. */
export function avoidedAddress(code: string, texts: ReadonlyMap<string, string>): string[] {
  const avoided = AVOIDED_ADDRESS[code];
  if (!avoided) return [];
  return [...texts].filter(([, text]) => avoided.test(text)).map(([key]) => key);
}
