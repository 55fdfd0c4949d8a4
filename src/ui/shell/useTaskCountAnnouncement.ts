import { useEffect, useRef, useState } from 'react';
import { t, tPlural } from '../i18n.ts';

/** Between two spoken counts while the queue stays busy (a scan changes it several times a second). */
export const TASK_COUNT_SPOKEN_EVERY_MS = 15_000;

/**
 * What the app bar's live region says about the server's pending tasks. Speaking every change
 * would talk over everything during a scan, so the count is said at once when work starts or
 * ends ("All tasks done"), and otherwise at most every TASK_COUNT_SPOKEN_EVERY_MS, the latest
 * count. Nothing is said while the queue has been idle since the page opened.
 */
export function useTaskCountAnnouncement(pending: number): string {
  const [spoken, setSpoken] = useState<number | null>(null);
  const spokenAt = useRef(Number.NEGATIVE_INFINITY);
  const latest = useRef(pending);
  latest.current = pending;

  useEffect(() => {
    const say = (count: number) => {
      spokenAt.current = performance.now();
      setSpoken(count);
    };
    if (spoken === null ? pending === 0 : spoken === pending) return;
    const startsOrEnds = spoken === null || (spoken === 0) !== (pending === 0);
    const wait = spokenAt.current + TASK_COUNT_SPOKEN_EVERY_MS - performance.now();
    if (startsOrEnds || wait <= 0) return say(pending);
    const timer = setTimeout(() => say(latest.current), wait);
    return () => clearTimeout(timer);
  }, [pending, spoken]);

  if (spoken === null) return '';
  return spoken === 0 ? t('app.tasks_done') : tPlural('app.pending_tasks', spoken);
}
