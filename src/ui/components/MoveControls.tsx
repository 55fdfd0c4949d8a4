import { ArrowLeft, ArrowRight } from 'lucide-react';
import { useState } from 'react';
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
 * Keyboard-operable reordering for a manually ordered collection or read list: each item can move
 * one place earlier or later; the whole new order is saved at once.
 */
export function MoveControls(props: { ids: readonly string[]; id: string; title: string; save: (ids: string[]) => Promise<void> }) {
  const { ids, id, title, save } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const index = ids.indexOf(id);

  async function move(step: -1 | 1) {
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
