import { ArrowLeft, ArrowRight } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { t } from '../i18n.ts';
import * as buttons from './buttons.css.ts';
import { ErrorMessage } from './Feedback.tsx';
import * as styles from './selection.css.ts';
import { flipInRtl } from '../theme/direction.css.ts';

/** `ids` with `id` moved one place earlier (-1) or later (+1); unchanged at the ends. */
export function moveId(ids: readonly string[], id: string, step: -1 | 1): string[] {
  const from = ids.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return [...ids];
  const next = [...ids];
  [next[from], next[to]] = [next[to] as string, next[from] as string];
  return next;
}

/**
 * A move started from the keyboard. The pressed button is disabled while saving, and the list is
 * reloaded (its controls mounted anew) with the item's node at another place: each drops focus to
 * <body>. Focus comes back, each time it was dropped, once the item has its new place (or the save
 * failed): to the same direction, or the other one at an end. Module-wide because the controls that started the move
 * may not be the ones that show its result; one keyboard has one move under way.
 */
let pendingFocus: { id: string; step: -1 | 1; from: number; until: number } | null = null;
/** The list may be reloaded more than once (the order, then its books, then a live event). */
const FOCUS_RETURN_MS = 10_000;

/**
 * Keyboard-operable reordering for a manually ordered collection or read list: each item can move
 * one place earlier or later; the whole new order is saved at once.
 */
export function MoveControls(props: { ids: readonly string[]; id: string; title: string; save: (ids: string[]) => Promise<void> }) {
  const { ids, id, title, save } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const index = ids.indexOf(id);
  const earlierRef = useRef<HTMLButtonElement>(null);
  const laterRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const wanted = pendingFocus;
    if (!wanted || wanted.id !== id || busy || (index === wanted.from && error === undefined)) return;
    const focused = document.activeElement;
    const dropped = focused === null || focused === document.body;
    // The user went on elsewhere, or long ago: the move is no longer theirs to come back to.
    if ((!dropped && focused !== earlierRef.current && focused !== laterRef.current) || Date.now() > wanted.until) {
      pendingFocus = null;
      return;
    }
    if (!dropped) return;
    const same = wanted.step === 1 ? laterRef.current : earlierRef.current;
    const other = wanted.step === 1 ? earlierRef.current : laterRef.current;
    (same && !same.disabled ? same : other)?.focus();
  });

  async function move(step: -1 | 1) {
    const focused = document.activeElement;
    pendingFocus = focused === earlierRef.current || focused === laterRef.current ? { id, step, from: index, until: Date.now() + FOCUS_RETURN_MS } : null;
    setBusy(true);
    setError(undefined);
    try {
      await save(moveId(ids, id, step));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.moveRow}>
      <button
        ref={earlierRef}
        type="button"
        className={buttons.icon}
        disabled={busy || index <= 0}
        aria-label={t('groups.move.earlier', { title })}
        title={t('groups.move.earlier', { title })}
        onClick={() => void move(-1)}
      >
        <ArrowLeft className={flipInRtl} aria-hidden="true" size={16} />
      </button>
      <button
        ref={laterRef}
        type="button"
        className={buttons.icon}
        disabled={busy || index < 0 || index >= ids.length - 1}
        aria-label={t('groups.move.later', { title })}
        title={t('groups.move.later', { title })}
        onClick={() => void move(1)}
      >
        <ArrowRight className={flipInRtl} aria-hidden="true" size={16} />
      </button>
      <ErrorMessage error={error} />
    </div>
  );
}
