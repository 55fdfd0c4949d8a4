import { useCallback, useRef, useState } from 'react';
import type { EpubSettings } from '../../../engine/epubSettings.ts';
import { cacheEpubSettings, loadBookFontSize, loadEpubSettings, saveBookFontSize, saveEpubSettings } from './epubSettingsStore.ts';

/**
 * The reader's text settings and this book's font size: from this browser at once, then from the
 * server (`adopt`) unless the user changed something here meanwhile; every change is saved both
 * ways (the font size of a book in this browser only, see epubSettingsStore.ts).
 */
export function useEpubSettings(userId: string, bookId: string) {
  const [settings, setSettingsState] = useState<EpubSettings>(() => loadEpubSettings(userId));
  const [fontSize, setFontSizeState] = useState(() => loadBookFontSize(userId, bookId, loadEpubSettings(userId).fontSize));
  const changedHere = useRef(false);

  const adopt = useCallback(
    (remote: EpubSettings) => {
      if (changedHere.current) return;
      setSettingsState(remote);
      cacheEpubSettings(userId, remote);
      setFontSizeState(loadBookFontSize(userId, bookId, remote.fontSize));
    },
    [userId, bookId],
  );

  const setSettings = useCallback(
    (next: EpubSettings) => {
      changedHere.current = true;
      setSettingsState(next);
      saveEpubSettings(userId, next);
    },
    [userId],
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

  return { settings, fontSize, setSettings, setFontSize, adopt };
}
