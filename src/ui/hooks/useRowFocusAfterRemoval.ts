import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keeps a keyboard user in a list whose row leaves it after an action on that row (a duplicate page
 * decided on moves to the other tab): the row's control had focus, and removing it drops focus on
 * <body>, before the page. Call the returned `acted(index, control)` when a row's control starts
 * its action; once the reloaded rows render (`rows` changes) with focus dropped, the same control
 * (`data-row-control`) of the row now at that place takes it (the next one), or of the row before when it was the
 * last. With no row left, focus goes on from the screen's <main>, as after a navigation.
 */
export function useRowFocusAfterRemoval(listRef: RefObject<HTMLElement | null>, rows: unknown): (index: number, control: string) => void {
  const pending = useRef<{ index: number; control: string } | null>(null);
  useEffect(() => {
    const wanted = pending.current;
    pending.current = null;
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (!wanted || !dropped) return;
    const list = listRef.current;
    const rowElements = list ? [...list.querySelectorAll('tbody > tr')] : [];
    const row = rowElements[Math.min(wanted.index, rowElements.length - 1)];
    const target = row?.querySelector<HTMLElement>(`[data-row-control="${CSS.escape(wanted.control)}"]`) ?? row?.querySelector<HTMLElement>('button, select, input');
    if (target) target.focus();
    // The list itself went with its last row.
    else document.querySelector('main')?.focus({ preventScroll: true });
  }, [rows, listRef]);
  return (index, control) => {
    pending.current = { index, control };
  };
}
