import { useEffect, useState } from 'react';
import { ErrorMessage } from '../components/Feedback.tsx';
import { Modal } from './Modal.tsx';

/**
 * Asks before a long or heavy task starts (analyse a library, refresh its metadata): says what it
 * does, runs it on confirmation, shows the failure if it does not start.
 */
export function ConfirmActionDialog(props: {
  open: boolean;
  title: string;
  explanation: string;
  confirmLabel: string;
  /** A drastic but undoable action (stopping the server): the red button, without the deletion's acknowledgement. */
  danger?: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { open, onClose, onConfirm } = props;
  const { busy, error, confirm } = useConfirmation(open, onConfirm);
  return (
    <Modal open={open} danger={props.danger} title={props.title} onClose={onClose} onSubmit={() => void confirm()} submitLabel={props.confirmLabel} submitDisabled={busy}>
      <p>{props.explanation}</p>
      <ErrorMessage error={error} />
    </Modal>
  );
}

/** A confirmation's run: busy while it runs, its failure kept to show; cleared each time the dialog opens. */
export function useConfirmation(open: boolean, onConfirm: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    if (open) setError(undefined);
  }, [open]);

  async function confirm() {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, confirm };
}
