import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, startServer, type TestServer } from './helpers.ts';
import { setCookie } from './accounts-helpers.ts';
import { MAX_PENDING, PendingLogins } from '../../../server/http/auth/pending-logins.ts';

/**
 * Plain OAuth2 providers (endpoints configured, no discovery, no id_token checks) against a
 * hand-made provider on a local port: the test plays the browser (follows the redirect, "approves"
 * at the provider by choosing the claims the code stands for). OpenID providers are tested against
 * a real provider in accounts-oidc.test.ts.
 */
let provider: FastifyInstance;
let server: TestServer;
let dir: string;
/** code → { claims the userinfo endpoint returns, PKCE challenge the token call must satisfy } */
const grants = new Map<string, { claims: Record<string, unknown>; challenge: string; redirectUri: string }>();
const tokens = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  provider = Fastify();
  provider.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  provider.post('/token', async (request, reply) => {
    const body = request.body as Record<string, string>;
    const grant = grants.get(body.code ?? '');
    grants.delete(body.code ?? '');
    const verifierOk = grant && createHash('sha256').update(body.code_verifier ?? '').digest('base64url') === grant.challenge;
    if (!grant || !verifierOk || body.client_id !== 'folio' || body.client_secret !== 's3cret' || body.redirect_uri !== grant.redirectUri) {
      return reply.code(400).send({ error: 'invalid_grant' });
    }
    const token = `t-${Math.random()}`;
    tokens.set(token, grant.claims);
    // Some plain providers send an id_token anyway; with no issuer or keys configured it must be ignored.
    return { access_token: token, token_type: 'Bearer', id_token: 'not.a-verifiable.token' };
  });
  provider.get('/userinfo', async (request, reply) => {
    const claims = tokens.get(String(request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!claims) return reply.code(401).send();
    return claims;
  });
  await provider.listen({ port: 0, host: '127.0.0.1' });
  const address = provider.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  dir = await mkdtemp(join(tmpdir(), 'folio-oauth2-'));
  await mkdir(join(dir, 'data'), { recursive: true });
  await writeFile(
    join(dir, 'data', 'oauth2-providers.json'),
    JSON.stringify([
      {
        registrationId: 'fake',
        name: 'Fake ID',
        clientId: 'folio',
        clientSecret: 's3cret',
        authorizationUri: `${base}/authorize`,
        tokenUri: `${base}/token`,
        userInfoUri: `${base}/userinfo`,
      },
      {
        registrationId: 'forge',
        clientId: 'folio',
        clientSecret: 's3cret',
        oidc: false,
        authorizationUri: `${base}/authorize`,
        tokenUri: `${base}/token`,
        userInfoUri: `${base}/userinfo`,
      },
      { registrationId: 'broken' },
      { registrationId: 'half', clientId: 'x', authorizationUri: `${base}/authorize` },
    ]),
  );
  server = await startServer({ dir });
});

