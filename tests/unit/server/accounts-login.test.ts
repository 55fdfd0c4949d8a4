import { afterEach, describe, expect, it } from 'vitest';
import { rotateRememberMeKey } from '../../../server/http/auth/remember-me.ts';
import { LoginThrottle } from '../../../server/http/auth/login-throttle.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { send, setCookie } from './accounts-helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('remember-me', () => {
  it('sets komga-remember-me on login with remember-me=true, and re-authenticates with it alone', async () => {
    server = await startServer();
    const plain = await server.get('/api/v2/users/me?remember-me=false');
    expect(setCookie(plain, 'komga-remember-me')).toBeUndefined();

    const login = await server.get('/api/v2/users/me?remember-me=true');
    const remember = setCookie(login, 'komga-remember-me')!;
    expect(remember.raw).toMatch(/HttpOnly/);
    expect(remember.raw).toMatch(/SameSite=Lax/);
    expect(remember.raw).toMatch(/Max-Age=31536000/);

    const silent = await server.get('/api/v2/users/me', { ...XHR, cookie: `komga-remember-me=${remember.value}` });
    expect(silent.statusCode).toBe(200);
    expect(silent.json().email).toBe(ADMIN_EMAIL);
    // A new session was opened for the browser to use from now on.
    const session = setCookie(silent, 'KOMGA-SESSION')!.value;
    expect((await server.get('/api/v2/users/me', { ...XHR, cookie: `KOMGA-SESSION=${session}` })).statusCode).toBe(200);

    const activity = await server.json<{ content: { source: string; success: boolean }[] }>('/api/v2/users/me/authentication-activity');
    expect(activity.content.some((a) => a.source === 'RememberMe' && a.success)).toBe(true);
  });

  it('rejects tampered tokens, tokens after key rotation or a password change; logout clears the cookie', async () => {
    server = await startServer();
    const id = await insertUser(server, 'reader@example.org', 'pw', []);
    const creds = { authorization: basic('reader@example.org', 'pw') };
    const token = setCookie(await server.get('/api/v2/users/me?remember-me=true', creds), 'komga-remember-me')!.value;
    const withToken = (t: string) => server!.get('/api/v2/users/me', { ...XHR, cookie: `komga-remember-me=${t}` });
    expect((await withToken(token)).statusCode).toBe(200);

    const decoded = Buffer.from(token, 'base64url').toString('utf8').split(':');
    const forged = Buffer.from(`${decoded[0]}:${Number(decoded[1]) + 1000}:${decoded[2]}`).toString('base64url');
    const rejected = await withToken(forged);
    expect(rejected.statusCode).toBe(401);
    expect(setCookie(rejected, 'komga-remember-me')?.value).toBe('');
    expect((await withToken('garbage')).statusCode).toBe(401);

    rotateRememberMeKey(server.app.folio.repos.serverSettings);
    expect((await withToken(token)).statusCode).toBe(401);

    const fresh = setCookie(await server.get('/api/v2/users/me?remember-me=true', creds), 'komga-remember-me')!.value;
    expect((await withToken(fresh)).statusCode).toBe(200);
    await send(server, 'PATCH', `/api/v2/users/${id}/password`, server.admin, { password: 'changed' });
    expect((await withToken(fresh)).statusCode).toBe(401);

    const admin = await server.get('/api/v2/users/me?remember-me=true');
    const logout = await send(server, 'POST', '/api/logout', {
      ...XHR,
      cookie: `KOMGA-SESSION=${setCookie(admin, 'KOMGA-SESSION')!.value}; komga-remember-me=${setCookie(admin, 'komga-remember-me')!.value}`,
    });
    expect(logout.statusCode).toBe(204);
    expect(setCookie(logout, 'komga-remember-me')?.value).toBe('');
    expect(setCookie(logout, 'KOMGA-SESSION')?.value).toBe('');
  });
});

describe('OAuth2 providers', () => {
  it('answers an empty list to anonymous callers (OAuth2 login is not offered)', async () => {
    server = await startServer();
    const response = await server.get('/api/v1/oauth2/providers', XHR);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });
});

