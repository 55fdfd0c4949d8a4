import { getUserClientSettings, saveUserClientSettings } from '../../../api/clientSettings.ts';
import { sanitizeEpubSettings, sanitizeFontSize, type EpubSettings } from '../../../engine/epubSettings.ts';

/*
 * EPUB reader settings are the user's, kept by the server among their client settings so they
 * follow them to another browser, and in this browser per user (several people may share one) so
 * the reader opens with them at once. The font size is also kept per book, in this browser only:
 * a book set in a tiny font keeps its bigger size without making every other book bigger (the
 * server keeps at most 200 settings per user, too few for one per book).
 */

const settingsKey = (userId: string) => `folio.epub.${userId}`;
const fontSizeKey = (userId: string, bookId: string) => `folio.epub.${userId}.fontSize.${bookId}`;

function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch (error) {
    console.warn(`Ignoring unreadable reader settings (${key})`, error);
    return null;
  }
}

function forget(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch (error) {
    console.warn(`Reader settings mark not cleared (${key})`, error);
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    // Full or disabled storage: the settings still apply to this visit.
    console.warn(`Reader settings not remembered (${key})`, error);
  }
}

export function loadEpubSettings(userId: string): EpubSettings {
  return sanitizeEpubSettings(read(settingsKey(userId)));
}

/** Remembers the settings in this browser only (for settings that came from the server). */
export function cacheEpubSettings(userId: string, settings: EpubSettings): void {
  write(settingsKey(userId), settings);
}

/** The key of the EPUB reader's settings among the user's client settings on the server. */
export const SERVER_SETTINGS_KEY = 'folio.epubReader';

/** The settings the server keeps for the signed-in user; null when they have none (or garbage). */
export async function fetchEpubSettings(): Promise<EpubSettings | null> {
  const value = (await getUserClientSettings())[SERVER_SETTINGS_KEY]?.value;
  if (value === undefined) return null;
  try {
    return sanitizeEpubSettings(JSON.parse(value));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    console.warn(`Ignoring unreadable reader settings on the server (${SERVER_SETTINGS_KEY})`, error);
    return null;
  }
}

/** Saves one after the other, so the server ends with the last settings picked. */
let serverWrites: Promise<void> = Promise.resolve();
/** Counts the writes asked for, so only the last one decides whether the server has the latest. */
let writesAsked = 0;

/*
 * Settings the server has not taken yet are marked as such in this browser: until they are saved,
 * the server's copy is older than this browser's and must not replace it when a book opens (a
 * change made while the server was unreachable would be undone by a reload).
 */
const unsavedKey = (userId: string) => `folio.epub.${userId}.unsaved`;

/** Whether this browser holds settings the server has not saved yet. */
export function hasUnsavedEpubSettings(userId: string): boolean {
  return read(unsavedKey(userId)) === true;
}

/**
 * Keeps the settings in this browser at once and saves them on the server after any earlier save.
 * Resolves once the server has them; rejects with the call's error when it refused them or could
 * not be reached: they then stay in this browser, marked unsaved, for a retry.
 */
export function saveEpubSettings(userId: string, settings: EpubSettings): Promise<void> {
  cacheEpubSettings(userId, settings);
  write(unsavedKey(userId), true);
  const asked = ++writesAsked;
  const saved = serverWrites
    // An earlier failure is its own caller's to report; this write still goes.
    .catch(() => undefined)
    .then(() => saveUserClientSettings({ [SERVER_SETTINGS_KEY]: JSON.stringify(settings) }))
    .then(() => {
      if (asked === writesAsked) forget(unsavedKey(userId));
    });
  serverWrites = saved;
  return saved;
}

/** The book's own font size, else the user's usual one. */
export function loadBookFontSize(userId: string, bookId: string, fallback: number): number {
  return sanitizeFontSize(read(fontSizeKey(userId, bookId)), fallback);
}

export function saveBookFontSize(userId: string, bookId: string, size: number): void {
  write(fontSizeKey(userId, bookId), size);
}

const DEVICE_KEY = 'folio.deviceId';

/** Random hex (crypto.randomUUID needs a secure context; self-hosted servers often run on plain http). */
const randomId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** This browser's id in saved progressions (R2Progression.device), made once and kept. */
export function deviceId(): string {
  try {
    const known = localStorage.getItem(DEVICE_KEY);
    if (known) return known;
    const made = randomId();
    localStorage.setItem(DEVICE_KEY, made);
    return made;
  } catch (error) {
    console.warn('No stored device id; using one for this visit', error);
    return randomId();
  }
}
