import { sanitizeEpubSettings, sanitizeFontSize, type EpubSettings } from '../../../engine/epubSettings.ts';

/*
 * EPUB reader settings, remembered in this browser per user (several people may share a browser),
 * and the font size per book too: a book set in a tiny font keeps its bigger size without making
 * every other book bigger.
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

export function saveEpubSettings(userId: string, settings: EpubSettings): void {
  write(settingsKey(userId), settings);
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
