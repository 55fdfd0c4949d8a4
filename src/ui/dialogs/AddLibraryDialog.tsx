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
import { LibraryOptionsTabs, NEW_LIBRARY_OPTIONS, type LibraryOptions, type LibraryOptionsTab } from './LibraryOptionsTabs.tsx';
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
  const [tab, setTab] = useState<LibraryOptionsTab>('general');
  // Set by an Add with the name or folder missing: they are marked, and the first of them focused.
  const [checked, setChecked] = useState(false);
  const [focusMissing, setFocusMissing] = useState(0);
  const nameRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLInputElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  // Never greyed out for a missing field: those sit on the General tab, which may not be the one
  // shown, so an Add takes the user there and says what is missing instead.
  const submitDisabled = busy;
  const missing = { name: !name.trim(), root: !root.trim() };
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
      setTab('general');
      setChecked(false);
      showModalAtStart(dialog);
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // After the General tab is shown again (its fields exist only while it is).
  useEffect(() => {
    if (focusMissing === 0) return;
    (missing.name ? nameRef : rootRef).current?.focus();
  }, [focusMissing]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (missing.name || missing.root) {
      setChecked(true);
      setTab('general');
      setFocusMissing((n) => n + 1);
      return;
    }
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
      {/* noValidate: the browser's own check cannot reach a field of a tab not shown; submit() does it. */}
      <form className={styles.form} onSubmit={submit} noValidate>
        <h2 id={headingId} className={styles.heading}>
          {t('libraries.add_dialog.title')}
        </h2>
        <LibraryOptionsTabs
          tab={tab}
          onTabChange={setTab}
          options={options}
          onChange={(patch) => setOptions((previous) => ({ ...previous, ...patch }))}
          general={
            <>
              <TextField
                ref={nameRef}
                label={t('libraries.add_dialog.name')}
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                error={checked && missing.name ? t('validation.required') : undefined}
                {...{ [INITIAL_FOCUS]: '' }}
              />
              <div className={formStyles.row}>
                <TextField
                  ref={rootRef}
                  label={t('libraries.add_dialog.root')}
                  value={root}
                  onChange={(e) => setRoot(e.target.value)}
                  required
                  error={checked && missing.root ? t('validation.required') : undefined}
                />
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
