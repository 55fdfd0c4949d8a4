import { useEffect, useRef } from 'react';
import { onTaskQueueStatus, streamOpenings } from './liveStore.ts';

/**
 * For a screen waiting for the end of background tasks of `taskType` it asked for (the end comes as
 * a live event: BookChanged, TaskFailed). An end sent while the stream was closed never comes, and the
 * wait would last until the page is reloaded. The server sends the task queue's counts as the stream
 * opens and as they change: once they hold no task of that type, every wait stamped with
 * streamOpenings() before the latest opening has ended unheard, and `settle(latestOpening)` is called
 * for the screen to end those by re-reading what the tasks changed. Waits stamped since are left to
 * their events (a count may have been taken before their task was queued).
 */
export function useMissedTaskEnds(taskType: string, settle: (latestOpening: number) => void): void {
  const settleRef = useRef(settle);
  settleRef.current = settle;
  useEffect(
    () =>
      onTaskQueueStatus((countByType) => {
        if (!((countByType[taskType] ?? 0) > 0)) settleRef.current(streamOpenings());
      }),
    [taskType],
  );
}
