import * as oidc from 'openid-client';
import { OAuth2LoginError, type OAuth2Provider, verifiedEmail } from './oauth2.ts';
import type { PendingLogin, PendingLogins } from './pending-logins.ts';

/** Seconds openid-client waits for any one call to the provider. */
const PROVIDER_TIMEOUT_S = 15;

/** After a failed discovery, the provider is not asked again for this long, doubled at each failure in a row. */
export const DISCOVERY_RETRY_FIRST_MS = 30_000;
export const DISCOVERY_RETRY_MAX_MS = 5 * 60_000;

/** The provider failed discovery lately: not asked again until `retryAt`. */
export class ProviderUnavailable extends Error {
  readonly retryAt: number;
  constructor(registrationId: string, retryAt: number, cause: unknown) {
    super(`OAuth2 provider ${registrationId} could not be discovered lately; asked again after ${new Date(retryAt).toISOString()}`, { cause });
    this.name = 'ProviderUnavailable';
    this.retryAt = retryAt;
  }
}

/**
 * openid-client configurations, one per provider, made on first use: discovery for OpenID
 * providers, the configured endpoints otherwise. Concurrent logins share one discovery. A failed
 * one is not tried again at every login while the provider is down (each would wait up to
 * PROVIDER_TIMEOUT_S, and anyone can start a login): until the back-off has passed (30 s, doubled
 * after each failure in a row up to 5 min) logins fail at once with ProviderUnavailable.
 */
export class OAuth2Clients {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();
  private readonly failures = new Map<string, { retryAt: number; delayMs: number; cause: unknown }>();

  configuration(provider: OAuth2Provider): Promise<oidc.Configuration> {
    const id = provider.registrationId;
    const failed = this.failures.get(id);
    if (failed && Date.now() < failed.retryAt) return Promise.reject(new ProviderUnavailable(id, failed.retryAt, failed.cause));
    let config = this.configs.get(id);
    if (!config) {
      config = configure(provider);
      this.configs.set(id, config);
      config.then(
        () => this.failures.delete(id),
        (cause: unknown) => {
          this.configs.delete(id);
          const delayMs = failed ? Math.min(failed.delayMs * 2, DISCOVERY_RETRY_MAX_MS) : DISCOVERY_RETRY_FIRST_MS;
          this.failures.set(id, { retryAt: Date.now() + delayMs, delayMs, cause });
        },
      );
    }
    return config;
  }
}

/** Plain http is accepted only where the administrator configured an http URL (a provider on the LAN). */
const usesHttp = (url: string | undefined) => url?.startsWith('http:') === true;

async function configure(provider: OAuth2Provider): Promise<oidc.Configuration> {
  // Client secret in the form body, as Folio always sent it; public clients rely on PKCE alone.
  const auth = provider.clientSecret ? oidc.ClientSecretPost(provider.clientSecret) : oidc.None();
  if (provider.issuerUri) {
    const config = await oidc.discovery(new URL(provider.issuerUri), provider.clientId, undefined, auth, {
      timeout: PROVIDER_TIMEOUT_S,
      execute: usesHttp(provider.issuerUri) ? [oidc.allowInsecureRequests] : [],
    });
    // Check the id_token's signature against the provider's JWKS too, not only its claims.
    oidc.enableNonRepudiationChecks(config);
    return config;
  }
  const config = new oidc.Configuration(
    {
      // Never compared: no id_token is used and no `iss` is passed on for plain OAuth2 providers.
      issuer: new URL(provider.authorizationUri!).origin,
      authorization_endpoint: provider.authorizationUri!,
      token_endpoint: provider.tokenUri!,
      userinfo_endpoint: provider.userInfoUri!,
    },
    provider.clientId,
    undefined,
    auth,
  );
  config.timeout = PROVIDER_TIMEOUT_S;
  if ([provider.authorizationUri, provider.tokenUri, provider.userInfoUri].some(usesHttp)) oidc.allowInsecureRequests(config);
  // Without discovery there is no issuer or key set to check an id_token against, so one sent
  // anyway is dropped before openid-client sees it; the identity comes from userinfo alone.
  config[oidc.customFetch] = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (url !== provider.tokenUri || !response.ok) return response;
    // A token answer that is not JSON is passed on as null for openid-client to refuse; a failed
    // read of the body is no such answer and fails the fetch.
    const body = (await response.json().catch((error: unknown) => {
      if (error instanceof SyntaxError) return undefined;
      throw error;
    })) as Record<string, unknown> | undefined;
    if (body) delete body.id_token;
    return new Response(JSON.stringify(body ?? null), { status: response.status, headers: response.headers });
  };
  return config;
}

