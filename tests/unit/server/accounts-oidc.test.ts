import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  jwtPayload,
  listenOidcProvider,
  signJwt,
  type LocalOidcProvider,
  type TokenResponse,
} from '../../fixtures/oidc-provider.ts';
import en from '../../../locales/en.json';
import { oauth2LoginError } from '../../../src/ui/account/oauth2LoginErrors.ts';
import { activityErrorMessage } from '../../../src/ui/settings/activityErrors.ts';
import { FetchBrowser } from './fetch-browser.ts';
import { ADMIN_EMAIL, startServer, type TestServer } from './helpers.ts';

/**
 * OpenID Connect login against a real provider (oidc-provider) on a local port: both servers speak
 * real HTTP, the test plays the browser hop by hop, and plays the attacker by rewriting the
 * authorization request or the provider's token response.
 */
let op: LocalOidcProvider;
let server: TestServer;
let dir: string;
let base: string;

beforeAll(async () => {
  op = await listenOidcProvider();
  dir = await mkdtemp(join(tmpdir(), 'folio-oidc-'));
  await mkdir(join(dir, 'data'), { recursive: true });
  await writeFile(
    join(dir, 'data', 'oauth2-providers.json'),
    JSON.stringify([
      { registrationId: 'local', name: 'Local ID', clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, issuerUri: op.issuer },
      // Nothing listens on port 1: discovery fails.
      { registrationId: 'down', name: 'Down ID', clientId: OIDC_CLIENT_ID, issuerUri: 'http://127.0.0.1:1/' },
    ]),
  );
  server = await startServer({ dir });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  op.start([`${base}/login/oauth2/code/local`]);
  op.accounts.set('admin', { email: ADMIN_EMAIL, email_verified: true, name: 'Admin' });
  op.accounts.set('stranger', { email: 'stranger@example.org', email_verified: true });
  op.accounts.set('unverified', { email: ADMIN_EMAIL, email_verified: false });
  op.accounts.set('no-verified-flag', { email: ADMIN_EMAIL });
  op.accounts.set('no-email', { name: 'Nobody' });
});

