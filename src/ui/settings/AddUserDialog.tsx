import { useEffect, useState } from 'react';
import { ApiError } from '../../api/http.ts';
import { createUser } from '../../api/users.ts';
import { TextField } from '../components/TextField.tsx';
import { t } from '../i18n.ts';
import { FieldError } from './FieldError.tsx';
import { ModalDialog, runAction } from './ModalDialog.tsx';
import { type GrantedRole, RoleCheckboxes } from './RoleCheckboxes.tsx';
import { emailProblem, passwordProblem } from './validation.ts';

/** Komga's defaults for a new user: may stream pages and download files. */
const DEFAULT_ROLES: GrantedRole[] = ['PAGE_STREAMING', 'FILE_DOWNLOAD'];

export function AddUserDialog(props: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState<GrantedRole[]>(DEFAULT_ROLES);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  useEffect(() => {
    if (!props.open) return;
    setEmail('');
    setPassword('');
    setRoles(DEFAULT_ROLES);
    setTouched(false);
    setError(undefined);
  }, [props.open]);

  // The server refuses an email already in use as its `email` field (the format was checked here
  // first): said on that field in the admin's language, not as the server's English.
  const emailTaken = error instanceof ApiError && error.status === 400 && error.fields.includes('email');
  const emailError = touched ? (emailProblem(email) ?? (emailTaken ? t('users_admin.validation.email_taken') : undefined)) : undefined;
  const passwordError = touched ? passwordProblem(password) : undefined;

  async function submit() {
    setTouched(true);
    if (emailProblem(email) || passwordProblem(password)) return;
    const ok = await runAction(setBusy, setError, () => createUser({ email: email.trim(), password, roles }).then(() => undefined));
    if (ok) props.onAdded();
  }

  return (
    <ModalDialog
      open={props.open}
      title={t('users_admin.add.title')}
      submitLabel={t('users_admin.add.submit')}
      busy={busy}
      error={emailTaken ? undefined : error}
      onSubmit={submit}
      onClose={props.onClose}
    >
      <TextField label={t('users_admin.email')} type="email" value={email} onChange={(e) => {
          setEmail(e.target.value);
          if (emailTaken) setError(undefined);
        }} autoFocus aria-invalid={!!emailError} />
      <FieldError message={emailError} />
      <TextField label={t('users_admin.password')} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-invalid={!!passwordError} />
      <FieldError message={passwordError} />
      <RoleCheckboxes selected={roles} onChange={setRoles} />
    </ModalDialog>
  );
}
