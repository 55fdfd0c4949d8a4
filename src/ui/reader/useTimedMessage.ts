import { useEffect, useMemo, useRef, useState, type FocusEvent } from 'react';
import { noticeDuration } from '../components/noticeDuration.ts';

/**
 * A message that clears itself once read (notices, the start/end-of-book note): at least
 * `minimumMs` after it was last set, longer for a long one (noticeDuration). While the pointer is
 * on it or focus is in it, it stays, and its time starts again when both have left. Spread
 * `holdProps` on the element that shows it.
 */
export function useTimedMessage(minimumMs: number, initial: string | null = null) {
  const [message, setMessage] = useState<string | null>(initial);
  const [held, setHeld] = useState(false);
  const hovered = useRef(false);
  const focused = useRef(false);
  useEffect(() => {
    if (!message || held) return;
    const timer = setTimeout(() => setMessage(null), noticeDuration(message, minimumMs));
    return () => clearTimeout(timer);
  }, [message, minimumMs, held]);
  const holdProps = useMemo(() => {
    const update = () => setHeld(hovered.current || focused.current);
    return {
    onPointerEnter: () => {
      hovered.current = true;
      update();
    },
    onPointerLeave: () => {
      hovered.current = false;
      update();
    },
    onFocus: () => {
      focused.current = true;
      update();
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      // Focus moving between the notice's own parts keeps it held.
      if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
      focused.current = false;
      update();
    },
    };
  }, []);
  return [message, setMessage, holdProps] as const;
}
