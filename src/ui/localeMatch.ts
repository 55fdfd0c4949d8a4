/**
 * The locale a new visitor starts in: the first of the browser's preferred languages
 * (`navigator.languages`, most wanted first) that Folio ships, trying for each of them, in order,
 *
 *  1. the tag itself (`pt-BR` → pt-BR),
 *  2. its language and script (`zh-TW` → zh-Hant-TW → zh-Hant, `zh-CN` and bare `zh` → zh-Hans),
 *  3. its language alone (`pt-PT` → pt, `de-AT` → de), through a few aliases
 *     (`no` and `nn` → nb, the written Norwegian Folio ships),
 *  4. any shipped variant of its language (`pt` when only pt-BR ships).
 *
 * Only when none of the preferred languages matches does the visitor get English. No dependency on the
 * catalogue itself so the rules can be tested on any list.
 */

const LANGUAGE_ALIASES: Record<string, string> = { no: 'nb', nn: 'nb' };

function parse(tag: string): Intl.Locale | undefined {
  try {
    return new Intl.Locale(tag);
  } catch (error) {
    if (error instanceof RangeError) return undefined; // not a BCP 47 tag: skip it, try the next
    throw error;
  }
}

function candidates(tag: string): string[] {
  const locale = parse(tag);
  if (!locale) return [];
  const full = locale.maximize();
  const language = LANGUAGE_ALIASES[locale.language] ?? locale.language;
  const list = [locale.toString()];
  if (full.script) list.push(`${language}-${full.script}`);
  list.push(language);
  return list;
}

export function matchBrowserLocale(preferred: readonly string[], shipped: readonly string[], fallback = 'en'): string {
  const byLowerCase = new Map(shipped.map((code) => [code.toLowerCase(), code]));
  for (const tag of preferred) {
    const tries = candidates(tag);
    for (const candidate of tries) {
      const found = byLowerCase.get(candidate.toLowerCase());
      if (found) return found;
    }
    const language = tries.at(-1);
    const sibling = language && shipped.find((code) => code.toLowerCase().startsWith(`${language.toLowerCase()}-`));
    if (sibling) return sibling;
  }
  return fallback;
}
