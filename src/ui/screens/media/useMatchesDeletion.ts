import { useEffect, useRef, useState, type RefObject } from 'react';
import type { LiveEvent } from '../../../api/events.ts';
import type { PageHashKnownDto } from '../../../api/duplicates.ts';
import { useLiveRefresh } from '../../events/useLiveRefresh.ts';
import { useOnLiveEvent } from '../../events/useOnLiveEvent.ts';
import { streamOpenings } from '../../events/liveStore.ts';
import { useMissedTaskEnds } from '../../events/useMissedTaskEnds.ts';
import { t } from '../../i18n.ts';

/** The server's reasons (TaskFailed) a screen words; any other is "the server could not". */
const FAILURE_KEYS: Record<string, string> = {
  'book-changed': 'media.pages.delete_matches_failed_book_changed',
  'last-pages': 'media.pages.delete_matches_failed_last_pages',
};

const isRemovalFailure = (event: LiveEvent) => event.name === 'TaskFailed' && event.data.taskType === 'RemoveHashedPages';

/**
 * "Delete matches" on a known duplicate page: the server answers 202 and rewrites the books in the
 * background, so the row still shows its matches (and the button) until that is done. This keeps
 * the hashes under way (with the row number the user saw) so the row can say so instead of
 * offering the deletion again, reloads the list as the rewritten books are announced (BookChanged),
 * and tells a screen reader both when it starts and when it is done (`status`, for a LiveStatus).
 * When the finished row's button goes, focus that was on it moves to the same row's action field.
 * A book the server could not rewrite is announced (TaskFailed): the row is no longer under way,
 * its button is offered again and `failure` says why. Such an event can come before the 202 is
 * read, so failures heard since the request was sent (`sending`) are kept for `started`.
 * An end sent while the stream was closed is not heard: once the task queue has no removal left
 * after the stream reopened (useMissedTaskEnds), the list is read again and a row still holding
 * matches is told as failed, one without as done.
 */
export function useMatchesDeletion(listRef: RefObject<HTMLElement | null>, rows: readonly PageHashKnownDto[] | undefined, reload: () => void) {
  const [underway, setUnderway] = useState<ReadonlyMap<string, number>>(new Map());
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  /** Hashes whose request is sent but not yet answered, with a failure heard meanwhile. */
  const sent = useRef(new Map<string, string | undefined>());
  const underwayRef = useRef(underway);
  underwayRef.current = underway;
  /** The stream opening (streamOpenings) at which each hash under way was accepted. */
  const acceptedAt = useRef(new Map<string, number>());
  /** Hashes whose end was missed, settled by the next list read. */
  const settling = useRef(new Set<string>());

  const fail = (hash: string, n: number, reason: string | undefined, reloadAfter = true) => {
    acceptedAt.current.delete(hash);
    settling.current.delete(hash);
    setUnderway((before) => {
      const after = new Map(before);
      after.delete(hash);
      return after;
    });
    setStatus(undefined);
    setFailure(t(FAILURE_KEYS[reason ?? ''] ?? 'media.pages.delete_matches_failed', { n }));
    if (reloadAfter) reload();
  };

  useMissedTaskEnds('RemoveHashedPages', (latestOpening) => {
    const missed = [...underwayRef.current.keys()].filter((hash) => (acceptedAt.current.get(hash) ?? latestOpening) < latestOpening && !settling.current.has(hash));
    if (missed.length === 0) return;
    for (const hash of missed) settling.current.add(hash);
    reload();
  });

  useLiveRefresh((event) => underway.size > 0 && event.name === 'BookChanged', reload);
  useOnLiveEvent(isRemovalFailure, (event) => {
    for (const hash of event.data.pageHashes ?? []) {
      const n = underwayRef.current.get(hash);
      if (n !== undefined) fail(hash, n, event.data.reason);
      else if (sent.current.has(hash)) sent.current.set(hash, event.data.reason ?? 'failed');
    }
  });

  useEffect(() => {
    if (!rows || underway.size === 0) return;
    const done = [...underway].filter(([hash]) => rows.find((row) => row.hash === hash)?.matchCount === 0);
    // A hash not on the list shown (another page, another filter) cannot be followed: forgotten,
    // without a message that would claim something not seen.
    const left = [...underway].filter(([hash]) => rows.some((row) => row.hash === hash && row.matchCount > 0));
    // Those whose end was missed and that still hold matches were not (all) deleted.
    const failed = left.filter(([hash]) => settling.current.has(hash));
    for (const [hash] of [...done, ...failed]) {
      settling.current.delete(hash);
      acceptedAt.current.delete(hash);
    }
    if (left.length !== underway.size) setUnderway(new Map(left));
    // The list just read shows them as they are: no other reload.
    for (const [hash, n] of failed) fail(hash, n, undefined, false);
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
    /** Why the last deletion did not delete every match, for a LiveStatus styled as an error. */
    failure,
    isUnderway: (hash: string) => underway.has(hash),
    /** Call just before asking the server to delete `hash`'s matches. */
    sending(hash: string) {
      sent.current.set(hash, undefined);
      setFailure(undefined);
    },
    /** Call once the server has accepted the deletion of `hash`'s matches (row number `n`), or refused it (`accepted` false). */
    started(hash: string, n: number, accepted = true) {
      const heard = sent.current.get(hash);
      sent.current.delete(hash);
      if (!accepted) return;
      if (heard !== undefined) return fail(hash, n, heard);
      acceptedAt.current.set(hash, streamOpenings());
      setUnderway((before) => new Map(before).set(hash, n));
      setStatus(t('media.pages.delete_matches_started', { n }));
    },
  };
}
