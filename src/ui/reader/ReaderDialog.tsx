import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { INITIAL_FOCUS, showModalAtStart } from '../components/useModalDialog.ts';
import { wrapTab } from '../components/wrapTab.ts';
import { t } from '../i18n.ts';
import * as styles from './reader.css.ts';

export { INITIAL_FOCUS };

/**
 * A modal native <dialog>: focus is trapped and Escape closes it without any code of ours
 * (wrapTab keeps Tab from leaving it for the browser's own controls).
 * Open while mounted; `onClose` fires however it was closed, and focus goes back to where it was.
 */
export function ReaderDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Where the keyboard was: closed with Escape, the browser gives focus back there itself; closed by
    // the reader taking the dialog away (a chapter or page picked), the dialog leaves the page with
    // the focus, which would fall on <body>, before the reader.
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    // The modal focuses its first control (the close button); content may name a better start, as
    // the contents of a long book name the chapter being read.
    if (!dialog.open) showModalAtStart(dialog);
    // A close event queued by an earlier close (StrictMode remounts) must not shut a reopened dialog.
    const closed = () => {
      if (!dialog.open) onCloseRef.current();
    };
    dialog.addEventListener('close', closed);
    return () => {
      dialog.removeEventListener('close', closed);
      if (dialog.open) dialog.close();
      const dropped = document.activeElement === null || document.activeElement === document.body;
      if (dropped && opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      onKeyDown={(event) => wrapTab(event, event.currentTarget)}
      onClick={(event) => {
        event.stopPropagation();
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === ref.current) ref.current?.close();
      }}
    >
      <div className={styles.dialogHeader}>
        <h2 id={titleId} className={styles.dialogTitle}>
          {title}
        </h2>
        <button type="button" className={styles.iconButton} aria-label={t('reader.close')} onClick={() => ref.current?.close()}>
          <X aria-hidden size={20} />
        </button>
      </div>
      {children}
    </dialog>
  );
}
