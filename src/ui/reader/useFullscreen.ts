import { useCallback, useEffect, useState } from 'react';

/** Events that give the page a user activation, the condition browsers put on entering fullscreen. */
const GESTURES = ['click', 'keydown', 'touchend'] as const;

/** A reader's address, /book/{id}/read (after the base path, if any). */
const READER_ADDRESS = /\/book\/[^/]+\/read$/;

function enterFullscreen(): Promise<void> {
  return document.documentElement.requestFullscreen?.() ?? Promise.resolve();
}

/**
 * Fullscreen on the document element (REFERENCE §5.8): "always fullscreen" asks for it on entering
 * the reader, and leaving the reader leaves it (going on to another book does not). Browsers refuse it without a user gesture (after a
 * reload, or when the reader is opened from the address bar), so then it is asked again on the
 * reader's first click, key or touch.
 */
export function useFullscreen(always: boolean) {
  const [fullscreen, setFullscreen] = useState(() => document.fullscreenElement !== null);

  useEffect(() => {
    const stopWaiting = () => {
      for (const name of GESTURES) window.removeEventListener(name, onGesture, true);
    };
    const onChange = () => {
      setFullscreen(document.fullscreenElement !== null);
      if (document.fullscreenElement) stopWaiting();
    };
    const onRefused = (error: unknown) => console.info('Fullscreen refused by the browser:', error);
    const onGesture = (event: Event) => {
      // Escape gives no activation, and is the way out of fullscreen anyway.
      if (event instanceof KeyboardEvent && event.key === 'Escape') return;
      stopWaiting();
      if (!document.fullscreenElement) enterFullscreen().catch(onRefused);
    };
    document.addEventListener('fullscreenchange', onChange);
    if (always && !document.fullscreenElement) {
      // Asked at once (granted when the reader was opened by a click) and, should that be refused
      // or left pending, again on the first gesture; entering fullscreen stops the waiting.
      for (const name of GESTURES) window.addEventListener(name, onGesture, true);
      enterFullscreen().catch(onRefused);
    }
    return () => {
      stopWaiting();
      document.removeEventListener('fullscreenchange', onChange);
      // Going on to another book (the next one, or back in the history) keeps it: only leaving the
      // reader does. The address has already changed when the reader of this book goes away.
      if (document.fullscreenElement && !READER_ADDRESS.test(window.location.pathname)) {
        void document.exitFullscreen().catch(onRefused);
      }
    };
    // Only on entering: switching the setting on later is a user gesture handled by toggle().
  }, []);

  const toggle = useCallback(() => {
    const onFailure = (error: unknown) => console.info('Fullscreen change refused by the browser:', error);
    if (document.fullscreenElement) void document.exitFullscreen().catch(onFailure);
    else void enterFullscreen().catch(onFailure);
  }, []);

  return { fullscreen, toggle };
}
