import { useEffect, useRef, useState } from 'react';
import type { ApiKeyDto } from '../../api/types.ts';
import { createApiKey, deleteApiKey, getApiKeys } from '../../api/users.ts';
import { EmptyState, ErrorMessage, Loading } from '../components/Feedback.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import { FieldError } from '../settings/FieldError.tsx';
import { ModalDialog, runAction } from '../settings/ModalDialog.tsx';
import { formatDateTime } from '../format.ts';
import * as styles from '../settings/settings.css.ts';
import { LabelledCell } from '../components/LabelledCell.tsx';
import { NewApiKey } from './NewApiKey.tsx';

/** The user's API keys: a new key is shown once, right after creation; the list only has comments. */
export function ApiKeys() {
  const keys = useAsync(() => getApiKeys(), []);
  const [creating, setCreating] = useState(false);
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  const [created, setCreated] = useState<ApiKeyDto | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyDto | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const createButton = useRef<HTMLButtonElement>(null);
  const deleted = useRef(false);

  // The dialog hands focus back to the key's Delete button, which the reloaded list then drops:
  // after a deletion the keyboard goes on from the Create button instead of the page's start.
  useEffect(() => {
    if (deleting || !deleted.current) return;
    deleted.current = false;
    createButton.current?.focus();
  }, [deleting]);

  const commentError = touched && !comment.trim() ? t('my_account.api_keys.comment_required') : undefined;

  function openCreate() {
    setComment('');
    setTouched(false);
    setCreated(null);
    setError(undefined);
    setCreating(true);
  }

  async function create() {
    if (created) return;
    setTouched(true);
    if (!comment.trim()) return;
    await runAction(setBusy, setError, async () => {
      setCreated(await createApiKey(comment.trim()));
      keys.reload();
    });
  }

  async function remove() {
    if (!deleting) return;
    const ok = await runAction(setBusy, setError, () => deleteApiKey(deleting.id));
    if (ok) {
      deleted.current = true;
      setDeleting(null);
      keys.reload();
    }
  }

  return (
    <div>
      <button ref={createButton} type="button" className={buttons.primary} onClick={openCreate}>
        {t('my_account.api_keys.create')}
      </button>
      <ErrorMessage error={keys.error} />
      {!keys.data && !keys.error && <Loading />}
      {keys.data && keys.data.length === 0 && <EmptyState>{t('my_account.api_keys.empty')}</EmptyState>}
      {keys.data && keys.data.length > 0 && (
        <table className={styles.table} aria-label={t('my_account.api_keys.title')}>
          <thead>
            <tr>
              <th className={styles.headerCell}>{t('my_account.api_keys.comment')}</th>
              <th className={styles.headerCell}>{t('my_account.api_keys.created')}</th>
              <th className={styles.headerCell}>{t('users_admin.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <LabelledCell className={styles.cell} label={t('my_account.api_keys.comment')}>{key.comment}</LabelledCell>
                <LabelledCell className={styles.cell} label={t('my_account.api_keys.created')}>{formatDateTime(key.createdDate)}</LabelledCell>
                <td className={styles.cell}>
                  <button type="button" className={buttons.secondary} onClick={() => { setError(undefined); setDeleting(key); }}>
                    {t('my_account.api_keys.delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <ModalDialog
        open={creating}
        title={t('my_account.api_keys.create')}
        submitLabel={t('my_account.api_keys.generate')}
        noSubmit={created !== null}
        cancelLabel={created ? t('my_account.api_keys.done') : undefined}
        busy={busy}
        error={creating ? error : undefined}
        onSubmit={create}
        onClose={() => {
          setCreating(false);
          setCreated(null);
        }}
      >
        {created ? (
          <>
            <p>{t('my_account.api_keys.shown_once')}</p>
            <NewApiKey apiKey={created.key} />
          </>
        ) : (
          <>
            <TextField label={t('my_account.api_keys.comment')} value={comment} onChange={(e) => setComment(e.target.value)} autoFocus aria-invalid={!!commentError} />
            <FieldError message={commentError} />
          </>
        )}
      </ModalDialog>

      <ModalDialog
        open={deleting !== null}
        title={t('my_account.api_keys.delete_title')}
        submitLabel={t('my_account.api_keys.delete')}
        danger
        busy={busy}
        error={deleting ? error : undefined}
        onSubmit={remove}
        onClose={() => setDeleting(null)}
      >
        <p>{t('my_account.api_keys.delete_warning', { comment: deleting?.comment ?? '' })}</p>
      </ModalDialog>
    </div>
  );
}
