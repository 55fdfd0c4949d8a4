import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { updateBookMetadata } from '../../api/metadata.ts';
import type { BookDto } from '../../api/types.ts';
import { CheckboxGroup } from '../components/CheckboxGroup.tsx';
import { ErrorMessage } from '../components/Feedback.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextArea } from '../components/TextArea.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as form from '../components/form.css.ts';
import { t } from '../i18n.ts';
import {
  dateProblem,
  decimalProblem,
  duplicateAuthorRows,
  isbnProblem,
  splitList,
  urlProblem,
} from '../validation/metadataRules.ts';
import * as styles from './dialog.css.ts';
import { locksOf } from './metadataLocks.ts';
import { Modal } from './Modal.tsx';
import { useResetOnOpen } from '../hooks/useResetOnOpen.ts';
import { AUTHOR_ROLES } from '../../api/authorFilter.ts';

interface Draft {
  title: string;
  number: string;
  numberSort: string;
  releaseDate: string;
  summary: string;
  isbn: string;
  tags: string;
  authors: { name: string; role: string }[];
  links: { label: string; url: string }[];
}

/** The fields with a lock, in the dialog's order, each with its label's locale key. */
const LOCKABLE = [
  ['title', 'edit_book.fields.title'],
  ['number', 'edit_book.fields.number'],
  ['numberSort', 'edit_book.fields.number_sort'],
  ['releaseDate', 'edit_book.fields.release_date'],
  ['isbn', 'edit_book.fields.isbn'],
  ['summary', 'edit_book.fields.summary'],
  ['tags', 'edit_book.fields.tags'],
  ['authors', 'edit_book.fields.authors'],
  ['links', 'edit_book.fields.links'],
] as const satisfies readonly (readonly [keyof Draft, string])[];
type LockableField = (typeof LOCKABLE)[number][0];

function draftOf(book: BookDto): Draft {
  const m = book.metadata;
  return {
    title: m.title,
    number: m.number,
    numberSort: String(m.numberSort),
    releaseDate: m.releaseDate ?? '',
    summary: m.summary,
    isbn: m.isbn,
    tags: m.tags.join(', '),
    authors: m.authors.map((a) => ({ ...a })),
    links: m.links.map((l) => ({ ...l })),
  };
}

/** Problems by field (locale keys), per SPEC §5; empty when the draft can be saved. */
export function bookDraftProblems(draft: Draft) {
  const duplicates = duplicateAuthorRows(draft.authors);
  return {
    numberSort: decimalProblem(draft.numberSort),
    releaseDate: dateProblem(draft.releaseDate),
    isbn: isbnProblem(draft.isbn),
    authors: draft.authors.map((_, i) => (duplicates.has(i) ? 'validation.already_exists' : undefined)),
    links: draft.links.map((l) => (l.url || l.label ? urlProblem(l.url) : undefined)),
    // Komga (and Folio) refuse a link without a label; say so here rather than fail on saving.
    linkLabels: draft.links.map((l) => (l.url.trim() && !l.label.trim() ? 'validation.required' : undefined)),
  };
}

/**
 * Edit one book's metadata; only changed fields are sent. Editing a field locks it against
 * re-import; each lock can also be set or lifted on its own.
 */