/** Starts a login: the provider's authorization URL, with PKCE (S256), state and (OIDC) nonce. */
export async function beginLogin(
  config: oidc.Configuration,
  provider: OAuth2Provider,
  redirectUri: string,
  pending: PendingLogins,
  clientAddress: string,
): Promise<{ url: URL; state: string }> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = provider.issuerUri ? oidc.randomNonce() : undefined;
  pending.add(state, { registrationId: provider.registrationId, codeVerifier, redirectUri, ...(nonce ? { nonce } : {}) }, clientAddress);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...(nonce ? { nonce } : {}),
  });
  return { url, state };
}

/**
 * Finishes a login from the callback's query: token exchange (id_token checked by openid-client:
 * signature, issuer, audience, nonce, expiry), userinfo, then the email rules.
 */
export async function completeLogin(
  config: oidc.Configuration,
  provider: OAuth2Provider,
  query: URLSearchParams,
  login: PendingLogin,
): Promise<string> {
  const callbackUrl = new URL(login.redirectUri);
  // OpenID providers may add `iss` (checked against the issuer); plain providers get code and state only.
  for (const [key, value] of query) if (provider.issuerUri || key === 'code' || key === 'state') callbackUrl.searchParams.append(key, value);

  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: query.get('state') ?? '',
      ...(login.nonce ? { expectedNonce: login.nonce, idTokenExpected: true } : {}),
    });
  } catch (error) {
    throw new OAuth2LoginError(tokenErrorCode(error), `Token exchange failed: ${describe(error)}`);
  }
  const idClaims = tokens.claims();
  let userInfo: Record<string, unknown>;
  try {
    userInfo = provider.issuerUri
      ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims?.sub ?? oidc.skipSubjectCheck)
      : await plainUserInfo(config, provider, tokens.access_token);
  } catch (error) {
    throw new OAuth2LoginError('invalid_user_info_response', `Userinfo failed: ${describe(error)}`);
  }
  // Like an OIDC user in Spring: the id_token's claims, completed and overridden by userinfo.
  return verifiedEmail(provider, { ...(idClaims ?? {}), ...userInfo });
}

/** A plain OAuth2 "user" endpoint is any JSON resource (no OIDC `sub` required), read with the access token. */
async function plainUserInfo(config: oidc.Configuration, provider: OAuth2Provider, accessToken: string): Promise<Record<string, unknown>> {
  const headers = new Headers({ Accept: 'application/json' });
  const response = await oidc.fetchProtectedResource(config, accessToken, new URL(provider.userInfoUri!), 'GET', undefined, headers);
  const body: unknown = response.ok ? await response.json() : undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error(`userinfo answered ${response.status}`);
  return body as Record<string, unknown>;
}

/** The provider's answer was refused (`invalid_token_response`) or its id_token failed a check (`invalid_id_token`). */
function tokenErrorCode(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.WWWAuthenticateChallengeError) return 'invalid_token_response';
  if (error instanceof oidc.ClientError) {
    const transport = ['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_HTTP_REQUEST_FORBIDDEN'];
    return transport.includes(error.code ?? '') ? 'invalid_token_response' : 'invalid_id_token';
  }
  return 'invalid_token_response';
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`.slice(0, 300);
}
