import { useState } from 'react';
import { updateSeriesMetadata } from '../../api/metadata.ts';
import { READING_DIRECTIONS, SERIES_STATUSES } from '../../api/types.ts';
import { BatchFieldToggle } from '../components/BatchFieldToggle.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextField } from '../components/TextField.tsx';
import * as feedback from '../components/feedback.css.ts';
import * as form from '../components/form.css.ts';
import { useResetOnOpen } from '../hooks/useResetOnOpen.ts';
import { describeError, t, tPlural } from '../i18n.ts';
import { settleWithLimit } from '../settleWithLimit.ts';
import { integerAtLeastProblem, languageTagProblem, splitList } from '../validation/metadataRules.ts';
import * as styles from './dialog.css.ts';
import { Modal } from './Modal.tsx';

/** The series fields that make sense to set on many series at once (no title, summary, links). */
const FIELDS = ['status', 'readingDirection', 'publisher', 'ageRating', 'language', 'genres', 'tags', 'sharingLabels', 'totalBookCount'] as const;
type Field = (typeof FIELDS)[number];
type Draft = Record<Field, string>;

const BLANK: Draft = {
  status: SERIES_STATUSES[0],
  readingDirection: '',
  publisher: '',
  ageRating: '',
  language: '',
  genres: '',
  tags: '',
  sharingLabels: '',
  totalBookCount: '',
};

/** Komga has no bulk series endpoint: one PATCH per series, a few at a time. */
const PARALLEL_PATCHES = 3;

/**
 * The PATCH body for the ticked fields only, each with its lock set (REFERENCE §2.11: an edited
 * field is locked so a metadata refresh does not undo it). Lists replace what each series had.
 */
function updateFor(draft: Draft, ticked: ReadonlySet<Field>): Record<string, unknown> {
  const update: Record<string, unknown> = {};
  const put = (key: Field, value: unknown) => {
    if (ticked.has(key)) Object.assign(update, { [key]: value, [`${key}Lock`]: true });
  };
  const wholeNumber = (value: string) => (value.trim() === '' ? null : Number(value));
  put('status', draft.status);
  put('readingDirection', draft.readingDirection || null);
  put('publisher', draft.publisher);
  put('ageRating', wholeNumber(draft.ageRating));
  put('language', draft.language.trim());
  put('genres', splitList(draft.genres));
  put('tags', splitList(draft.tags));
  put('sharingLabels', splitList(draft.sharingLabels));
  put('totalBookCount', wholeNumber(draft.totalBookCount));
  return update;
}

/**
 * Sets the same values on several series (admins, from a series selection). Like the book batch
 * edit, a field changes only when its box is ticked, and genres, tags and sharing labels given
 * here overwrite the existing ones (SPEC §4). Validation is the single series edit's (SPEC §5).
 * Each failed series is named with its error; saving again resends to every selected series,
 * which is harmless since the same PATCH gives the same result.
 */
