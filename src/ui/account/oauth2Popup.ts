import { apiUrl } from '../../api/http.ts';
import { pageBasePath } from '../../api/basePath.ts';

/** Window name of the OAuth2 login popup (as Komga's web client names it). */
export const OAUTH2_POPUP_NAME = 'oauth2Login';

export function openOAuth2Popup(registrationId: string): Window | null {
  const width = 500;
  const height = 650;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  return window.open(
    apiUrl(`/oauth2/authorization/${encodeURIComponent(registrationId)}`),
    OAUTH2_POPUP_NAME,
    `width=${width},height=${height},left=${left},top=${top}`,
  );
}

/**
 * Runs in the popup once the server has redirected it back with `server_redirect=Y` (SPEC §2):
 * the opener goes to this URL when it carries an error (the login screen shows it), otherwise to
 * the app's root under the base path (now with a session), and the popup closes. Returns whether it handled the return.
 */
export function returnFromOAuth2Popup(win: Window = window): boolean {
  const params = new URLSearchParams(win.location.search);
  if (params.get('server_redirect') !== 'Y' || !win.opener || win.name !== OAUTH2_POPUP_NAME) return false;
  try {
    (win.opener as Window).location.href = params.has('error') ? win.location.href : `${win.location.origin}${pageBasePath()}/`;
  } catch (error) {
    // An opener from another origin cannot be steered; closing the popup is all that is left.
    console.warn('OAuth2 popup: could not send the opening window back to Folio', error);
  }
  win.close();
  return true;
}
