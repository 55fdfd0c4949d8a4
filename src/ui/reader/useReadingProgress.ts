import { useEffect, useMemo, useRef } from 'react';
import { sendReadProgressKeepalive, updateReadProgress } from '../../api/books.ts';
import type { BookDto } from '../../api/types.ts';
import { ProgressSaver } from '../../engine/ProgressSaver.ts';
import { saveRetryDelayMs } from '../../api/save-retry.ts';

/**
 * The reading position's way to the server for one book: debounced saves while reading, an
 * immediate one on leaving the reader, a keepalive one when the tab closes. Null when incognito.
 * `onNotSaved`: a position the server refused, or that ran out of tries (ProgressSaver).
 */
export function useReadingProgress(book: BookDto, incognito: boolean, onNotSaved: (error: unknown) => void): ProgressSaver | null {
  // The latest callback, so a new one does not make a new saver (and lose what it holds).
  const notSaved = useRef(onNotSaved);
  notSaved.current = onNotSaved;
  const progress = useMemo(
    () =>
      incognito
        ? null
        : new ProgressSaver(
            (page) => updateReadProgress(book.id, { page }),
            {
              onError: (error) => console.warn('Saving read progress failed', error),
              onNotSaved: (error) => notSaved.current(error),
              retryDelayMs: saveRetryDelayMs,
            },
            book.readProgress && !book.readProgress.completed ? book.readProgress.page : null,
          ),
    [book, incognito],
  );

  // Flush, not dispose: StrictMode unmounts and remounts effects with the same saver.
  useEffect(() => () => void progress?.flush(), [progress]);

  useEffect(() => {
    if (!progress) return;
    const onPageHide = () => {
      const page = progress.takePending();
      if (page !== null) sendReadProgressKeepalive(book.id, { page });
    };
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, [progress, book.id]);

  return progress;
}
