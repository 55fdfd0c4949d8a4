import { type RefObject, useEffect, useRef } from 'react';

/**
 * A dialog's submit button is disabled while the server answers, and a focused button that becomes
 * disabled drops focus on <body>, behind the modal. When the dialog stays open (a refusal, said in
 * it), the button takes the keyboard back. Call the returned function as the form submits: it notes
 * whether the submit came from the button (Enter in a field keeps the field's focus anyway).
 */
export function useSubmitKeepsFocus(
  dialogRef: RefObject<HTMLDialogElement | null>,
  submitRef: RefObject<HTMLButtonElement | null>,
  submitDisabled: boolean,
): () => void {
  const submittedFromButton = useRef(false);
  useEffect(() => {
    if (submitDisabled) return;
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (submittedFromButton.current && dropped && dialogRef.current?.open) submitRef.current?.focus();
    submittedFromButton.current = false;
  }, [submitDisabled, dialogRef, submitRef]);
  return () => {
    submittedFromButton.current = document.activeElement === submitRef.current;
  };
}
