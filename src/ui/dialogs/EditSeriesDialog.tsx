import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { updateSeriesMetadata } from '../../api/metadata.ts';
import { READING_DIRECTIONS, SERIES_STATUSES, type AlternateTitleDto, type SeriesDto } from '../../api/types.ts';
import { CheckboxGroup } from '../components/CheckboxGroup.tsx';
import { ErrorMessage } from '../components/Feedback.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextArea } from '../components/TextArea.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as form from '../components/form.css.ts';
import { t } from '../i18n.ts';
import { integerAtLeastProblem, languageTagProblem, splitList } from '../validation/metadataRules.ts';
import * as styles from './dialog.css.ts';
import { locksOf } from './metadataLocks.ts';
import { Modal } from './Modal.tsx';
import { useResetOnOpen } from '../hooks/useResetOnOpen.ts';

interface Draft {
  title: string;
  titleSort: string;
  status: string;
  summary: string;
  readingDirection: string;
  publisher: string;
  ageRating: string;
  language: string;
  genres: string;
  tags: string;
  sharingLabels: string;
  totalBookCount: string;
  alternateTitles: AlternateTitleDto[];
}

/** The fields with a lock, in the dialog's order, each with its label's locale key. */
const LOCKABLE = [
  ['title', 'edit_series.fields.title'],
  ['titleSort', 'edit_series.fields.title_sort'],
  ['status', 'series.facts.status'],
  ['readingDirection', 'series.facts.reading_direction'],
  ['publisher', 'series.facts.publisher'],
  ['language', 'series.facts.language'],
  ['ageRating', 'series.facts.age_rating'],
  ['totalBookCount', 'edit_series.fields.total_book_count'],
  ['summary', 'edit_book.fields.summary'],
  ['genres', 'series.facts.genres'],
  ['tags', 'edit_book.fields.tags'],
  ['sharingLabels', 'batch_edit_series.sharing_labels'],
  ['alternateTitles', 'edit_series.fields.alternate_titles'],
] as const satisfies readonly (readonly [keyof Draft, string])[];
type LockableField = (typeof LOCKABLE)[number][0];

function draftOf(series: SeriesDto): Draft {
  const m = series.metadata;
  return {
    title: m.title,
    titleSort: m.titleSort,
    status: m.status,
    summary: m.summary,
    readingDirection: m.readingDirection,
    publisher: m.publisher,
    ageRating: m.ageRating === null ? '' : String(m.ageRating),
    language: m.language,
    genres: m.genres.join(', '),
    tags: m.tags.join(', '),
    sharingLabels: m.sharingLabels.join(', '),
    totalBookCount: m.totalBookCount === null ? '' : String(m.totalBookCount),
    alternateTitles: m.alternateTitles.map((a) => ({ ...a })),
  };
}

/**
 * Edit one series' metadata, its sharing labels and alternate titles included: age rating 0 or more, total book count 1
 * or more (SPEC §5).
 */
