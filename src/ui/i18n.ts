import rosetta from 'rosetta';
import en from '../../locales/en.json';
import { ApiError } from '../api/http.ts';
import { fieldLabelKey } from './serverFieldLabels.ts';
import { serverMessage } from './serverMessages.ts';

/**
 * Every user-visible string goes through `t`. English is bundled as the source and fallback;
 * other locales are loaded on demand so the first paint never waits for them.
 */
const i18n = rosetta<typeof en>({ en });
i18n.locale('en');

type Params = Record<string, string | number>;

/**
 * One formatter per locale: building an Intl.NumberFormat costs far more than using one, and the
 * reader's toolbar formats its page counter on every turn.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format;
}

/**
 * Numbers given to a message are written in the locale's digits and grouping ("1 234" in French, "١٢"
 * in Arabic, "۱۲" in Persian), so no caller has to remember to format a count or a page number.
 */
function localized(params: Params | undefined): Params | undefined {
  if (!params) return params;
  const numbers = numberFormat(i18n.locale());
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, typeof value === 'number' ? numbers.format(value) : value]),
  );
}

export function t(key: string, params?: Params): string {
  const shown = localized(params);
  const value = i18n.t(key, shown);
  if (value) return value;
  // Fall back to English when the active locale lacks a key, then to the key itself so gaps are visible.
  return i18n.t(key, shown, 'en') || key;
}

const localeLoaders = import.meta.glob<{ default: Record<string, unknown> }>(['../../locales/*.json', '!../../locales/en.json']);

export async function setLocale(locale: string): Promise<void> {
  const loader = localeLoaders[`../../locales/${locale}.json`];
  if (loader) {
    const messages = await loader();
    i18n.set(locale, messages.default as typeof en);
  }
  i18n.locale(loader || locale === 'en' ? locale : 'en');
  document.documentElement.lang = i18n.locale();
  document.documentElement.dir = interfaceDirection();
}

/** The direction of the interface's language (not of a book being read). */
export function interfaceDirection(): 'ltr' | 'rtl' {
  return t('common.locale_rtl') === 'true' ? 'rtl' : 'ltr';
}

export function currentLocale(): string {
  return i18n.locale();
}

/** Plural categories through Intl.PluralRules: keys like `books.one` / `books.other`. */
export function tPlural(key: string, count: number, params?: Params): string {
  const category = new Intl.PluralRules(currentLocale()).select(count);
  const specific = i18n.t(`${key}.${category}`, localized({ count, ...params }));
  return specific || t(`${key}.other`, { count, ...params });
}

/** Komga error codes (ERR_dddd, REFERENCE §8) in a text become their localised meaning. */
export function explainErrorCodes(text: string): string {
  return text.replace(/ERR_\d{4}/g, (code) => {
    const key = `error_codes.${code}`;
    const meaning = t(key);
    return meaning === key ? code : meaning;
  });
}

/**
 * The parts of a server's sentence as a person reads them: a field as its form labels it
 * (serverFieldLabels.ts; a field no form sends keeps the API's name), a Komga error code as its meaning.
 */
function shownParams(params: Record<string, string> | undefined): Params | undefined {
  if (!params) return params;
  const shown: Params = {};
  for (const [name, value] of Object.entries(params)) {
    const label = name === 'field' ? fieldLabelKey(value) : undefined;
    shown[name] = label ? t(label) : explainErrorCodes(value);
  }
  return shown;
}

/**
 * A server's message in the reader's language when serverMessages.ts knows its shape (a field's
 * violations listed in the language's own way), else as sent with its Komga error codes explained.
 */
export function localizedServerMessage(message: string): string {
  const read = serverMessage(message);
  if (!read) return explainErrorCodes(message);
  const sentences = read.parts.map((part) => {
    const params = shownParams(part.params);
    return part.count === undefined ? t(part.key, params) : tPlural(part.key, part.count, params);
  });
  return new Intl.ListFormat(currentLocale(), { type: 'conjunction' }).format(sentences);
}

/**
 * A failure of the client's own that a person reads: its message is a locale key (and parameters),
 * so it is shown in their language. Any other Error's message is English written for the console.
 */
export class LocalizedError extends Error {
  readonly key: string;
  readonly params: Params | undefined;

  constructor(key: string, params?: Params, options?: ErrorOptions) {
    super(key, options);
    this.name = 'LocalizedError';
    this.key = key;
    this.params = params;
  }
}

/**
 * The sentence shown for a failure, always in the reader's language: a call's failure (SPEC §7,
 * "An error occurred while trying to …" and the server's message), a LocalizedError, or for
 * anything else (a library's exception, our own console text) a general sentence, its English
 * details logged for whoever looks at the console.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const action = t(`api_actions.${error.action}`);
    if (error.noAnswer === 'timeout') return t('errors.call_timed_out', { action });
    if (error.noAnswer === 'unreachable') return t('errors.call_unreachable', { action });
    return error.serverMessage
      ? t('errors.call_failed_with_message', { action, message: localizedServerMessage(error.serverMessage) })
      : t('errors.call_failed', { action });
  }
  if (error instanceof LocalizedError) return t(error.key, error.params);
  console.error('Shown as an unexpected error:', error);
  return t('errors.unexpected');
}
