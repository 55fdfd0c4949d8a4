import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/http.ts';
import { updateMyPassword } from '../../api/users.ts';
import { ErrorMessage, LiveStatus } from '../components/Feedback.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import { t } from '../i18n.ts';
import { ChangePasswordFields, passwordChangeInvalid } from '../settings/ChangePasswordFields.tsx';
import { runAction } from '../settings/ModalDialog.tsx';
import * as styles from '../settings/settings.css.ts';

/**
 * Change one's own password: the current one (Folio's server asks for it), then the new one, which is
 * required, and its repeat, which must match (SPEC §5).
 */
export function ChangeMyPassword() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setSaved(false);
    if (passwordChangeInvalid(password, repeat)) return;
    if (await runAction(setBusy, setError, () => updateMyPassword(password, current))) {
      setCurrent('');
      setPassword('');
      setRepeat('');
      setTouched(false);
      setSaved(true);
    }
  }

  // A wrong current password is the user's slip, not a failure: said on its field, in their language,
  // rather than as the server's English "Validation failed: currentPassword …".
  const wrongCurrent = error instanceof ApiError && error.status === 400 && error.fields.includes('currentPassword');

  return (
    <form className={styles.narrowForm} onSubmit={submit} noValidate>
      <TextField label={t('my_account.current_password')} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} error={wrongCurrent ? t('my_account.current_password_wrong') : undefined} />
      <ChangePasswordFields password={password} repeat={repeat} touched={touched} onPassword={setPassword} onRepeat={setRepeat} />
      <ErrorMessage error={wrongCurrent ? undefined : error} />
      <LiveStatus as="p" message={saved ? t('my_account.password_changed') : undefined} />
      <div>
        <button type="submit" className={buttons.primary} disabled={busy}>
          {t('my_account.change_password')}
        </button>
      </div>
    </form>
  );
}