afterAll(async () => {
  await server?.close();
  await op?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface LoginOptions {
  /** Changes the authorization request on its way to the provider. */
  rewriteAuthorization?: (url: URL) => URL;
  /** Runs between the provider's redirect back and the callback request. */
  beforeCallback?: (browser: FetchBrowser, callback: URL) => void;
  tamper?: (response: TokenResponse) => TokenResponse;
}

/** A whole login in a fresh browser, as `account` at the provider; ends with Folio's callback answer. */
async function login(account: string, options: LoginOptions = {}) {
  const browser = new FetchBrowser();
  op.loginAs = account;
  op.tamper = options.tamper;
  let authorization: URL | undefined;
  try {
    const { url: callback, response } = await browser.follow(`${base}/oauth2/authorization/local`, (next) => {
      if (next.origin === base && next.pathname === '/login/oauth2/code/local') return true;
      if (next.origin === op.issuer && next.pathname === '/auth') {
        authorization = next;
        return options.rewriteAuthorization?.(next) ?? false;
      }
      return false;
    });
    if (response) throw new Error(`the flow stopped at ${callback.href}: ${response.status} ${await response.text()}`);
    options.beforeCallback?.(browser, callback);
    const answer = await browser.get(callback);
    return { browser, callback, authorization: authorization!, answer, location: answer.headers.get('location') ?? '' };
  } finally {
    op.tamper = undefined;
  }
}

const errorOf = (location: string) => new URL(location, 'http://x').searchParams.get('error');

/** The id_token with its payload changed and re-signed by `key` (default: the provider's own key). */
const resigned = (change: (payload: Record<string, unknown>) => void, key = op.signingKey) => (response: TokenResponse) => {
  const payload = jwtPayload(response.id_token!);
  change(payload);
  return { ...response, id_token: signJwt(payload, key, op.keyId) };
};

describe('OpenID Connect login against a real provider', () => {
  it('lists the provider to anonymous callers', async () => {
    const response = await fetch(`${base}/api/v1/oauth2/providers`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { name: 'Local ID', registrationId: 'local' },
      { name: 'Down ID', registrationId: 'down' },
    ]);
    expect((await fetch(`${base}/oauth2/authorization/nope`, { redirect: 'manual' })).status).toBe(404);
  });

  it('sends the browser back to the login screen when the provider cannot be discovered', async () => {
    const response = await fetch(`${base}/oauth2/authorization/down`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login?server_redirect=Y&error=temporarily_unavailable');
  });

  it('logs an existing user with a verified email in: session cookie, /users/me, activity', async () => {
    const { browser, authorization, answer, location } = await login('admin');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('scope')).toBe('openid email profile');
    expect(answer.status).toBe(302);
    expect(location).toBe('/?server_redirect=Y');
    expect(browser.cookie('KOMGA-SESSION')).toBeTruthy();

    const me = await browser.get(`${base}/api/v2/users/me`, { 'X-Requested-With': 'XMLHttpRequest' });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(ADMIN_EMAIL);
    const activity = await server.json<{ content: { source: string; success: boolean }[] }>('/api/v2/users/me/authentication-activity');
    expect(activity.content.some((a) => a.source === 'OAuth2:local' && a.success)).toBe(true);
  });

  it('refuses an email with no local user (ERR_1025) and an unverified email (ERR_1026)', async () => {
    const stranger = await login('stranger');
    expect(stranger.location).toBe('/login?server_redirect=Y&error=ERR_1025');
    expect(stranger.browser.cookie('KOMGA-SESSION')).toBeUndefined();
    const unverified = await login('unverified');
    expect(errorOf(unverified.location)).toBe('ERR_1026');
    expect(unverified.browser.cookie('KOMGA-SESSION')).toBeUndefined();
  });

  it('refuses claims without email_verified (ERR_1027) or without email (ERR_1028)', async () => {
    expect(errorOf((await login('no-verified-flag')).location)).toBe('ERR_1027');
    expect(errorOf((await login('no-email')).location)).toBe('ERR_1028');
  });

  it('accepts an id_token re-signed with the provider key unchanged (the tamper checks below can pass)', async () => {
    const { location, browser } = await login('admin', { tamper: resigned(() => {}) });
    expect(location).toBe('/?server_redirect=Y');
    expect(browser.cookie('KOMGA-SESSION')).toBeTruthy();
  });

  it('refuses an id_token whose payload was altered after signing', async () => {
    const { location, browser } = await login('admin', {
      tamper: (response) => {
        const [header, , signature] = response.id_token!.split('.');
        const payload = { ...jwtPayload(response.id_token!), name: 'Mallory' };
        return { ...response, id_token: `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}` };
      },
    });
    expect(errorOf(location)).toBe('invalid_id_token');
    expect(browser.cookie('KOMGA-SESSION')).toBeUndefined();
  });

  it('refuses an id_token forged with another key under the provider key id', async () => {
    const { privateKey: attackerKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { location, browser } = await login('admin', { tamper: resigned(() => {}, attackerKey) });
    expect(errorOf(location)).toBe('invalid_id_token');
    expect(browser.cookie('KOMGA-SESSION')).toBeUndefined();
  });

  it('refuses a validly signed id_token for another audience, or an expired one', async () => {
    const otherAudience = await login('admin', { tamper: resigned((p) => void (p.aud = 'another-client')) });
    expect(errorOf(otherAudience.location)).toBe('invalid_id_token');
    const now = Math.floor(Date.now() / 1000);
    const expired = await login('admin', {
      tamper: resigned((p) => {
        p.iat = now - 7200;
        p.exp = now - 3600;
      }),
    });
    expect(errorOf(expired.location)).toBe('invalid_id_token');
    expect(expired.browser.cookie('KOMGA-SESSION')).toBeUndefined();
  });

  it('refuses an id_token carrying another nonce than the one Folio sent', async () => {
    const { location, browser } = await login('admin', {
      rewriteAuthorization: (url) => {
        const changed = new URL(url);
        changed.searchParams.set('nonce', 'attacker-chosen-nonce');
        return changed;
      },
    });
    expect(errorOf(location)).toBe('invalid_id_token');
    expect(browser.cookie('KOMGA-SESSION')).toBeUndefined();
  });

  it("refuses a callback without the browser's state cookie, or a state used twice", async () => {
    const noCookie = await login('admin', { beforeCallback: (browser) => browser.dropCookie('folio-oauth2-state') });
    expect(errorOf(noCookie.location)).toBe('invalid_state');
    expect(noCookie.browser.cookie('KOMGA-SESSION')).toBeUndefined();

    const once = await login('admin');
    expect(once.location).toBe('/?server_redirect=Y');
    const again = new FetchBrowser();
    const replay = await again.get(once.callback, { cookie: `folio-oauth2-state=${once.callback.searchParams.get('state')}` });
    expect(errorOf(replay.headers.get('location') ?? '')).toBe('invalid_state');
  });

  it('sends each failure to the login page as a code the web client says in words, and records a sentence it knows', async () => {
    // The login page showed every code but the Komga ones as sent ("Login failed: invalid_state"),
    // and the users screen the token failure's English ("Token exchange failed: …").
    const failures = [
      await login('admin', { beforeCallback: (browser) => browser.dropCookie('folio-oauth2-state') }),
      await login('admin', { tamper: resigned((p) => void (p.aud = 'another-client')) }),
      await login('admin', {
        beforeCallback: (_browser, callback) => {
          callback.searchParams.delete('code');
          callback.searchParams.set('error', 'access_denied');
        },
      }),
    ];
    // The Komga codes the tests above provoke (ERR_1025…ERR_1028) are read the same way; failed
    // OAuth2 callbacks are slowed down one after another, so this test provokes only the others.
    const codes = [...failures.map((failure) => errorOf(failure.location) ?? ''), 'ERR_1025', 'ERR_1026', 'ERR_1027', 'ERR_1028'];
    expect(codes.slice(0, 3)).toEqual(['invalid_state', 'invalid_id_token', 'access_denied']);
    const said = codes.map((code) => oauth2LoginError(code));
    for (const { key } of said) expect(keyExists(key), key).toBe(true);
    // Only the provider's own code is shown as sent, after "the provider refused".
    expect(said.filter((error) => error.params).map((error) => error.params?.reason)).toEqual(['access_denied']);
    const activity = await server.json<{ content: { source: string; success: boolean; error: string | null }[] }>(
      '/api/v2/users/authentication-activity?unpaged=true',
    );
    // Every failure the server recorded for this provider (this file's other tests add more kinds).
    const recorded = [...new Set(activity.content.filter((a) => a.source === 'OAuth2:local' && !a.success).map((a) => a.error ?? ''))];
    expect(recorded.length).toBeGreaterThanOrEqual(3);
    expect(recorded.some((error) => error.startsWith('Token exchange failed: '))).toBe(true);
    expect(recorded.filter((error) => activityErrorMessage(error) === undefined)).toEqual([]);
    for (const error of recorded) expect(keyExists(activityErrorMessage(error)!.key), error).toBe(true);
  }, 90_000);
});

function keyExists(key: string): boolean {
  let node: unknown = en;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string';
}
