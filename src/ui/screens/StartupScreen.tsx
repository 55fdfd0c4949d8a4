import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { getCurrentUser } from '../../api/auth.ts';
import { ApiError } from '../../api/http.ts';
import { ErrorMessage, Loading } from '../components/Feedback.tsx';
import { t } from '../i18n.ts';
import { safeRedirectTarget, withRedirect } from '../routing/redirectTarget.ts';
import { loadLibraries, startSession } from '../store/session.ts';
import { takeEarlySessionRestore } from '../store/sessionRestore.ts';
import * as styles from './screens.css.ts';

/**
 * Restores a session from the cookie (or the remember-me cookie): on success the user continues to
 * where they were going, otherwise to the login screen carrying the same redirect.
 */
export function StartupScreen() {
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const [error, setError] = useState<unknown>(undefined);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      // On a cold load of a reader's address the boot module asked already.
      const early = takeEarlySessionRestore();
      let user;
      try {
        user = await (early?.user ?? getCurrentUser());
      } catch (failure) {
        // No session (401) is the usual answer; anything else (server down, a 500) is worth a line
        // before the login is asked for, which is the way on either way.
        if (!(failure instanceof ApiError && failure.status === 401)) console.warn('The session could not be restored; asking to log in', failure);
        if (!cancelled) navigate(withRedirect('/login', safeRedirectTarget(redirect)), { replace: true });
        return;
      }
      try {
        await loadLibraries(early?.libraries);
      } catch (failure) {
        // Logged in but the library list failed: say so rather than pretend there are no libraries.
        if (!cancelled) setError(failure);
        return;
      }
      if (cancelled) return;
      startSession(user);
      navigate(safeRedirectTarget(redirect), { replace: true });
    })();
    return () => {
      cancelled = true;
    };
  }, [redirect, navigate]);

  return (
    <main className={styles.centeredPage}>
      <div className={styles.panel}>
        <h1 className={styles.productTitle}>{t('common.product_name')}</h1>
        {error ? <ErrorMessage error={error} /> : <Loading label={t('startup.loading')} />}
      </div>
    </main>
  );
}
