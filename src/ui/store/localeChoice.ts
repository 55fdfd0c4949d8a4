import { proxy } from 'valtio';
import { currentLocale, setLocale } from '../i18n.ts';
import { isKnownLocale, LOCALES } from '../localeCatalog.ts';
import { matchBrowserLocale } from '../localeMatch.ts';

/**
 * The interface language (SPEC §3 per-user preference, kept in this browser's localStorage like the
 * other preferences). Kept apart from preferences.ts because it must be read and applied before the
 * first render, and because `active` only changes once the chosen messages have actually loaded.
 */
const STORAGE_KEY = 'folio.locale';
const DEFAULT_LOCALE = 'en';

export const localeChoice = proxy({
  /** Locale whose messages are loaded and shown. */
  active: currentLocale(),
  /** Locale last asked for; the picker shows it at once, while its messages may still be loading. */
  requested: currentLocale(),
});

/** The browser's preferred languages, most wanted first. */
function browserLanguages(): readonly string[] {
  if (navigator.languages?.length) return navigator.languages;
  return navigator.language ? [navigator.language] : [];
}

/**
 * The locale to start in: the saved choice while it is still shipped, otherwise the best match for the
 * browser's languages (src/ui/localeMatch.ts), otherwise English.
 */
export function readSavedLocale(): string {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch (error) {
    // Storage unavailable (private mode, blocked by policy): nothing saved, the browser's languages decide.
    if (!(error instanceof DOMException)) throw error;
  }
  if (saved && isKnownLocale(saved)) return saved;
  return matchBrowserLocale(
    browserLanguages(),
    LOCALES.map((entry) => entry.code),
    DEFAULT_LOCALE,
  );
}

function saveLocale(code: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch (error) {
    // Storage unavailable (private mode, quota, policy): the choice lasts for this page only.
    if (!(error instanceof DOMException)) throw error;
    console.warn('The language choice could not be saved in this browser', error);
  }
}

// Requests run one after another so that, when several are made quickly, the last one wins.
let queue: Promise<void> = Promise.resolve();

/** Loads the locale's messages, switches language and `document.dir`, then re-renders through `active`. */
export function applyLocale(code: string): Promise<void> {
  localeChoice.requested = code;
  queue = queue
    .then(() => setLocale(code))
    // A locale chunk that cannot load leaves the page in English rather than half switched.
    .catch((error: unknown) => {
      console.warn(`The ${code} messages could not be loaded; showing English`, error);
      return setLocale(DEFAULT_LOCALE);
    })
    .then(() => {
      localeChoice.active = currentLocale();
    });
  return queue;
}

/** What the picker calls: remember the choice and apply it live. */
export function chooseLocale(code: string): Promise<void> {
  const chosen = isKnownLocale(code) ? code : DEFAULT_LOCALE;
  saveLocale(chosen);
  return applyLocale(chosen);
}
