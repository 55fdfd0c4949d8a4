import { useEffect, useMemo, useRef } from 'react';
import { putProgression, sendProgressionKeepalive } from '../../../api/readium.ts';
import { saveRetryDelayMs } from '../../../api/save-retry.ts';
import type { R2Locator } from '../../../api/types.ts';
import { progressionOf, samePlace } from '../../../engine/epubProgression.ts';
import { ProgressSaver } from '../../../engine/ProgressSaver.ts';
import { deviceId } from './epubSettingsStore.ts';

/** How Folio's reader names itself in saved progressions (R2Progression.device.name). */
const DEVICE_NAME = 'Folio web reader';

/**
 * The reading position's way to the server as Komga's clients send it (PUT progression with a
 * Readium locator): debounced while reading, flushed on leaving, sent with keepalive when the tab
 * closes. Null when incognito or before the book is open (nothing is saved then). `onNotSaved`: a
 * position the server refused, or that ran out of tries (ProgressSaver).
 */
export function useEpubProgress(
  bookId: string,
  incognito: boolean,
  open: boolean,
  saved: R2Locator | null,
  onNotSaved: (error: unknown) => void,
): ProgressSaver<R2Locator> | null {
  // The latest callback, so a new one does not make a new saver (and lose what it holds).
  const notSaved = useRef(onNotSaved);
  notSaved.current = onNotSaved;
  const progress = useMemo(() => {
    if (incognito || !open) return null;
    const device = { id: deviceId(), name: DEVICE_NAME };
    return new ProgressSaver<R2Locator>(
      (locator) => putProgression(bookId, progressionOf(locator, device, new Date())),
      {
        same: samePlace,
        debounceMs: 500,
        onError: (error) => console.warn('Saving the reading position failed', error),
        onNotSaved: (error) => notSaved.current(error),
        retryDelayMs: saveRetryDelayMs,
      },
      saved,
    );
  }, [bookId, incognito, open, saved]);

  useEffect(() => () => void progress?.flush(), [progress]);

  useEffect(() => {
    if (!progress) return;
    const onPageHide = () => {
      const locator = progress.takePending();
      if (locator) sendProgressionKeepalive(bookId, progressionOf(locator, { id: deviceId(), name: DEVICE_NAME }, new Date()));
    };
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [progress, bookId]);

  return progress;
}