describe('X-Auth-Token to cookie', () => {
  it('GET /api/v1/login/set-cookie answers 204 with a KOMGA-SESSION cookie for the token\'s session', async () => {
    server = await startServer();
    const token = (await server.get('/api/v2/users/me', { ...server.admin, 'x-auth-token': '' })).headers['x-auth-token'] as string;
    const exchanged = await server.get('/api/v1/login/set-cookie', { 'x-auth-token': token });
    expect(exchanged.statusCode).toBe(204);
    const cookie = setCookie(exchanged, 'KOMGA-SESSION')!;
    expect(Buffer.from(cookie.value, 'base64').toString('utf8')).toBe(token);
    expect(cookie.raw).toMatch(/HttpOnly/);
    expect((await server.get('/api/v2/users/me', { cookie: `KOMGA-SESSION=${cookie.value}` })).statusCode).toBe(200);
    expect((await server.get('/api/v1/login/set-cookie', { ...XHR, 'x-auth-token': 'bogus' })).statusCode).toBe(401);
  });

  // Komga writes the cookie of whatever session the call has (its HttpSession): web readers check
  // credentials with Basic on this path, and check a kept session with the cookie alone.
  it('answers 204 with the session cookie to a Basic call, and to a call with the cookie alone', async () => {
    server = await startServer();
    const withBasic = await server.get('/api/v1/login/set-cookie', { ...server.admin, ...XHR });
    expect(withBasic.statusCode, withBasic.body).toBe(204);
    const cookie = setCookie(withBasic, 'KOMGA-SESSION')!;
    expect(cookie.raw).toMatch(/HttpOnly/);
    const withCookie = await server.get('/api/v1/login/set-cookie', { ...XHR, cookie: `KOMGA-SESSION=${cookie.value}` });
    expect(withCookie.statusCode, withCookie.body).toBe(204);
    expect(setCookie(withCookie, 'KOMGA-SESSION')!.value).toBe(cookie.value);
    expect((await server.get('/api/v1/login/set-cookie', { ...XHR, cookie: 'KOMGA-SESSION=Ym9ndXM=' })).statusCode).toBe(401);
  });
});


describe('API keys', () => {
  it('creates a key shown once, lists it redacted, authenticates one request without a session, deletes it', async () => {
    server = await startServer();
    await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
    const reader = { authorization: basic('reader@example.org', 'pw') };
    const created = await send(server, 'POST', '/api/v2/users/me/api-keys', reader, { comment: 'Tablet' });
    expect(created.statusCode).toBe(200);
    const key = created.json();
    expect(key.key).toMatch(/^[0-9a-f]{64}$/);
    expect(key.comment).toBe('Tablet');
    // Not stored in the clear.
    const stored = server.app.folio.db.prepare('SELECT key_hash FROM api_key').pluck().get() as string;
    expect(stored).not.toContain(key.key);

    const duplicate = await send(server, 'POST', '/api/v2/users/me/api-keys', reader, { comment: 'tablet' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().message).toBe('ERR_1034');
    expect((await send(server, 'POST', '/api/v2/users/me/api-keys', reader, { comment: '' })).statusCode).toBe(400);

    const list = await server.json<{ id: string; key: string }[]>('/api/v2/users/me/api-keys', reader);
    expect(list).toHaveLength(1);
    expect(list[0]!.key).toBe('******');
    // Each user sees only their own keys.
    expect(await server.json<unknown[]>('/api/v2/users/me/api-keys')).toEqual([]);

    const sessionCount = () => server!.app.folio.db.prepare('SELECT COUNT(*) FROM session').pluck().get();
    const sessionsBefore = sessionCount();
    const withKey = await server.get('/api/v2/users/me', { 'x-api-key': key.key });
    expect(withKey.statusCode).toBe(200);
    expect(withKey.json().email).toBe('reader@example.org');
    expect(withKey.headers['set-cookie']).toBeUndefined();
    expect(withKey.headers['x-auth-token']).toBeUndefined();
    expect(sessionCount()).toBe(sessionsBefore);

    // A key cannot manage keys or passwords.
    expect((await server.get('/api/v2/users/me/api-keys', { 'x-api-key': key.key })).statusCode).toBe(403);
    expect((await send(server, 'PATCH', '/api/v2/users/me/password', { 'x-api-key': key.key }, { password: 'x' })).statusCode).toBe(403);

    const bad = await server.get('/api/v2/users/me', { 'x-api-key': 'wrong' });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).toBe('');
    expect(bad.headers['www-authenticate']).toBeUndefined();

    const latest = await server.json<{ source: string; apiKeyId: string; apiKeyComment: string }>(
      `/api/v2/users/${key.userId}/authentication-activity/latest?apikey_id=${key.id}`,
    );
    expect(latest).toMatchObject({ source: 'ApiKey', apiKeyId: key.id, apiKeyComment: 'Tablet' });

    expect((await send(server, 'DELETE', `/api/v2/users/me/api-keys/${key.id}`, reader)).statusCode).toBe(204);
    expect((await server.get('/api/v2/users/me', { 'x-api-key': key.key })).statusCode).toBe(401);
    expect(await server.json<unknown[]>('/api/v2/users/me/api-keys', reader)).toEqual([]);
  });
});

