import { useId, useRef, type FormEvent, type ReactNode } from 'react';
import * as buttons from '../components/buttons.css.ts';
import { useModalDialog } from '../components/useModalDialog.ts';
import { useSubmitKeepsFocus } from '../components/useSubmitKeepsFocus.ts';
import { wrapTab } from '../components/wrapTab.ts';
import { t } from '../i18n.ts';
import * as styles from './dialog.css.ts';

/**
 * A native modal <dialog> with a form: the browser traps focus, closes on Escape and gives focus
 * back on close. `open` is the display flag; the parent owns it.
 */
export function Modal(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  submitDisabled?: boolean;
  danger?: boolean;
  wide?: boolean;
  /** Hide the submit button (a dialog that only shows a result). */
  noSubmit?: boolean;
  cancelLabel?: string;
  /** Skip the browser's own field validation when the dialog shows its own messages. */
  noValidate?: boolean;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const { open, submitDisabled } = props;

  useModalDialog(dialogRef, open);

  const noteSubmit = useSubmitKeepsFocus(dialogRef, submitRef, submitDisabled === true);

  function submit(event: FormEvent) {
    event.preventDefault();
    noteSubmit();
    props.onSubmit();
  }

  return (
    <dialog
      ref={dialogRef}
      className={`${styles.dialog} ${props.wide ? styles.wide : ''}`}
      aria-labelledby={headingId}
      // Tab from the last control went out to the browser's own (or <body>); it goes round instead.
      onKeyDown={(event) => wrapTab(event, event.currentTarget)}
      // React passes a nested dialog's close event up the tree; only this dialog's own counts.
      onClose={(event) => {
        if (event.target === event.currentTarget) props.onClose();
      }}
    >
      {open && (
        <form className={styles.form} onSubmit={submit} noValidate={props.noValidate}>
          <h2 id={headingId} className={styles.heading}>
            {props.title}
          </h2>
          {props.children}
          <div className={styles.actions}>
            <button type="button" className={buttons.quiet} onClick={props.onClose}>
              {props.cancelLabel ?? t('app.cancel')}
            </button>
            {!props.noSubmit && (
              <button
                ref={submitRef}
                type="submit"
                className={props.danger ? buttons.danger : buttons.primary}
                disabled={props.submitDisabled}
              >
                {props.submitLabel}
              </button>
            )}
          </div>
        </form>
      )}
    </dialog>
  );
}
