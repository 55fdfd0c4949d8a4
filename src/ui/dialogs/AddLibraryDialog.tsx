import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createLibrary } from '../../api/libraries.ts';
import type { LibraryDto } from '../../api/types.ts';
import { ErrorMessage } from '../components/Feedback.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import { INITIAL_FOCUS, showModalAtStart } from '../components/useModalDialog.ts';
import { useSubmitKeepsFocus } from '../components/useSubmitKeepsFocus.ts';
import { wrapTab } from '../components/wrapTab.ts';
import { t } from '../i18n.ts';
import { addLibraryToSession } from '../store/session.ts';
import { FolderBrowserDialog } from './FolderBrowserDialog.tsx';
import { LibraryOptionsTabs, NEW_LIBRARY_OPTIONS, type LibraryOptions } from './LibraryOptionsTabs.tsx';
import * as formStyles from '../components/form.css.ts';
import * as styles from './dialog.css.ts';

/** Native modal <dialog>: the browser traps focus, handles Escape and restores focus on close. */
export function AddLibraryDialog(props: { open: boolean; onClose: () => void; onAdded: (library: LibraryDto) => void }) {
  const { open, onClose, onAdded } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const [name, setName] = useState('');
  const [root, setRoot] = useState('');
  const [options, setOptions] = useState<LibraryOptions>(NEW_LIBRARY_OPTIONS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [browsing, setBrowsing] = useState(false);
  const submitRef = useRef<HTMLButtonElement>(null);
  const submitDisabled = busy || !name.trim() || !root.trim();
  // As Modal's: a refusal keeps the dialog open, and the Add button the keyboard.
  const noteSubmit = useSubmitKeepsFocus(dialogRef, submitRef, submitDisabled);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setName('');
      setRoot('');
      setOptions(NEW_LIBRARY_OPTIONS);
      setError(undefined);
      showModalAtStart(dialog);
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    noteSubmit();
    setBusy(true);
    setError(undefined);
    try {
      const library = await createLibrary({ ...options, name: name.trim(), root: root.trim() });
      addLibraryToSession(library);
      onAdded(library);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className={`${styles.dialog} ${styles.wide}`}
      aria-labelledby={headingId}
      // Tab from the last control went out to the browser's own (or <body>); it goes round instead.
      onKeyDown={(event) => wrapTab(event, event.currentTarget)}
      // React passes a nested dialog's close event up the tree; only this dialog's own counts.
      onClose={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <form className={styles.form} onSubmit={submit}>
        <h2 id={headingId} className={styles.heading}>
          {t('libraries.add_dialog.title')}
        </h2>
        <LibraryOptionsTabs
          options={options}
          onChange={(patch) => setOptions((previous) => ({ ...previous, ...patch }))}
          general={
            <>
              <TextField label={t('libraries.add_dialog.name')} value={name} onChange={(e) => setName(e.target.value)} required {...{ [INITIAL_FOCUS]: '' }} />
              <div className={formStyles.row}>
                <TextField label={t('libraries.add_dialog.root')} value={root} onChange={(e) => setRoot(e.target.value)} required />
                <button type="button" className={buttons.secondary} onClick={() => setBrowsing(true)}>
                  {t('folders.browse')}
                </button>
              </div>
            </>
          }
        />
        <ErrorMessage error={error} />
        <div className={styles.actions}>
          <button type="button" className={buttons.quiet} onClick={onClose}>
            {t('app.cancel')}
          </button>
          <button ref={submitRef} type="submit" className={buttons.primary} disabled={submitDisabled}>
            {t('libraries.add_dialog.submit')}
          </button>
        </div>
      </form>
      {/* Outside the form above: a dialog's own form must not nest in another form. */}
      <FolderBrowserDialog
        open={browsing}
        initialPath={root}
        onClose={() => setBrowsing(false)}
        onChoose={(path) => {
          setRoot(path);
          setBrowsing(false);
        }}
      />
    </dialog>
  );
}
