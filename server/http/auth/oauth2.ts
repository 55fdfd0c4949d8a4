import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * OAuth2 / OpenID Connect login (REFERENCE §1.12), configured by `<dataDir>/oauth2-providers.json`,
 * a JSON array with one entry per provider. An OpenID provider is found by discovery:
 *
 *   [{ "registrationId": "keycloak", "name": "Keycloak", "clientId": "folio", "clientSecret": "...",
 *      "issuerUri": "https://sso.example.org/realms/home" }]
 *
 * A plain OAuth2 provider (no discovery, no id_token) names its endpoints instead:
 *
 *   [{ "registrationId": "forge", "clientId": "...", "clientSecret": "...", "oidc": false,
 *      "authorizationUri": "https://.../authorize", "tokenUri": "https://.../token",
 *      "userInfoUri": "https://.../user", "scope": "user:email", "emailAttribute": "email" }]
 *
 * Optional everywhere: name, clientSecret (public client when absent), scope, emailAttribute
 * ("email"), requireVerifiedEmail (true; OIDC only). The protocol work itself (PKCE, state, nonce,
 * token exchange, id_token checks, userinfo) is done by openid-client in oauth2-flow.ts.
 */
export interface OAuth2Provider {
  registrationId: string;
  name: string;
  clientId: string;
  clientSecret?: string;
  /** Set for OpenID providers found by discovery; the endpoints below then come from the provider. */
  issuerUri?: string;
  authorizationUri?: string;
  tokenUri?: string;
  userInfoUri?: string;
  scope: string;
  oidc: boolean;
  emailAttribute: string;
  requireVerifiedEmail: boolean;
}

export const PROVIDERS_FILE = 'oauth2-providers.json';
export const STATE_COOKIE = 'folio-oauth2-state';

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isHttpUrl = (v: unknown): v is string => {
  if (!isText(v)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // URL's "Invalid URL"
    return false;
  }
};

/** Providers from the data dir; a missing file means none, a malformed entry is skipped with a warning. */
export function loadProviders(dataDir: string, warn: (message: string) => void): OAuth2Provider[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dataDir, PROVIDERS_FILE), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warn(`${PROVIDERS_FILE} ignored: ${String(error)}`);
    return [];
  }
  if (!Array.isArray(raw)) {
    warn(`${PROVIDERS_FILE} ignored: expected a JSON array`);
    return [];
  }
  const providers: OAuth2Provider[] = [];
  for (const entry of raw as Record<string, unknown>[]) {
    const e = entry ?? {};
    const discovered = isHttpUrl(e.issuerUri);
    const manual = isHttpUrl(e.authorizationUri) && isHttpUrl(e.tokenUri) && isHttpUrl(e.userInfoUri);
    if (!isText(e.registrationId) || !/^[A-Za-z0-9_-]+$/.test(e.registrationId) || !isText(e.clientId) || (!discovered && !manual)) {
      warn(`${PROVIDERS_FILE}: provider skipped (needs registrationId, clientId, and issuerUri or authorizationUri, tokenUri, userInfoUri)`);
      continue;
    }
    // Discovery means OpenID Connect; without it, `oidc` only decides the email rules (as before).
    const oidc = discovered || e.oidc !== false;
    providers.push({
      registrationId: e.registrationId,
      name: isText(e.name) ? e.name : e.registrationId,
      clientId: e.clientId,
      ...(isText(e.clientSecret) ? { clientSecret: e.clientSecret } : {}),
      ...(discovered
        ? { issuerUri: e.issuerUri as string }
        : { authorizationUri: e.authorizationUri as string, tokenUri: e.tokenUri as string, userInfoUri: e.userInfoUri as string }),
      scope: isText(e.scope) ? e.scope : oidc ? 'openid email profile' : 'email',
      oidc,
      emailAttribute: isText(e.emailAttribute) ? e.emailAttribute : 'email',
      requireVerifiedEmail: e.requireVerifiedEmail !== false,
    });
  }
  return providers;
}

/** Server error codes of the OAuth2 login (SPEC §8), or protocol codes such as `invalid_id_token`. */
export class OAuth2LoginError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The email the provider vouches for, under the catalogue rules ERR_1024 and ERR_1026–ERR_1028. */
export function verifiedEmail(provider: OAuth2Provider, claims: Record<string, unknown>): string {
  const email = claims[provider.emailAttribute];
  if (!isText(email)) throw new OAuth2LoginError(provider.oidc ? 'ERR_1028' : 'ERR_1024', 'No email attribute');
  if (provider.oidc && provider.requireVerifiedEmail) {
    if (!('email_verified' in claims)) throw new OAuth2LoginError('ERR_1027', 'No email_verified attribute');
    if (claims.email_verified !== true && claims.email_verified !== 'true') throw new OAuth2LoginError('ERR_1026', 'Email not verified');
  }
  return email.trim();
}