export function BatchEditSeriesDialog(props: {
  seriesIds: string[];
  open: boolean;
  onClose: () => void;
  /** Every series saved. */
  onSaved: () => void;
  /** Some series saved while others failed: the lists showing them may refresh. */
  onChanged?: () => void;
  titleOf?: (id: string) => string;
}) {
  const { seriesIds, open, onClose, onSaved, onChanged, titleOf = (id: string) => id } = props;
  const [draft, setDraft] = useState<Draft>(BLANK);
  const [ticked, setTicked] = useState<ReadonlySet<Field>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<{ id: string; error: unknown }[]>([]);

  useResetOnOpen(open, () => {
    setDraft(BLANK);
    setTicked(new Set());
    setSubmitted(false);
    setFailures([]);
  });

  const problems = {
    ageRating: ticked.has('ageRating') ? integerAtLeastProblem(draft.ageRating, 0) : undefined,
    totalBookCount: ticked.has('totalBookCount') ? integerAtLeastProblem(draft.totalBookCount, 1) : undefined,
    language: ticked.has('language') ? languageTagProblem(draft.language) : undefined,
  };
  const invalid = !!problems.ageRating || !!problems.totalBookCount || !!problems.language;
  const show = (key: string | undefined) => (submitted && key ? t(key) : undefined);
  const set = (patch: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...patch }));
  const tick = (field: Field) => (on: boolean) =>
    setTicked((previous) => {
      const next = new Set(previous);
      if (on) next.add(field);
      else next.delete(field);
      return next;
    });
  const toggle = (field: Field, label: string) => ({ label, checked: ticked.has(field), onChange: tick(field) });

  async function save() {
    setSubmitted(true);
    if (invalid) return;
    const update = updateFor(draft, ticked);
    if (Object.keys(update).length === 0) return onClose();
    setBusy(true);
    setFailures([]);
    try {
      const outcomes = await settleWithLimit(seriesIds, PARALLEL_PATCHES, (id) => updateSeriesMetadata(id, update));
      const failed = outcomes.flatMap((outcome, i) =>
        outcome.status === 'rejected' ? [{ id: seriesIds[i] as string, error: outcome.reason as unknown }] : [],
      );
      if (failed.length === 0) return onSaved();
      setFailures(failed);
      if (failed.length < seriesIds.length) onChanged?.();
    } finally {
      setBusy(false);
    }
  }

  const listField = (field: 'genres' | 'tags' | 'sharingLabels', label: string) => (
    <TextField label={label} hint={t('edit_book.list_hint')} value={draft[field]} onChange={(e) => set({ [field]: e.target.value })} />
  );

  return (
    <Modal
      open={open}
      title={tPlural('batch_edit_series.title', seriesIds.length)}
      onClose={onClose}
      onSubmit={() => void save()}
      submitLabel={t('libraries.edit_dialog.submit')}
      submitDisabled={busy || ticked.size === 0}
    >
      <p className={feedback.muted}>{t('batch_edit_series.overwrite_warning')}</p>
      <div className={styles.scrollBody}>
        <BatchFieldToggle {...toggle('status', t('batch_edit_series.change_status'))}>
          <SelectField
            label={t('series.facts.status')}
            value={draft.status}
            options={SERIES_STATUSES.map((value) => ({ value, label: t(`series_status.${value}`) }))}
            onChange={(status) => set({ status })}
          />
        </BatchFieldToggle>
        <BatchFieldToggle {...toggle('readingDirection', t('batch_edit_series.change_reading_direction'))}>
          <SelectField
            label={t('series.facts.reading_direction')}
            value={draft.readingDirection}
            options={[
              { value: '', label: t('edit_series.unset') },
              ...READING_DIRECTIONS.map((value) => ({ value, label: t(`reading_direction.${value}`) })),
            ]}
            onChange={(readingDirection) => set({ readingDirection })}
          />
        </BatchFieldToggle>
        <BatchFieldToggle {...toggle('publisher', t('batch_edit_series.change_publisher'))}>
          <TextField label={t('series.facts.publisher')} value={draft.publisher} onChange={(e) => set({ publisher: e.target.value })} />
        </BatchFieldToggle>
        <BatchFieldToggle {...toggle('ageRating', t('batch_edit_series.change_age_rating'))}>
          <TextField
            label={t('series.facts.age_rating')}
            inputMode="numeric"
            value={draft.ageRating}
            onChange={(e) => set({ ageRating: e.target.value })}
            error={show(problems.ageRating)}
          />
        </BatchFieldToggle>
        <BatchFieldToggle {...toggle('language', t('batch_edit_series.change_language'))}>
          <TextField
            label={t('series.facts.language')}
            hint={t('edit_series.language_hint')}
            value={draft.language}
            onChange={(e) => set({ language: e.target.value })}
            error={show(problems.language)}
          />
        </BatchFieldToggle>
        <BatchFieldToggle {...toggle('genres', t('batch_edit_series.change_genres'))}>
          {listField('genres', t('series.facts.genres'))}
        </BatchFieldToggle>
        <BatchFieldToggle {...toggle('tags', t('batch_edit.change_tags'))}>{listField('tags', t('edit_book.fields.tags'))}</BatchFieldToggle>
        <BatchFieldToggle {...toggle('sharingLabels', t('batch_edit_series.change_sharing_labels'))}>
          {listField('sharingLabels', t('batch_edit_series.sharing_labels'))}
        </BatchFieldToggle>
        <BatchFieldToggle {...toggle('totalBookCount', t('batch_edit_series.change_total_book_count'))}>
          <TextField
            label={t('edit_series.fields.total_book_count')}
            inputMode="numeric"
            value={draft.totalBookCount}
            onChange={(e) => set({ totalBookCount: e.target.value })}
            error={show(problems.totalBookCount)}
          />
        </BatchFieldToggle>
      </div>
      {submitted && invalid && (
        <p role="alert" className={form.fieldError}>
          {t('validation.fix_fields')}
        </p>
      )}
      {failures.length > 0 && (
        <div role="alert" className={feedback.errorBox}>
          <p>{t('batch_edit_series.not_saved', { count: failures.length, total: seriesIds.length })}</p>
          <ul>
            {failures.map((failure) => (
              <li key={failure.id}>{t('batch_edit_series.failure', { title: titleOf(failure.id), error: describeError(failure.error) })}</li>
            ))}
          </ul>
        </div>
      )}
    </Modal>
  );
}
