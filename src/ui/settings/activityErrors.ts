/*
 * Why a login failed, as the authentication activity records it: English sentences the server
 * writes (the API keeps them, as Komga's clients read the same field). The screens translate what
 * they know; a sentence worded otherwise (a newer server, Komga's own) is shown as sent.
 * No imports of i18n here, so the server's tests can check that every sentence it records is known.
 */

/** A recorded sentence's locale key and the parts it carries. */
export interface ActivityErrorMessage {
  key: string;
  params?: Record<string, string>;
  /** Set when the server slowed the answer down after repeated failures: how long, in ms. */
  slowedMs?: number;
}

/** The whole sentences the server records, each with its locale key. */
const SENTENCES: Readonly<Record<string, string>> = {
  'Bad credentials': 'errors.invalid_authentication',
  'Invalid API key': 'users_admin.activity.errors.invalid_api_key',
  'Invalid remember-me token': 'users_admin.activity.errors.remember_me_invalid',
  'Invalid remember-me token signature': 'users_admin.activity.errors.remember_me_invalid',
  'Remember-me token has expired': 'users_admin.activity.errors.remember_me_expired',
  'Invalid or expired login state': 'users_admin.activity.errors.login_state',
  'No authorization code': 'users_admin.activity.errors.no_code',
  'Provider could not be reached': 'error_codes.temporarily_unavailable',
  'No local user with this email': 'error_codes.ERR_1025',
  'No email attribute': 'error_codes.ERR_1024',
  'No email_verified attribute': 'error_codes.ERR_1027',
  'Email not verified': 'error_codes.ERR_1026',
};

/** Sentences with a part from elsewhere (the provider's own error code), kept as it is. */
const PREFIXED: readonly { prefix: string; key: string; keepsRest?: false }[] = [
  { prefix: 'Provider refused: ', key: 'users_admin.activity.errors.provider_refused' },
  // oauth2-flow.ts: the rest is the OpenID library's English, for the log; the sentence stands alone.
  { prefix: 'Token exchange failed: ', key: 'users_admin.activity.errors.token_failed', keepsRest: false },
  { prefix: 'Userinfo failed: ', key: 'users_admin.activity.errors.userinfo_failed', keepsRest: false },
];

/** What login-methods.ts appends when it held the answer back after repeated failures. */
const SLOWED = /^(.*) \(slowed down (\d+) ms after repeated failures\)$/s;

export function activityErrorMessage(error: string): ActivityErrorMessage | undefined {
  const slowed = SLOWED.exec(error);
  if (slowed) {
    const inner = activityErrorMessage(slowed[1]!);
    return inner && { ...inner, slowedMs: Number(slowed[2]) };
  }
  const key = SENTENCES[error];
  if (key) return { key };
  for (const { prefix, key: prefixedKey, keepsRest } of PREFIXED) {
    if (!error.startsWith(prefix)) continue;
    return keepsRest === false ? { key: prefixedKey } : { key: prefixedKey, params: { reason: error.slice(prefix.length) } };
  }
  return undefined;
}
