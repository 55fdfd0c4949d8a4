import { useSearchParams } from 'wouter';
import { apiUrl } from '../../api/http.ts';
import { getOAuth2Providers } from '../../api/users.ts';
import * as buttons from '../components/buttons.css.ts';
import { ErrorMessage } from '../components/Feedback.tsx';
import * as feedback from '../components/feedback.css.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import { oauth2LoginError } from './oauth2LoginErrors.ts';
import { openOAuth2Popup } from './oauth2Popup.ts';

/**
 * "Log in with …" buttons for the server's OAuth2 providers (none → nothing shown), and the
 * message of a failed OAuth2 login that came back as `?error=<code>`.
 */
export function OAuth2Login() {
  // The password form works without the list; a list that did not come is said (SPEC §8), as a
  // user who logs in with a provider would otherwise find its button gone and no reason.
  const providers = useAsync(() => getOAuth2Providers(), []);
  const [params] = useSearchParams();
  const error = params.get('error');
  const list = providers.data ?? [];
  if (list.length === 0 && !error && !providers.error) return null;
  const failure = oauth2LoginError(error ?? '');
  return (
    <>
      <ErrorMessage error={providers.error} />
      {error && (
        <p role="alert" className={feedback.errorBox}>
          {t('oauth2_login.failed', { reason: t(failure.key, failure.params) })}
        </p>
      )}
      {list.map((provider) => (
        <button
          key={provider.registrationId}
          type="button"
          className={buttons.secondary}
          onClick={() => {
            if (!openOAuth2Popup(provider.registrationId)) window.location.assign(apiUrl(`/oauth2/authorization/${encodeURIComponent(provider.registrationId)}`));
          }}
        >
          {t('oauth2_login.login_with', { name: provider.name })}
        </button>
      ))}
    </>
  );
}