afterAll(async () => {
  await server.close();
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs one login: returns the callback response. `claims` = what the user is at the provider. */
async function loginWith(claims: Record<string, unknown>, registrationId = 'fake') {
  return (await startLogin(registrationId)).finish(claims);
}

/** Sends the browser to the provider (from `remoteAddress`); `finish` comes back with a code for `claims`. */
async function startLogin(registrationId = 'fake', remoteAddress = '127.0.0.1') {
  const start = await server.app.inject({ method: 'GET', url: `/oauth2/authorization/${registrationId}`, remoteAddress });
  expect(start.statusCode).toBe(302);
  const location = new URL(String(start.headers.location));
  expect(location.pathname).toBe('/authorize');
  expect(location.searchParams.get('code_challenge_method')).toBe('S256');
  expect(location.searchParams.get('client_id')).toBe('folio');
  const state = location.searchParams.get('state')!;
  const redirectUri = location.searchParams.get('redirect_uri')!;
  expect(location.searchParams.has('nonce')).toBe(false);
  expect(new URL(redirectUri).pathname).toBe(`/login/oauth2/code/${registrationId}`);
  const stateCookie = setCookie(start, 'folio-oauth2-state')!;
  expect(stateCookie.value).toBe(state);
  expect(stateCookie.raw).toMatch(/HttpOnly/);

  const finish = (claims: Record<string, unknown>) => {
    const code = `code-${Math.random()}`;
    grants.set(code, { claims, challenge: location.searchParams.get('code_challenge')!, redirectUri });
    return server.app.inject({
      method: 'GET',
      url: `/login/oauth2/code/${registrationId}?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
      headers: { cookie: `folio-oauth2-state=${state}` },
      remoteAddress,
    });
  };
  return { finish };
}

const errorOf = (location: unknown) => new URL(String(location), 'http://x').searchParams.get('error');

describe('OAuth2 login with a plain provider', () => {
  it('lists configured providers to anonymous callers, skipping malformed entries', async () => {
    const response = await server.get('/api/v1/oauth2/providers', { 'x-requested-with': 'XMLHttpRequest' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { name: 'Fake ID', registrationId: 'fake' },
      { name: 'forge', registrationId: 'forge' },
    ]);
    expect((await server.get('/oauth2/authorization/nope', {})).statusCode).toBe(404);
  });

  it('logs an existing user in with a verified email: session cookie, redirect, activity', async () => {
    const response = await loginWith({ email: ADMIN_EMAIL.toUpperCase(), email_verified: true });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/?server_redirect=Y');
    const session = setCookie(response, 'KOMGA-SESSION')!.value;
    const me = await server.get('/api/v2/users/me', { cookie: `KOMGA-SESSION=${session}` });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(ADMIN_EMAIL);
    const activity = await server.json<{ content: { source: string; success: boolean }[] }>('/api/v2/users/me/authentication-activity');
    expect(activity.content.some((a) => a.source === 'OAuth2:fake' && a.success)).toBe(true);
  });

  it('refuses unknown users and missing emails with the catalogue codes, OIDC rules only where asked', async () => {
    expect(errorOf((await loginWith({ email: 'stranger@example.org', email_verified: true })).headers.location)).toBe('ERR_1025');
    expect(errorOf((await loginWith({ email: ADMIN_EMAIL, email_verified: false })).headers.location)).toBe('ERR_1026');
    const noEmail = await loginWith({ sub: '123', email_verified: true });
    expect(noEmail.headers.location).toBe('/login?server_redirect=Y&error=ERR_1028');
    expect(setCookie(noEmail, 'KOMGA-SESSION')).toBeUndefined();
    // `oidc: false`: no email_verified needed, and a missing email is ERR_1024.
    const plain = await loginWith({ login: 'admin', email: ADMIN_EMAIL }, 'forge');
    expect(plain.headers.location).toBe('/?server_redirect=Y');
    expect(errorOf((await loginWith({ login: 'someone' }, 'forge')).headers.location)).toBe('ERR_1024');
  });
});

describe('logins in progress', () => {
  it("survive a flood of started logins from another address, which only pushes out the flood's own", async () => {
    const victim = await startLogin('fake', '198.51.100.7');
    // One attacker with a /64 starts more logins than the whole store holds, from a new address each time.
    for (let i = 0; i < MAX_PENDING + 50; i++) {
      const r = await server.app.inject({ method: 'GET', url: '/oauth2/authorization/fake', remoteAddress: `2001:db8:1:2::${i.toString(16)}` });
      expect(r.statusCode).toBe(302);
    }
    // Before: the store was cleared past 10,000 entries and this came back with invalid_state.
    const done = await victim.finish({ email: ADMIN_EMAIL, email_verified: true });
    expect(done.headers.location).toBe('/?server_redirect=Y');
  }, 120_000);
});

describe('the pending-login store', () => {
  const login = { registrationId: 'fake', codeVerifier: 'v', redirectUri: 'http://folio/cb' };

  it('keeps at most a few logins per address (IPv6 by /64), dropping that address\'s oldest', () => {
    const pending = new PendingLogins({ perAddress: 3, total: 100 });
    pending.add('other', login, '203.0.113.9');
    for (let i = 0; i < 5; i++) pending.add(`s${i}`, login, `2001:db8::${i + 1}`);
    expect(pending.size).toBe(4);
    expect(pending.take('s0')).toBeUndefined();
    expect(pending.take('s1')).toBeUndefined();
    expect(pending.take('s4')?.registrationId).toBe('fake');
    expect(pending.take('other')?.registrationId).toBe('fake');
    // A dual-stack socket's IPv4-mapped address is the same address as its IPv4 form.
    for (let i = 0; i < 4; i++) pending.add(`m${i}`, login, i % 2 ? '192.0.2.1' : '::ffff:192.0.2.1');
    expect(pending.take('m0')).toBeUndefined();
    expect(pending.take('m3')).toBeDefined();
  });

  it('when full, drops the oldest login of the address holding the most, not a lone user\'s', () => {
    const pending = new PendingLogins({ perAddress: 5, total: 6 });
    pending.add('lone', login, '203.0.113.1');
    pending.add('pair-1', login, '203.0.113.2');
    pending.add('pair-2', login, '203.0.113.2');
    for (let i = 0; i < 6; i++) pending.add(`flood-${i}`, login, '198.51.100.1');
    expect(pending.size).toBe(6);
    expect(pending.take('lone')).toBeDefined();
    expect(pending.take('pair-1')).toBeDefined();
    expect(pending.take('pair-2')).toBeDefined();
    expect(pending.take('flood-0')).toBeUndefined();
    expect(pending.take('flood-5')).toBeDefined();
  });

  it('forgets expired logins and hands each state out once', () => {
    const pending = new PendingLogins();
    pending.add('old', login, '203.0.113.1', 0);
    expect(pending.take('old', 10 * 60_000 + 1)).toBeUndefined();
    pending.add('a', login, '203.0.113.1', 0);
    pending.add('b', login, '203.0.113.1', 10 * 60_000 + 1);
    expect(pending.size).toBe(1);
    expect(pending.take('b', 10 * 60_000 + 2)).toBeDefined();
    expect(pending.take('b', 10 * 60_000 + 2)).toBeUndefined();
  });
});
