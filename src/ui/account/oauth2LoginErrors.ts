/*
 * The `error` the server's OAuth2 callback sends the login page (server/http/routes/oauth2-routes.ts:
 * `/login?error=<code>`), as the locale key that says it: a Komga error code (ERR_1024…ERR_1028),
 * one of the server's own codes, or else the provider's own OAuth2 error (access_denied,
 * invalid_scope…), shown as sent after "the provider refused". The login page showed every code
 * but the Komga ones as a bare identifier ("invalid_state") in every language.
 * No imports of i18n here, so the server's tests can check every code they provoke is known.
 */

/** A code's locale key, and the parts it carries. */
export interface OAuth2LoginError {
  key: string;
  params?: Record<string, string>;
}

/** The server's own codes (oauth2-routes.ts, oauth2-flow.ts), each with the key of the sentence recorded with it. */
const SERVER_CODES: Readonly<Record<string, string>> = {
  invalid_state: 'users_admin.activity.errors.login_state',
  invalid_request: 'users_admin.activity.errors.no_code',
  server_error: 'error_codes.temporarily_unavailable',
  temporarily_unavailable: 'error_codes.temporarily_unavailable',
  invalid_token_response: 'users_admin.activity.errors.token_failed',
  invalid_id_token: 'users_admin.activity.errors.token_failed',
  invalid_user_info_response: 'users_admin.activity.errors.userinfo_failed',
};

export function oauth2LoginError(code: string): OAuth2LoginError {
  if (/^ERR_\d{4}$/.test(code)) return { key: `error_codes.${code}` };
  const key = SERVER_CODES[code];
  return key ? { key } : { key: 'users_admin.activity.errors.provider_refused', params: { reason: code } };
}
