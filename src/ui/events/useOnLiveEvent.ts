import { useEffect, useRef } from 'react';
import type { LiveEvent } from '../../api/events.ts';
import { onLiveEvent } from './liveStore.ts';

/**
 * Calls `act` for each live event that `concerns` the screen: for reactions that are not a reload
 * (leaving a page whose subject was deleted elsewhere). Unlike useLiveRefresh it is not called when
 * the stream (re)opens, which says nothing happened, only that the screen's data may be stale.
 */
export function useOnLiveEvent(concerns: (event: LiveEvent) => boolean, act: (event: LiveEvent) => void): void {
  const concernsRef = useRef(concerns);
  concernsRef.current = concerns;
  const actRef = useRef(act);
  actRef.current = act;
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (concernsRef.current(event)) actRef.current(event);
      }),
    [],
  );
}
