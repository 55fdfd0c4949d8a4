import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { useSnapshot } from 'valtio';
import { claimServer, getClaimStatus, login } from '../../api/auth.ts';
import { ApiError } from '../../api/http.ts';
import { DeferredLiveStatus, ErrorMessage, Loading } from '../components/Feedback.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as formStyles from '../components/form.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { t } from '../i18n.ts';
import { safeRedirectTarget } from '../routing/redirectTarget.ts';
import { preferences } from '../store/preferences.ts';
import { loadLibraries, session, startSession } from '../store/session.ts';
import * as styles from './screens.css.ts';
import { OAuth2Login } from '../account/OAuth2Login.tsx';

type Mode = 'checking' | 'claim' | 'login';

/** Login, or on an unclaimed server the creation of the first (admin) account. */
export function LoginScreen() {
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const redirect = safeRedirectTarget(params.get('redirect'));
  const prefs = useSnapshot(preferences);
  const { endedReason } = useSnapshot(session);
  const [mode, setMode] = useState<Mode>('checking');
  const [claimError, setClaimError] = useState<unknown>(undefined);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const rememberId = useId();

  useEffect(() => {
    let cancelled = false;
    getClaimStatus().then(
      (status) => {
        if (!cancelled) setMode(status.isClaimed ? 'login' : 'claim');
      },
      (failure: unknown) => {
        // Without the claim status we still offer the normal login: the server most likely has users.
        if (cancelled) return;
        setClaimError(failure);
        setMode('login');
      },
    );
    return () => {
      cancelled = true;
    };
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      if (mode === 'claim') await claimServer(email, password);
      const user = await login(email, password, mode === 'claim' ? false : preferences.rememberMe);
      await loadLibraries();
      startSession(user);
      navigate(redirect, { replace: true });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  const errorText =
    error instanceof ApiError && error.status === 401 && error.action === 'log_in'
      ? t('errors.invalid_authentication')
      : undefined;

  return (
    <main className={styles.centeredPage}>
      <form className={styles.panel} onSubmit={submit} aria-busy={busy}>
        <h1 className={styles.productTitle}>{t('common.product_name')}</h1>
        {mode === 'checking' && <Loading />}
        {mode !== 'checking' && (
          <>
            {mode === 'claim' ? (
              <>
                <h2>{t('login.claim_title')}</h2>
                <p className={feedback.muted}>{t('login.claim_explanation')}</p>
              </>
            ) : (
              <h2>{t('login.title')}</h2>
            )}
            {/* Why the user is here again (the session ended): spoken, as the screen opens with it. */}
            <DeferredLiveStatus as="p" className={feedback.errorBox} message={endedReason} />
            <ErrorMessage error={claimError} />
            <TextField
              label={t('login.email')}
              type="email"
              autoComplete={mode === 'claim' ? 'email' : 'username'}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
              autoFocus
            />
            <TextField
              label={t('login.password')}
              type="password"
              autoComplete={mode === 'claim' ? 'new-password' : 'current-password'}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
            {mode === 'login' && (
              <div className={formStyles.checkboxRow}>
                <input
                  id={rememberId}
                  type="checkbox"
                  checked={prefs.rememberMe}
                  onChange={(e) => {
                    preferences.rememberMe = e.target.checked;
                  }}
                />
                <label htmlFor={rememberId}>{t('login.remember_me')}</label>
              </div>
            )}
            {errorText ? (
              <p role="alert" className={feedback.errorBox}>
                {errorText}
              </p>
            ) : (
              <ErrorMessage error={error} />
            )}
            <button type="submit" className={buttons.primary} disabled={busy}>
              {mode === 'claim' ? t('login.claim_submit') : t('login.submit')}
            </button>
            {mode === 'login' && <OAuth2Login />}
          </>
        )}
      </form>
    </main>
  );
}
