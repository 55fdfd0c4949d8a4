import { useEffect, useRef, useState } from 'react';
import { updateLibrary, type LibraryUpdate } from '../../api/libraryAdmin.ts';
import type { LibraryDto } from '../../api/types.ts';
import { ErrorMessage } from '../components/Feedback.tsx';
import { TextField } from '../components/TextField.tsx';
import { t } from '../i18n.ts';
import { loadLibraries } from '../store/session.ts';
import { LibraryOptionsTabs } from './LibraryOptionsTabs.tsx';
import { Modal } from './Modal.tsx';

/** Edit name, root folder and options of a library (PATCH with what changed). */
export function EditLibraryDialog(props: { library: LibraryDto; open: boolean; onClose: () => void }) {
  const { library, open, onClose } = props;
  const [draft, setDraft] = useState<LibraryDto>(() => ({ ...library }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  // Start from the record each time the dialog opens, not when the record refreshes underneath
  // (a live event while editing must not wipe what the user typed).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) {
      setDraft({ ...library });
      setError(undefined);
    }
    wasOpen.current = open;
  }, [open, library]);

  async function save() {
    const changes: LibraryUpdate = {};
    for (const key of Object.keys(draft) as (keyof LibraryDto)[]) {
      if (key === 'id' || key === 'unavailable') continue;
      if (JSON.stringify(draft[key]) !== JSON.stringify(library[key])) Object.assign(changes, { [key]: draft[key] });
    }
    if (Object.keys(changes).length === 0) return onClose();
    setBusy(true);
    setError(undefined);
    try {
      await updateLibrary(library.id, changes);
      await loadLibraries();
      onClose();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const set = (patch: Partial<LibraryDto>) => setDraft((previous) => ({ ...previous, ...patch }));

  return (
    <Modal
      open={open}
      wide
      title={t('libraries.edit_dialog.title', { name: library.name })}
      onClose={onClose}
      onSubmit={save}
      submitLabel={t('libraries.edit_dialog.submit')}
      submitDisabled={busy || !draft.name.trim() || !draft.root.trim()}
    >
      <LibraryOptionsTabs
        options={draft}
        onChange={set}
        general={
          <>
            <TextField label={t('libraries.add_dialog.name')} value={draft.name} onChange={(e) => set({ name: e.target.value })} required />
            <TextField label={t('libraries.add_dialog.root')} value={draft.root} onChange={(e) => set({ root: e.target.value })} required />
          </>
        }
      />
      <ErrorMessage error={error} />
    </Modal>
  );
}
