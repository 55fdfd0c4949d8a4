import { type RefObject, useEffect } from 'react';

/**
 * Shows the `<dialog>` as a modal while `open` and closes it otherwise: the browser then moves focus
 * into it, makes the page behind inert and gives Escape its close. One place for the navigation
 * drawer and the app's dialogs, so both follow `open` the same way.
 */
export function useModalDialog(ref: RefObject<HTMLDialogElement | null>, open: boolean): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) showModalAtStart(dialog);
    else if (!open && dialog.open) dialog.close();
  }, [ref, open]);
}

/** Marks the control of a dialog's content that takes the focus when the dialog opens. */
export const INITIAL_FOCUS = 'data-initial-focus';

/**
 * Opens the dialog as a modal with the focus on its marked start (INITIAL_FOCUS), when it has one.
 * The browser focuses the first control otherwise, and React's `autoFocus` does not help: it runs
 * while the dialog is still closed, when nothing inside can take the focus.
 */
export function showModalAtStart(dialog: HTMLDialogElement): void {
  dialog.showModal();
  const start = dialog.querySelector<HTMLElement>(`[${INITIAL_FOCUS}]`);
  if (start) {
    start.scrollIntoView({ block: 'center' });
    start.focus({ preventScroll: true });
  }
}
