import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/http/app.ts';
import { hashPassword } from '../../../server/http/auth/passwords.ts';
import { newId } from '../../../server/db/ids.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';

/**
 * Sessions (issue 10, item 8) on a listening server: logout revokes remember-me; changing one's
 * password asks for the current one and ends the other sessions; role, restriction and account
 * changes, deletion and logout end that user's event streams.
 */
let app: FastifyInstance;
let dir: string;
let base: string;
const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const admin = { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD), ...XHR };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-sessions-'));
  app = await buildApp({ dataDir: join(dir, 'data'), clientDir: join(dir, 'none'), sseHeartbeatMs: 50, logLevel: 'warn' });
  await app.inject({ method: 'POST', url: '/api/v1/claim', headers: { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function addUser(email: string, password: string, roles: string[]): Promise<string> {
  const now = Date.now();
  const id = newId(now);
  app.folio.repos.users.insert({
    id, email, passwordHash: await hashPassword(password), roles, sharedAllLibraries: true, sharedLibraryIds: [],
    labelsAllow: [], labelsExclude: [], ageRestriction: null, ageRestrictionType: null, created: now, lastModified: now,
  });
  return id;
}

/** Logs in with Basic and returns the cookies the server set (session, and remember-me when asked). */
async function logIn(email: string, password: string, rememberMe = false): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/v2/users/me${rememberMe ? '?remember-me=true' : ''}`, { headers: { authorization: basic(email, password), ...XHR } });
  expect(response.status).toBe(200);
  const cookies: Record<string, string> = {};
  for (const c of response.headers.getSetCookie()) {
    const [pair = ''] = c.split(';');
    const at = pair.indexOf('=');
    cookies[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return cookies;
}
const cookieHeader = (cookies: Record<string, string>) => ({ cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; '), ...XHR });
const me = (headers: Record<string, string>) => fetch(`${base}/api/v2/users/me`, { headers }).then((r) => r.status);
const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${base}${path}`, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

/** An open event stream; `ended` resolves when the server closes it. */
async function openStream(headers: Record<string, string>) {
  const response = await fetch(`${base}/sse/v1/events`, { headers });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += new TextDecoder().decode(value);
    }
  })();
  return { ended, text: () => text };
}

describe('logout', () => {
  it('revokes the remember-me cookie, even a copy of it', async () => {
    await addUser('reader@example.org', 'pw', []);
    const cookies = await logIn('reader@example.org', 'pw', true);
    const remembered = cookies['komga-remember-me']!;
    expect(remembered).toBeTruthy();
    expect(await me({ cookie: `komga-remember-me=${remembered}`, ...XHR })).toBe(200);
    expect((await call('POST', '/api/logout', cookieHeader(cookies))).status).toBe(204);
    expect(await me({ cookie: `komga-remember-me=${remembered}`, ...XHR })).toBe(401);
  });

  it('with only the remember-me cookie left, still revokes it', async () => {
    await addUser('reader@example.org', 'pw', []);
    const remembered = (await logIn('reader@example.org', 'pw', true))['komga-remember-me']!;
    const copy = { cookie: `komga-remember-me=${remembered}`, ...XHR };
    expect((await call('POST', '/api/logout', copy)).status).toBe(204);
    expect(await me(copy)).toBe(401);
  });
});

