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
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [ref, open]);
}
