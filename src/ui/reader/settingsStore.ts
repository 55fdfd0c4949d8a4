// valtio's core alone (no React): the boot entry loads this module before the main bundle.
import { proxy, subscribe } from 'valtio/vanilla';
import { sanitizeSettings, type ReaderSettings } from '../../engine/readerSettings.ts';
import { reportStorageFailure } from '../store/storageFailure.ts';

/** Reader preferences of this browser (SPEC §3 "kept locally"), validated on load, saved on change. */
const STORAGE_KEY = 'folio.reader';

export const THUMBNAIL_PAGE_SIZES = [10, 20, 50, 100] as const;

export interface ReaderPreferences extends ReaderSettings {
  thumbnailsPageSize: number;
}

function load(): ReaderPreferences {
  let raw: unknown = undefined;
  try {
    raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
  } catch (error) {
    // Unreadable storage or garbage: defaults.
    reportStorageFailure('Reading the reader settings saved in this browser', error);
  }
  const saved = (raw ?? {}) as { thumbnailsPageSize?: unknown };
  return {
    ...sanitizeSettings(raw),
    thumbnailsPageSize: THUMBNAIL_PAGE_SIZES.includes(saved.thumbnailsPageSize as 10)
      ? (saved.thumbnailsPageSize as number)
      : 10,
  };
}

export const readerPreferences = proxy<ReaderPreferences>(load());

subscribe(readerPreferences, () => {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(readerPreferences));
  } catch (error) {
    // Not persisting is acceptable: the settings still apply to this visit.
    reportStorageFailure('Saving the reader settings in this browser', error);
  }
});
