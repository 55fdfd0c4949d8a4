import { useEffect, useId, useState } from 'react';
import { ErrorMessage } from '../components/Feedback.tsx';
import * as form from '../components/form.css.ts';
import { t } from '../i18n.ts';
import { useConfirmation } from './ConfirmActionDialog.tsx';
import { Modal } from './Modal.tsx';

/**
 * Every deletion asks once: it says what goes (and whether files go too) and that it cannot be
 * undone (SPEC §4); the Delete button waits for the acknowledgement.
 */
export function ConfirmDeleteDialog(props: {
  open: boolean;
  title: string;
  explanation: string;
  onClose: () => void;
  onConfirm: () => Promise<void>;
  /** The button's words when it is not a deletion (e.g. emptying the trash). */
  confirmLabel?: string;
}) {
  const { open, onClose, onConfirm } = props;
  const [understood, setUnderstood] = useState(false);
  const { busy, error, confirm } = useConfirmation(open, onConfirm);
  const checkId = useId();

  useEffect(() => {
    if (open) setUnderstood(false);
  }, [open]);

  return (
    <Modal
      open={open}
      danger
      title={props.title}
      onClose={onClose}
      onSubmit={() => void confirm()}
      submitLabel={props.confirmLabel ?? t('libraries.delete_dialog.submit')}
      submitDisabled={busy || !understood}
    >
      <p>{props.explanation}</p>
      <p>
        <strong>{t('libraries.delete_dialog.irreversible')}</strong>
      </p>
      <div className={form.checkboxRow}>
        <input id={checkId} type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
        <label htmlFor={checkId}>{t('libraries.delete_dialog.confirm')}</label>
      </div>
      <ErrorMessage error={error} />
    </Modal>
  );
}