export function EditSeriesDialog(props: { series: SeriesDto; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { series, open, onClose, onSaved } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(series));
  const [locked, setLocked] = useState<LockableField[]>(() => locksOf(series.metadata, LOCKABLE));
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  // Start from the record each time the dialog opens, not when the record refreshes underneath.
  useResetOnOpen(open, () => {
    setDraft(draftOf(series));
    setLocked(locksOf(series.metadata, LOCKABLE));
    setSubmitted(false);
    setError(undefined);
  });

  const problems = {
    ageRating: integerAtLeastProblem(draft.ageRating, 0),
    totalBookCount: integerAtLeastProblem(draft.totalBookCount, 1),
    language: languageTagProblem(draft.language),
    // A row is a label and its title; one without the other is not saved silently, it is pointed out.
    alternateLabels: draft.alternateTitles.map((a) => (a.title.trim() && !a.label.trim() ? 'validation.required' : undefined)),
    alternateTitles: draft.alternateTitles.map((a) => (a.label.trim() && !a.title.trim() ? 'validation.required' : undefined)),
  };
  const invalid =
    !!problems.ageRating ||
    !!problems.totalBookCount ||
    !!problems.language ||
    problems.alternateLabels.some(Boolean) ||
    problems.alternateTitles.some(Boolean);
  const show = (key: string | undefined) => (submitted && key ? t(key) : undefined);
  const set = (patch: Partial<Draft>) => {
    setDraft((previous) => ({ ...previous, ...patch }));
    // An edited field is locked, as a change typed by hand should outlive the next refresh.
    setLocked((previous) => [...new Set([...previous, ...(Object.keys(patch) as LockableField[])])]);
  };

  async function save() {
    setSubmitted(true);
    if (invalid) return;
    const original = draftOf(series);
    const update: Record<string, unknown> = {};
    const put = (key: LockableField, value: unknown) => Object.assign(update, { [key]: value, [`${key}Lock`]: locked.includes(key) });
    const changed = (key: Exclude<keyof Draft, 'alternateTitles'>) => draft[key] !== original[key];
    const alternates = draft.alternateTitles
      .filter((a) => a.label.trim() || a.title.trim())
      .map((a) => ({ label: a.label.trim(), title: a.title.trim() }));
    if (JSON.stringify(alternates) !== JSON.stringify(original.alternateTitles)) put('alternateTitles', alternates);
    if (changed('title')) put('title', draft.title);
    if (changed('titleSort')) put('titleSort', draft.titleSort);
    if (changed('status')) put('status', draft.status);
    if (changed('summary')) put('summary', draft.summary);
    if (changed('readingDirection')) put('readingDirection', draft.readingDirection || null);
    if (changed('publisher')) put('publisher', draft.publisher);
    if (changed('ageRating')) put('ageRating', draft.ageRating === '' ? null : Number(draft.ageRating));
    if (changed('language')) put('language', draft.language.trim());
    if (changed('genres')) put('genres', splitList(draft.genres));
    if (changed('tags')) put('tags', splitList(draft.tags));
    if (changed('sharingLabels')) put('sharingLabels', splitList(draft.sharingLabels));
    if (changed('totalBookCount')) put('totalBookCount', draft.totalBookCount === '' ? null : Number(draft.totalBookCount));
    const lockedBefore = locksOf(series.metadata, LOCKABLE);
    for (const [field] of LOCKABLE) {
      if (locked.includes(field) !== lockedBefore.includes(field)) update[`${field}Lock`] = locked.includes(field);
    }
    if (Object.keys(update).length === 0) return onClose();
    setBusy(true);
    setError(undefined);
    try {
      await updateSeriesMetadata(series.id, update);
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} wide title={t('edit_series.title')} onClose={onClose} onSubmit={() => void save()} submitLabel={t('libraries.edit_dialog.submit')} submitDisabled={busy}>
      <div className={styles.scrollBody}>
        <div className={styles.columns}>
          <TextField label={t('edit_series.fields.title')} value={draft.title} onChange={(e) => set({ title: e.target.value })} />
          <TextField label={t('edit_series.fields.title_sort')} value={draft.titleSort} onChange={(e) => set({ titleSort: e.target.value })} />
          <SelectField
            label={t('series.facts.status')}
            value={draft.status}
            options={SERIES_STATUSES.map((value) => ({ value, label: t(`series_status.${value}`) }))}
            onChange={(status) => set({ status })}
          />
          <SelectField
            label={t('series.facts.reading_direction')}
            value={draft.readingDirection}
            options={[
              { value: '', label: t('edit_series.unset') },
              ...READING_DIRECTIONS.map((value) => ({ value, label: t(`reading_direction.${value}`) })),
            ]}
            onChange={(readingDirection) => set({ readingDirection })}
          />
          <TextField label={t('series.facts.publisher')} value={draft.publisher} onChange={(e) => set({ publisher: e.target.value })} />
          <TextField
            label={t('series.facts.language')}
            hint={t('edit_series.language_hint')}
            value={draft.language}
            onChange={(e) => set({ language: e.target.value })}
            error={show(problems.language)}
          />
          <TextField
            label={t('series.facts.age_rating')}
            inputMode="numeric"
            value={draft.ageRating}
            onChange={(e) => set({ ageRating: e.target.value })}
            error={show(problems.ageRating)}
          />
          <TextField
            label={t('edit_series.fields.total_book_count')}
            inputMode="numeric"
            value={draft.totalBookCount}
            onChange={(e) => set({ totalBookCount: e.target.value })}
            error={show(problems.totalBookCount)}
          />
        </div>
        <TextArea label={t('edit_book.fields.summary')} value={draft.summary} onChange={(e) => set({ summary: e.target.value })} />
        <TextField label={t('series.facts.genres')} hint={t('edit_book.list_hint')} value={draft.genres} onChange={(e) => set({ genres: e.target.value })} />
        <TextField label={t('edit_book.fields.tags')} hint={t('edit_book.list_hint')} value={draft.tags} onChange={(e) => set({ tags: e.target.value })} />
        {/* What a user's allowed or excluded labels (SPEC §6 restrictions) are matched against. */}
        <TextField
          label={t('batch_edit_series.sharing_labels')}
          hint={t('edit_book.list_hint')}
          value={draft.sharingLabels}
          onChange={(e) => set({ sharingLabels: e.target.value })}
        />
        <fieldset className={styles.fieldset}>
          <legend className={form.label}>{t('edit_series.fields.alternate_titles')}</legend>
          {draft.alternateTitles.map((alternate, index) => (
            <div key={index} className={form.row}>
              <TextField
                label={t('edit_series.fields.alternate_title_label', { n: index + 1 })}
                value={alternate.label}
                onChange={(e) => set({ alternateTitles: draft.alternateTitles.map((a, i) => (i === index ? { ...a, label: e.target.value } : a)) })}
                error={show(problems.alternateLabels[index])}
              />
              <TextField
                label={t('edit_series.fields.alternate_title', { n: index + 1 })}
                value={alternate.title}
                onChange={(e) => set({ alternateTitles: draft.alternateTitles.map((a, i) => (i === index ? { ...a, title: e.target.value } : a)) })}
                error={show(problems.alternateTitles[index])}
              />
              <button
                type="button"
                className={buttons.icon}
                aria-label={t('edit_series.remove_alternate_title', { n: index + 1 })}
                onClick={() => set({ alternateTitles: draft.alternateTitles.filter((_, i) => i !== index) })}
              >
                <X aria-hidden="true" size={16} />
              </button>
            </div>
          ))}
          <div>
            <button type="button" className={buttons.quiet} onClick={() => set({ alternateTitles: [...draft.alternateTitles, { label: '', title: '' }] })}>
              <Plus aria-hidden="true" size={16} />
              {t('edit_series.add_alternate_title')}
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