describe('changing one’s own password', () => {
  it('needs the current password and ends every other session and remember-me cookie', async () => {
    const id = await addUser('reader@example.org', 'old', []);
    const here = await logIn('reader@example.org', 'old');
    const elsewhere = await logIn('reader@example.org', 'old', true);
    const token = (await fetch(`${base}/api/v2/users/me`, { headers: { authorization: basic('reader@example.org', 'old'), 'x-auth-token': '', ...XHR } })).headers.get('x-auth-token')!;
    // Signed in more than ten minutes ago (a session just signed in may change it without: accounts-users.test.ts).
    app.folio.db.prepare('UPDATE session SET created = created - ? WHERE user_id = ?').run(11 * 60_000, id);

    const missing = await call('PATCH', '/api/v2/users/me/password', cookieHeader(here), { password: 'new' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { violations: { fieldName: string }[] }).violations.map((v) => v.fieldName)).toEqual(['currentPassword']);
    expect((await call('PATCH', '/api/v2/users/me/password', cookieHeader(here), { password: 'new', currentPassword: 'wrong' })).status).toBe(400);
    expect(await me({ authorization: basic('reader@example.org', 'old'), ...XHR })).toBe(200);

    expect((await call('PATCH', '/api/v2/users/me/password', cookieHeader(here), { password: 'new', currentPassword: 'old' })).status).toBe(204);
    expect(await me(cookieHeader(here))).toBe(200);
    expect(await me({ cookie: `KOMGA-SESSION=${elsewhere['KOMGA-SESSION']}`, ...XHR })).toBe(401);
    expect(await me({ cookie: `komga-remember-me=${elsewhere['komga-remember-me']}`, ...XHR })).toBe(401);
    expect(await me({ 'x-auth-token': token, ...XHR })).toBe(401);
  });

  it('over Basic (Komga’s apps) the credentials of the request are the proof', async () => {
    await addUser('reader@example.org', 'old', []);
    const response = await call('PATCH', '/api/v2/users/me/password', { authorization: basic('reader@example.org', 'old') }, { password: 'new' });
    expect(response.status).toBe(204);
    expect(await me({ authorization: basic('reader@example.org', 'new'), ...XHR })).toBe(200);
  });
});

describe('event streams end when their access changes', () => {
  it('a stream opened with a session is told SessionExpired before it ends, though the session is already gone', async () => {
    const id = await addUser('reader@example.org', 'pw', []);
    const stream = await openStream(cookieHeader(await logIn('reader@example.org', 'pw')));
    expect((await call('PATCH', `/api/v2/users/${id}/password`, admin, { password: 'new' })).status).toBe(204);
    // Before: the session was deleted first and the stream, checking it, ended without a word.
    expect(await stream.ended).toContain(`event:SessionExpired\ndata:${JSON.stringify({ userId: id })}`);
  });

  it('a demoted admin’s stream ends (no admin-only event after)', async () => {
    const id = await addUser('other-admin@example.org', 'pw', ['ADMIN']);
    const stream = await openStream(cookieHeader(await logIn('other-admin@example.org', 'pw')));
    expect((await call('PATCH', `/api/v2/users/${id}`, admin, { roles: [] })).status).toBe(204);
    const text = await stream.ended;
    const afterDemotion = text.slice(text.lastIndexOf('SessionExpired'));
    expect(afterDemotion).not.toContain('TaskQueueStatus');
  });

  it('a deleted user’s stream ends', async () => {
    const id = await addUser('reader@example.org', 'pw', []);
    const stream = await openStream({ authorization: basic('reader@example.org', 'pw'), ...XHR });
    expect((await call('DELETE', `/api/v2/users/${id}`, admin)).status).toBe(204);
    await stream.ended;
  });

  it('a restriction change ends the stream', async () => {
    const id = await addUser('reader@example.org', 'pw', []);
    const stream = await openStream({ authorization: basic('reader@example.org', 'pw'), ...XHR });
    expect((await call('PATCH', `/api/v2/users/${id}`, admin, { labelsExclude: ['adult'] })).status).toBe(204);
    await stream.ended;
  });

  it('deleting the API key a stream was opened with ends it (before: it went on receiving events)', async () => {
    await addUser('reader@example.org', 'pw', []);
    const cookies = cookieHeader(await logIn('reader@example.org', 'pw'));
    const created = await call('POST', '/api/v2/users/me/api-keys', cookies, { comment: 'e-reader' });
    const key = (await created.json()) as { id: string; key: string };
    const stream = await openStream({ 'x-api-key': key.key });
    expect((await call('DELETE', `/api/v2/users/me/api-keys/${key.id}`, cookies)).status).toBe(204);
    await stream.ended;
  });

  it('logging out ends the stream of that session', async () => {
    await addUser('reader@example.org', 'pw', []);
    const cookies = await logIn('reader@example.org', 'pw');
    const stream = await openStream(cookieHeader(cookies));
    expect((await call('POST', '/api/logout', cookieHeader(cookies))).status).toBe(204);
    await stream.ended;
  });
});
