import { useEffect, useState, type RefObject } from 'react';
import type { PageHashKnownDto } from '../../../api/duplicates.ts';
import { useLiveRefresh } from '../../events/useLiveRefresh.ts';
import { t } from '../../i18n.ts';

/**
 * "Delete matches" on a known duplicate page: the server answers 202 and rewrites the books in the
 * background, so the row still shows its matches (and the button) until that is done. This keeps
 * the hashes under way (with the row number the user saw) so the row can say so instead of
 * offering the deletion again, reloads the list as the rewritten books are announced (BookChanged),
 * and tells a screen reader both when it starts and when it is done (`status`, for a LiveStatus).
 * When the finished row's button goes, focus that was on it moves to the same row's action field.
 */
export function useMatchesDeletion(listRef: RefObject<HTMLElement | null>, rows: readonly PageHashKnownDto[] | undefined, reload: () => void) {
  const [underway, setUnderway] = useState<ReadonlyMap<string, number>>(new Map());
  const [status, setStatus] = useState<string | undefined>(undefined);

  useLiveRefresh((event) => underway.size > 0 && event.name === 'BookChanged', reload);

  useEffect(() => {
    if (!rows || underway.size === 0) return;
    const done = [...underway].filter(([hash]) => rows.find((row) => row.hash === hash)?.matchCount === 0);
    // A hash not on the list shown (another page, another filter) cannot be followed: forgotten,
    // without a message that would claim something not seen.
    const left = [...underway].filter(([hash]) => rows.some((row) => row.hash === hash && row.matchCount > 0));
    if (left.length !== underway.size) setUnderway(new Map(left));
    if (done.length === 0) return;
    const [hash, n] = done[done.length - 1]!;
    setStatus(t('media.pages.delete_matches_done', { n }));
    // The button that held focus is gone with the matches: <body> would send the keyboard to the top.
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    const row = listRef.current?.querySelector(`tr[data-hash="${CSS.escape(hash)}"]`);
    const field = row?.querySelector<HTMLElement>('[data-row-control="action"]');
    if (field) field.focus();
    else document.querySelector('main')?.focus({ preventScroll: true });
    // Only a new list decides what is done: `underway` changing alone must not re-run this.
  }, [rows]);

  return {
    status,
    isUnderway: (hash: string) => underway.has(hash),
    /** Call once the server has accepted the deletion of `hash`'s matches (row number `n`). */
    started(hash: string, n: number) {
      setUnderway((before) => new Map(before).set(hash, n));
      setStatus(t('media.pages.delete_matches_started', { n }));
    },
  };
}
