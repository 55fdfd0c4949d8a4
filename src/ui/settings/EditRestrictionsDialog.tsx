import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { AgeRestrictionUpdateDto, UserDto } from '../../api/types.ts';
import { updateUser } from '../../api/users.ts';
import { CheckboxGroup } from '../components/CheckboxGroup.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextField } from '../components/TextField.tsx';
import * as form from '../components/form.css.ts';
import { t } from '../i18n.ts';
import { session } from '../store/session.ts';
import { FieldError } from './FieldError.tsx';
import { ModalDialog, runAction } from './ModalDialog.tsx';
import * as styles from './settings.css.ts';
import { parseLabels } from './validation.ts';

type AgeMode = AgeRestrictionUpdateDto['restriction'];

/** Shared libraries, age restriction and allowed/excluded sharing labels of one user (SPEC §6). */
export function EditRestrictionsDialog(props: { user: UserDto | null; onClose: () => void; onSaved: () => void }) {
  const { user } = props;
  const { libraries } = useSnapshot(session);
  const [allLibraries, setAllLibraries] = useState(true);
  const [libraryIds, setLibraryIds] = useState<string[]>([]);
  const [ageMode, setAgeMode] = useState<AgeMode>('NONE');
  // Empty until typed: a prefilled 0 read as a choice, and 'only under 0' hides every book.
  const [age, setAge] = useState('');
  const [labelsAllow, setLabelsAllow] = useState('');
  const [labelsExclude, setLabelsExclude] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [ageError, setAgeError] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (!user) return;
    setAllLibraries(user.sharedAllLibraries);
    setLibraryIds([...user.sharedLibrariesIds]);
    setAgeMode(user.ageRestriction?.restriction ?? 'NONE');
    setAge(user.ageRestriction ? String(user.ageRestriction.age) : '');
    setLabelsAllow(user.labelsAllow.join(', '));
    setLabelsExclude(user.labelsExclude.join(', '));
    setError(undefined);
    setAgeError(undefined);
  }, [user]);

  async function submit() {
    if (!user) return;
    // Number('') is 0: an empty field is not an age.
    const ageValue = age.trim() === '' ? Number.NaN : Number(age);
    if (ageMode !== 'NONE' && (!Number.isInteger(ageValue) || ageValue < 0)) {
      setAgeError(t('users_admin.validation.age'));
      return;
    }
    setAgeError(undefined);
    const ok = await runAction(setBusy, setError, () =>
      updateUser(user.id, {
        sharedLibraries: { all: allLibraries, libraryIds: allLibraries ? [] : libraryIds },
        ageRestriction: ageMode === 'NONE' ? null : { age: ageValue, restriction: ageMode },
        labelsAllow: parseLabels(labelsAllow),
        labelsExclude: parseLabels(labelsExclude),
      }),
    );
    if (ok) props.onSaved();
  }

  return (
    <ModalDialog
      open={user !== null}
      title={t('users_admin.restrictions_dialog.title', { email: user?.email ?? '' })}
      submitLabel={t('users_admin.save')}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={props.onClose}
    >
      <div className={form.checkboxRow}>
        <input id="restrictions-all-libraries" type="checkbox" checked={allLibraries} onChange={(e) => setAllLibraries(e.target.checked)} />
        <label htmlFor="restrictions-all-libraries">{t('users_admin.restrictions_dialog.all_libraries')}</label>
      </div>
      {!allLibraries && (
        <CheckboxGroup
          legend={t('users_admin.restrictions_dialog.shared_libraries')}
          options={libraries.map((l) => ({ value: l.id, label: l.name }))}
          selected={libraryIds}
          onChange={setLibraryIds}
        />
      )}
      <SelectField
        label={t('users_admin.restrictions_dialog.age_restriction')}
        value={ageMode}
        options={(['NONE', 'ALLOW_ONLY', 'EXCLUDE'] as const).map((value) => ({ value, label: t(`users_admin.age_mode.${value}`) }))}
        onChange={(value) => setAgeMode(value as AgeMode)}
      />
      {ageMode !== 'NONE' && (
        <>
          <TextField label={t('users_admin.restrictions_dialog.age')} type="number" min={0} value={age} onChange={(e) => setAge(e.target.value)} aria-invalid={!!ageError} />
          <FieldError message={ageError} />
        </>
      )}
      <TextField label={t('users_admin.restrictions_dialog.labels_allow')} value={labelsAllow} onChange={(e) => setLabelsAllow(e.target.value)} />
      <TextField label={t('users_admin.restrictions_dialog.labels_exclude')} value={labelsExclude} onChange={(e) => setLabelsExclude(e.target.value)} />
      <p className={styles.hint}>{t('users_admin.restrictions_dialog.labels_hint')}</p>
    </ModalDialog>
  );
}
