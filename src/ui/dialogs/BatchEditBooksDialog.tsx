import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { updateBooksMetadata } from '../../api/metadata.ts';
import { BatchFieldToggle } from '../components/BatchFieldToggle.tsx';
import { ErrorMessage } from '../components/Feedback.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import * as form from '../components/form.css.ts';
import { useResetOnOpen } from '../hooks/useResetOnOpen.ts';
import { t, tPlural } from '../i18n.ts';
import { duplicateAuthorRows, splitList } from '../validation/metadataRules.ts';
import * as styles from './dialog.css.ts';
import { AUTHOR_ROLES } from '../../api/authorFilter.ts';
import { Modal } from './Modal.tsx';

/**
 * Sets authors and/or tags on several books at once. SPEC §4: this overwrites what each book had,
 * so each field is only sent when its box is ticked, and the dialog says so.
 */
export function BatchEditBooksDialog(props: { bookIds: string[]; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { bookIds, open, onClose, onSaved } = props;
  const [changeAuthors, setChangeAuthors] = useState(false);
  const [changeTags, setChangeTags] = useState(false);
  const [authors, setAuthors] = useState<{ name: string; role: string }[]>([]);
  const [tags, setTags] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  useResetOnOpen(open, () => {
    setChangeAuthors(false);
    setChangeTags(false);
    setAuthors([]);
    setTags('');
    setSubmitted(false);
    setError(undefined);
  });

  const duplicates = duplicateAuthorRows(authors);
  const invalid = changeAuthors && duplicates.size > 0;

  async function save() {
    setSubmitted(true);
    if (invalid) return;
    const update: Record<string, unknown> = {};
    if (changeAuthors) {
      update.authors = authors.filter((a) => a.name.trim()).map((a) => ({ name: a.name.trim(), role: a.role }));
      update.authorsLock = true;
    }
    if (changeTags) {
      update.tags = splitList(tags);
      update.tagsLock = true;
    }
    if (Object.keys(update).length === 0) return onClose();
    setBusy(true);
    setError(undefined);
    try {
      await updateBooksMetadata(Object.fromEntries(bookIds.map((id) => [id, update])));
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={tPlural('batch_edit.title', bookIds.length)}
      onClose={onClose}
      onSubmit={() => void save()}
      submitLabel={t('libraries.edit_dialog.submit')}
      submitDisabled={busy || (!changeAuthors && !changeTags)}
    >
      <p className={feedback.muted}>{t('batch_edit.overwrite_warning')}</p>
      <BatchFieldToggle label={t('batch_edit.change_authors')} checked={changeAuthors} onChange={setChangeAuthors}>
        <fieldset className={styles.fieldset}>
          <legend className={form.label}>{t('edit_book.fields.authors')}</legend>
          {authors.map((author, index) => (
            <div key={index} className={form.row}>
              <TextField
                label={t('edit_book.fields.author_name', { n: index + 1 })}
                value={author.name}
                onChange={(e) => setAuthors(authors.map((a, i) => (i === index ? { ...a, name: e.target.value } : a)))}
                error={submitted && duplicates.has(index) ? t('validation.already_exists') : undefined}
              />
              <SelectField
                label={t('edit_book.fields.author_role', { n: index + 1 })}
                value={author.role}
                options={AUTHOR_ROLES.map((role) => ({ value: role, label: t(`author_roles.${role}`) }))}
                onChange={(role) => setAuthors(authors.map((a, i) => (i === index ? { ...a, role } : a)))}
              />
              <button
                type="button"
                className={buttons.icon}
                aria-label={t('edit_book.remove_author', { n: index + 1 })}
                onClick={() => setAuthors(authors.filter((_, i) => i !== index))}
              >
                <X aria-hidden="true" size={16} />
              </button>
            </div>
          ))}
          <div>
            <button type="button" className={buttons.quiet} onClick={() => setAuthors([...authors, { name: '', role: 'writer' }])}>
              <Plus aria-hidden="true" size={16} />
              {t('edit_book.add_author')}
            </button>
          </div>
        </fieldset>
      </BatchFieldToggle>
      <BatchFieldToggle label={t('batch_edit.change_tags')} checked={changeTags} onChange={setChangeTags}>
        <TextField label={t('edit_book.fields.tags')} hint={t('edit_book.list_hint')} value={tags} onChange={(e) => setTags(e.target.value)} />
      </BatchFieldToggle>
      <ErrorMessage error={error} />
    </Modal>
  );
}