describe('authentication activity', () => {
  it('records password successes and failures with ip, user agent and source; paged and sortable', async () => {
    server = await startServer();
    const id = await insertUser(server, 'reader@example.org', 'pw', []);
    const agent = { 'user-agent': 'FolioTest/1.0' };
    await server.get('/api/v2/users/me', { ...agent, authorization: basic('reader@example.org', 'wrong') });
    await server.get('/api/v2/users/me', { ...agent, authorization: basic('reader@example.org', 'pw') });
    await server.get('/api/v2/users/me', { ...agent, authorization: basic('nobody@example.org', 'x') });

    const reader = { authorization: basic('reader@example.org', 'pw') };
    const mine = await server.json<{ content: Record<string, unknown>[]; totalElements: number }>('/api/v2/users/me/authentication-activity', reader);
    expect(mine.totalElements).toBe(2);
    // Newest first by default.
    expect(mine.content[0]).toMatchObject({ success: true, source: 'Password', userId: id, email: 'reader@example.org', userAgent: 'FolioTest/1.0', error: null });
    expect(mine.content[1]).toMatchObject({ success: false, source: 'Password', userId: null, email: 'reader@example.org', error: 'Bad credentials' });
    expect(mine.content[0]!.ip).toBeTruthy();
    expect(mine.content[0]!.dateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    expect((await server.get('/api/v2/users/authentication-activity', reader)).statusCode).toBe(403);
    const all = await server.json<{ content: { email: string; success: boolean }[]; totalElements: number; size: number }>(
      '/api/v2/users/authentication-activity?sort=email,asc&size=2&page=0',
    );
    expect(all.size).toBe(2);
    expect(all.content[0]!.email).toBe(ADMIN_EMAIL);
    expect(all.totalElements).toBeGreaterThanOrEqual(4);
    const bySuccess = await server.json<{ content: { success: boolean }[] }>('/api/v2/users/authentication-activity?sort=success,asc&unpaged=true');
    expect(bySuccess.content[0]!.success).toBe(false);
    expect(bySuccess.content.at(-1)!.success).toBe(true);

    // Every explicit login counts, even one repeated within the credentials cache's lifetime.
    const before = (await server.json<{ totalElements: number }>('/api/v2/users/me/authentication-activity', reader)).totalElements;
    await server.get('/api/v2/users/me', reader);
    await server.get('/api/v2/users/me', reader);
    expect((await server.json<{ totalElements: number }>('/api/v2/users/me/authentication-activity', reader)).totalElements).toBe(before + 2);

    const latest = await server.json<{ success: boolean }>(`/api/v2/users/${id}/authentication-activity/latest`, reader);
    expect(latest.success).toBe(true);
    const other = await insertUser(server, 'other@example.org', 'pw', []);
    expect((await server.get(`/api/v2/users/${other}/authentication-activity/latest`, reader)).statusCode).toBe(403);
    expect((await server.get(`/api/v2/users/${other}/authentication-activity/latest`)).statusCode).toBe(404);
  });
});

describe('brute-force slowdown', () => {
  it('delays attempts after a few failures, doubling up to a cap, and forgives after a quiet period', () => {
    const throttle = new LoginThrottle({ freeFailures: 3, baseDelayMs: 100, maxAddressDelayMs: 1000, maxAccountDelayMs: 500, quietPeriodMs: 60_000 });
    const t0 = 1_000_000;
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      delays.push(throttle.delayFor('1.2.3.4', 'a@b.c', t0 + i));
      throttle.failed('1.2.3.4', 'a@b.c', t0 + i);
    }
    expect(delays).toEqual([0, 0, 0, 100, 200, 400, 800, 1000]);
    // The account alone (from another address) is capped lower: attackers cannot lock its owner out.
    expect(throttle.delayFor('5.6.7.8', 'a@b.c', t0 + 10)).toBe(500);
    // The rightful login clears the account counter, not the attacker's address.
    throttle.succeeded('a@b.c');
    expect(throttle.delayFor('5.6.7.8', 'a@b.c', t0 + 11)).toBe(0);
    expect(throttle.delayFor('1.2.3.4', 'x@y.z', t0 + 11)).toBe(1000);
    // Forgiven after the quiet period.
    expect(throttle.delayFor('1.2.3.4', 'x@y.z', t0 + 8 + 60_001)).toBe(0);
  });

  it('slows repeated failures on the real server and notes it in the activity; the right password still works', async () => {
    server = await startServer();
    for (let i = 0; i < 5; i++) {
      const response = await server.get('/api/v2/users/me', { ...XHR, authorization: basic(ADMIN_EMAIL, `guess${i}`) });
      expect(response.statusCode).toBe(401);
    }
    expect((await server.get('/api/v2/users/me', { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) })).statusCode).toBe(200);
    const activity = await server.json<{ content: { success: boolean; error: string | null }[] }>('/api/v2/users/me/authentication-activity?unpaged=true');
    const failures = activity.content.filter((a) => !a.success);
    expect(failures).toHaveLength(5);
    expect(failures.filter((a) => /slowed down/.test(a.error ?? ''))).toHaveLength(2);
    expect(activity.content[0]!.success).toBe(true);
  });
});
