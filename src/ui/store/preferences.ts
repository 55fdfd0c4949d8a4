import { proxy, subscribe } from 'valtio';
import { THEMES, type ThemeChoice } from '../theme/applyTheme.ts';
import { reportStorageFailure } from './storageFailure.ts';

/** Per-browser interface preferences (SPEC §3 "kept locally"), persisted in localStorage. */
export interface Preferences {
  rememberMe: boolean;
  theme: ThemeChoice;
  browsingPageSize: number;
  /** Last visited view per library id ('all' included): recommended, series, collections, readlists. */
  libraryViews: Record<string, LibraryView>;
  /** Last series-browse query (sort, filters, letter, page size) per library id, without the page. */
  libraryBrowse: Record<string, string>;
  /** Last filter query of each collection and read list, keyed 'collection:<id>' / 'readlist:<id>'. */
  groupBrowse: Record<string, string>;
  /** Folder last scanned on the book import screen. */
  importPath: string;
  /** Rows per page on the duplicate files and duplicate pages screens (SPEC §9: 10 by default). */
  duplicatesPageSize: number;
}

export const LIBRARY_VIEWS = ['recommended', 'series', 'collections', 'readlists'] as const;
export type LibraryView = (typeof LIBRARY_VIEWS)[number];

export const PAGE_SIZES = [20, 50, 100, 200, 500] as const;
export const DUPLICATES_PAGE_SIZES = [10, 20, 50, 100] as const;

const STORAGE_KEY = 'folio.preferences';

const defaults: Preferences = {
  rememberMe: false,
  theme: 'system',
  browsingPageSize: 20,
  libraryViews: {},
  libraryBrowse: {},
  groupBrowse: {},
  importPath: '',
  duplicatesPageSize: 10,
};

function load(): Preferences {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return { ...defaults };
    const saved = JSON.parse(raw) as Partial<Preferences>;
    return {
      rememberMe: typeof saved.rememberMe === 'boolean' ? saved.rememberMe : defaults.rememberMe,
      theme: THEMES.includes(saved.theme as ThemeChoice) ? (saved.theme as ThemeChoice) : defaults.theme,
      browsingPageSize: PAGE_SIZES.includes(saved.browsingPageSize as 20)
        ? (saved.browsingPageSize as number)
        : defaults.browsingPageSize,
      libraryViews: typeof saved.libraryViews === 'object' && saved.libraryViews ? saved.libraryViews : {},
      libraryBrowse: typeof saved.libraryBrowse === 'object' && saved.libraryBrowse ? saved.libraryBrowse : {},
      groupBrowse: typeof saved.groupBrowse === 'object' && saved.groupBrowse ? saved.groupBrowse : {},
      importPath: typeof saved.importPath === 'string' ? saved.importPath : '',
      duplicatesPageSize: DUPLICATES_PAGE_SIZES.includes(saved.duplicatesPageSize as 10)
        ? (saved.duplicatesPageSize as number)
        : defaults.duplicatesPageSize,
    };
  } catch (error) {
    // Storage may be unavailable (private mode) or hold garbage: start from the defaults.
    reportStorageFailure('Reading the preferences saved in this browser', error);
    return { ...defaults };
  }
}

export const preferences = proxy<Preferences>(load());

subscribe(preferences, () => {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(preferences));
  } catch (error) {
    // Not persisting is acceptable; the session keeps working.
    reportStorageFailure('Saving the preferences in this browser', error);
  }
});
