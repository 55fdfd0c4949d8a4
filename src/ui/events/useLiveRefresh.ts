import { useEffect, useRef } from 'react';
import type { LiveEvent } from '../../api/events.ts';
import { onLiveEvent, onLiveResync } from './liveStore.ts';

/**
 * Calls `reload` when a live event concerns what the screen shows (`concerns`), at most once per
 * `throttleMs`: the first event reloads at once, a burst during the pause gives one trailing reload.
 * The stream (re)opening also reloads (onLiveResync): events sent while it was closed never came.
 */
export function useLiveRefresh(concerns: (event: LiveEvent) => boolean, reload: () => void, throttleMs = 1_000): void {
  const concernsRef = useRef(concerns);
  concernsRef.current = concerns;
  const reloadRef = useRef(reload);
  reloadRef.current = reload;

  useEffect(() => {
    let last = 0;
    let trailing: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      const wait = last + throttleMs - Date.now();
      if (wait <= 0) {
        last = Date.now();
        reloadRef.current();
      } else if (!trailing) {
        trailing = setTimeout(() => {
          trailing = undefined;
          last = Date.now();
          reloadRef.current();
        }, wait);
      }
    };
    const unsubscribe = onLiveEvent((event) => {
      if (concernsRef.current(event)) refresh();
    });
    const unsubscribeResync = onLiveResync(refresh);
    return () => {
      unsubscribe();
      unsubscribeResync();
      clearTimeout(trailing);
    };
  }, [throttleMs]);
}