export function EditBookDialog(props: { book: BookDto; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { book, open, onClose, onSaved } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(book));
  const [locked, setLocked] = useState<LockableField[]>(() => locksOf(book.metadata, LOCKABLE));
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  // Start from the record each time the dialog opens, not when the record refreshes underneath.
  useResetOnOpen(open, () => {
    setDraft(draftOf(book));
    setLocked(locksOf(book.metadata, LOCKABLE));
    setSubmitted(false);
    setError(undefined);
  });

  const problems = bookDraftProblems(draft);
  const invalid =
    !!problems.numberSort ||
    !!problems.releaseDate ||
    !!problems.isbn ||
    problems.authors.some(Boolean) ||
    problems.links.some(Boolean) ||
    problems.linkLabels.some(Boolean);
  // Messages appear once the user tries to save, then follow every keystroke.
  const show = (key: string | undefined) => (submitted && key ? t(key) : undefined);
  const set = (patch: Partial<Draft>) => {
    setDraft((previous) => ({ ...previous, ...patch }));
    // An edited field is locked, as a change typed by hand should outlive the next refresh.
    setLocked((previous) => [...new Set([...previous, ...(Object.keys(patch) as LockableField[])])]);
  };

  async function save() {
    setSubmitted(true);
    if (invalid) return;
    const original = draftOf(book);
    const update: Record<string, unknown> = {};
    const changed = (key: keyof Draft) => JSON.stringify(draft[key]) !== JSON.stringify(original[key]);
    const put = (key: LockableField, value: unknown) => Object.assign(update, { [key]: value, [`${key}Lock`]: locked.includes(key) });
    if (changed('title')) put('title', draft.title);
    if (changed('number')) put('number', draft.number);
    if (changed('numberSort')) put('numberSort', Number(draft.numberSort));
    if (changed('releaseDate')) put('releaseDate', draft.releaseDate || null);
    if (changed('summary')) put('summary', draft.summary);
    if (changed('isbn')) put('isbn', draft.isbn.replace(/[\s-]/g, ''));
    if (changed('tags')) put('tags', splitList(draft.tags));
    if (changed('authors')) put('authors', draft.authors.filter((a) => a.name.trim()).map((a) => ({ name: a.name.trim(), role: a.role })));
    if (changed('links')) put('links', draft.links.filter((l) => l.url.trim()).map((l) => ({ label: l.label.trim(), url: l.url.trim() })));
    const lockedBefore = locksOf(book.metadata, LOCKABLE);
    for (const [field] of LOCKABLE) {
      if (locked.includes(field) !== lockedBefore.includes(field)) update[`${field}Lock`] = locked.includes(field);
    }
    if (Object.keys(update).length === 0) return onClose();
    setBusy(true);
    setError(undefined);
    try {
      await updateBookMetadata(book.id, update);
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} wide title={t('edit_book.title')} onClose={onClose} onSubmit={() => void save()} submitLabel={t('libraries.edit_dialog.submit')} submitDisabled={busy}>
      <div className={styles.scrollBody}>
        <TextField label={t('edit_book.fields.title')} value={draft.title} onChange={(e) => set({ title: e.target.value })} />
        <div className={styles.columns}>
          <TextField label={t('edit_book.fields.number')} value={draft.number} onChange={(e) => set({ number: e.target.value })} />
          <TextField
            label={t('edit_book.fields.number_sort')}
            inputMode="decimal"
            value={draft.numberSort}
            onChange={(e) => set({ numberSort: e.target.value })}
            error={show(problems.numberSort)}
          />
          <TextField
            label={t('edit_book.fields.release_date')}
            hint={t('edit_book.date_hint')}
            value={draft.releaseDate}
            onChange={(e) => set({ releaseDate: e.target.value })}
            error={show(problems.releaseDate)}
          />
          <TextField
            label={t('edit_book.fields.isbn')}
            value={draft.isbn}
            onChange={(e) => set({ isbn: e.target.value })}
            error={show(problems.isbn)}
          />
        </div>
        <TextArea label={t('edit_book.fields.summary')} value={draft.summary} onChange={(e) => set({ summary: e.target.value })} />
        <TextField
          label={t('edit_book.fields.tags')}
          hint={t('edit_book.list_hint')}
          value={draft.tags}
          onChange={(e) => set({ tags: e.target.value })}
        />
        <fieldset className={styles.fieldset}>
          <legend className={form.label}>{t('edit_book.fields.authors')}</legend>
          {draft.authors.map((author, index) => (
            <div key={index} className={form.row}>
              <TextField
                label={t('edit_book.fields.author_name', { n: index + 1 })}
                value={author.name}
                onChange={(e) => set({ authors: draft.authors.map((a, i) => (i === index ? { ...a, name: e.target.value } : a)) })}
                error={show(problems.authors[index])}
              />
              <SelectField
                label={t('edit_book.fields.author_role', { n: index + 1 })}
                value={author.role}
                options={[...new Set([...AUTHOR_ROLES, author.role])].map((role) => ({ value: role, label: roleName(role) }))}
                onChange={(role) => set({ authors: draft.authors.map((a, i) => (i === index ? { ...a, role } : a)) })}
              />
              <button
                type="button"
                className={buttons.icon}
                aria-label={t('edit_book.remove_author', { n: index + 1 })}
                onClick={() => set({ authors: draft.authors.filter((_, i) => i !== index) })}
              >
                <X aria-hidden="true" size={16} />
              </button>
            </div>
          ))}
          <div>
            <button type="button" className={buttons.quiet} onClick={() => set({ authors: [...draft.authors, { name: '', role: 'writer' }] })}>
              <Plus aria-hidden="true" size={16} />
              {t('edit_book.add_author')}
            </button>
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={form.label}>{t('edit_book.fields.links')}</legend>
          {draft.links.map((link, index) => (
            <div key={index} className={form.row}>
              <TextField
                label={t('edit_book.fields.link_label', { n: index + 1 })}
                value={link.label}
                onChange={(e) => set({ links: draft.links.map((l, i) => (i === index ? { ...l, label: e.target.value } : l)) })}
                error={show(problems.linkLabels[index])}
              />
              <TextField
                label={t('edit_book.fields.link_url', { n: index + 1 })}
                // Not type="url": the browser's own check would block saving with its bubble and
                // the dialog's message (SPEC §5, read out with the field) would never show.
                inputMode="url"
                value={link.url}
                onChange={(e) => set({ links: draft.links.map((l, i) => (i === index ? { ...l, url: e.target.value } : l)) })}
                error={show(problems.links[index])}
              />
              <button
                type="button"
                className={buttons.icon}
                aria-label={t('edit_book.remove_link', { n: index + 1 })}
                onClick={() => set({ links: draft.links.filter((_, i) => i !== index) })}
              >
                <X aria-hidden="true" size={16} />
              </button>
            </div>
          ))}
          <div>
            <button type="button" className={buttons.quiet} onClick={() => set({ links: [...draft.links, { label: '', url: '' }] })}>
              <Plus aria-hidden="true" size={16} />
              {t('edit_book.add_link')}
            </button>
          </div>
        </fieldset>
        <CheckboxGroup
          legend={t('edit_book.locked_fields')}
          options={LOCKABLE.map(([value, label]) => ({ value, label: t('edit_book.lock_field', { field: t(label) }) }))}
          selected={locked}
          onChange={setLocked}
        />
      </div>
      {submitted && invalid && (
        <p role="alert" className={form.fieldError}>
          {t('validation.fix_fields')}
        </p>
      )}
      <ErrorMessage error={error} />
    </Modal>
  );
}

function roleName(role: string): string {
  const key = `author_roles.${role}`;
  const label = t(key);
  return label === key ? role : label;
}
