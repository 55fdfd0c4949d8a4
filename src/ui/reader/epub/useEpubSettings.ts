import { useCallback, useRef, useState } from 'react';
import type { EpubSettings } from '../../../engine/epubSettings.ts';
import {
  cacheEpubSettings,
  hasUnsavedEpubSettings,
  loadBookFontSize,
  loadEpubSettings,
  saveBookFontSize,
  saveEpubSettings,
} from './epubSettingsStore.ts';

/**
 * The reader's text settings and this book's font size: from this browser at once, then from the
 * server (`adopt`) unless the user changed something here meanwhile or this browser holds settings
 * the server has not saved yet (those are saved again instead); every change is saved both ways (the
 * font size of a book in this browser only, see epubSettingsStore.ts). `saveError` is the last
 * server save's failure until a later save succeeds; `retry` saves the current settings again.
 */
export function useEpubSettings(userId: string, bookId: string) {
  const [settings, setSettingsState] = useState<EpubSettings>(() => loadEpubSettings(userId));
  const [fontSize, setFontSizeState] = useState(() => loadBookFontSize(userId, bookId, loadEpubSettings(userId).fontSize));
  /** `failure` counts the failed saves, so one failing again is told again. */
  const [saveError, setSaveError] = useState<{ error: unknown; failure: number } | null>(null);
  const failures = useRef(0);
  const changedHere = useRef(false);
  const latestSave = useRef(0);

  const saveOnServer = useCallback(
    (next: EpubSettings) => {
      const save = ++latestSave.current;
      saveEpubSettings(userId, next).then(
        () => {
          if (save === latestSave.current) setSaveError(null);
        },
        (error: unknown) => {
          console.warn('The reader settings were not saved on the server; they stay in this browser', error);
          if (save === latestSave.current) setSaveError({ error, failure: ++failures.current });
        },
      );
    },
    [userId],
  );

  /** The server's settings, when it has some (null: none, or they could not be read). */
  const adopt = useCallback(
    (remote: EpubSettings | null) => {
      if (hasUnsavedEpubSettings(userId)) {
        // This browser's are newer: the server gets them rather than the other way round.
        saveOnServer(loadEpubSettings(userId));
        return;
      }
      if (!remote || changedHere.current) return;
      setSettingsState(remote);
      cacheEpubSettings(userId, remote);
      setFontSizeState(loadBookFontSize(userId, bookId, remote.fontSize));
    },
    [userId, bookId, saveOnServer],
  );

  const setSettings = useCallback(
    (next: EpubSettings) => {
      changedHere.current = true;
      setSettingsState(next);
      saveOnServer(next);
    },
    [saveOnServer],
  );

  const setFontSize = useCallback(
    (size: number) => {
      setFontSizeState(size);
      saveBookFontSize(userId, bookId, size);
      // The latest size picked is also the starting size of books not yet adjusted.
      setSettings({ ...settings, fontSize: size });
    },
    [userId, bookId, settings, setSettings],
  );

  const retry = useCallback(() => saveOnServer(settings), [saveOnServer, settings]);

  return { settings, fontSize, setSettings, setFontSize, adopt, saveError, retry };
}
