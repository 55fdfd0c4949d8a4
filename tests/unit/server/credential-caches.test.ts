import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { send, setCookie } from './accounts-helpers.ts';

/*
 * Every request presents a session or an API key, so the server remembers what it looked up (the
 * session, the key, the user) for a few seconds instead of reading the database each time. What
 * that must never do: let a credential in after it was revoked, or answer with the caller's old
 * roles. Each case below uses the credential first (so it is remembered), changes it, and asks
 * again at once, well within the time anything is remembered.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const admin = { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD), ...XHR };

async function withReader(): Promise<{ s: TestServer; id: string; reader: Record<string, string> }> {
  const s = (server = await startServer());
  const id = await insertUser(s, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
  return { s, id, reader: { authorization: basic('reader@example.org', 'pw'), ...XHR } };
}

/** A new API key of the reader. */
async function newKey(s: TestServer, reader: Record<string, string>, comment: string): Promise<Record<string, string>> {
  const created = await send(s, 'POST', '/api/v2/users/me/api-keys', reader, { comment });
  expect(created.statusCode).toBe(200);
  const { key, id } = created.json<{ key: string; id: string }>();
  return { 'x-api-key': key, 'key-id': id };
}

/** A session cookie of the reader, opened by signing in. */
async function newSession(s: TestServer): Promise<Record<string, string>> {
  const login = await s.get('/api/v2/users/me', { authorization: basic('reader@example.org', 'pw'), ...XHR });
  expect(login.statusCode).toBe(200);
  return { cookie: `KOMGA-SESSION=${setCookie(login, 'KOMGA-SESSION')!.value}`, ...XHR };
}

const me = (s: TestServer, headers: Record<string, string>) => s.get('/api/v2/users/me', headers);
const rolesOf = async (s: TestServer, headers: Record<string, string>) => (await me(s, headers)).json<{ roles: string[] }>().roles;

describe('a remembered API key', () => {
  it('fails on the very next request once deleted, while another key of the user still works', async () => {
    const { s, reader } = await withReader();
    const one = await newKey(s, reader, 'Tablet');
    const other = await newKey(s, reader, 'Phone');
    expect((await me(s, { 'x-api-key': one['x-api-key']! })).statusCode).toBe(200);
    expect((await me(s, { 'x-api-key': other['x-api-key']! })).statusCode).toBe(200);
    expect((await send(s, 'DELETE', `/api/v2/users/me/api-keys/${one['key-id']}`, reader)).statusCode).toBe(204);
    expect((await me(s, { 'x-api-key': one['x-api-key']! })).statusCode).toBe(401);
    expect((await me(s, { 'x-api-key': other['x-api-key']! })).statusCode).toBe(200);
  });

  it('fails on the very next request once its user is deleted', async () => {
    const { s, id, reader } = await withReader();
    const key = { 'x-api-key': (await newKey(s, reader, 'Tablet'))['x-api-key']! };
    expect((await me(s, key)).statusCode).toBe(200);
    expect((await send(s, 'DELETE', `/api/v2/users/${id}`, admin)).statusCode).toBe(204);
    expect((await me(s, key)).statusCode).toBe(401);
  });

  it('carries the user’s new roles on the very next request', async () => {
    const { s, id, reader } = await withReader();
    const key = { 'x-api-key': (await newKey(s, reader, 'Tablet'))['x-api-key']! };
    expect(await rolesOf(s, key)).toContain('PAGE_STREAMING');
    expect((await send(s, 'PATCH', `/api/v2/users/${id}`, admin, { roles: ['FILE_DOWNLOAD'] })).statusCode).toBe(204);
    const roles = await rolesOf(s, key);
    expect(roles).toContain('FILE_DOWNLOAD');
    expect(roles).not.toContain('PAGE_STREAMING');
  });
});

describe('a remembered session', () => {
  it('ends on the very next request when its user changes their password from another session', async () => {
    const { s } = await withReader();
    const here = await newSession(s);
    const elsewhere = await newSession(s);
    expect((await me(s, elsewhere)).statusCode).toBe(200);
    // A session just opened by signing in may change the password without giving the current one.
    expect((await send(s, 'PATCH', '/api/v2/users/me/password', here, { password: 'new' })).statusCode).toBe(204);
    expect((await me(s, here)).statusCode).toBe(200);
    expect((await me(s, elsewhere)).statusCode).toBe(401);
  });

  it('ends on the very next request when an admin resets the password, logs it out or deletes the user', async () => {
    const { s, id } = await withReader();
    const reset = await newSession(s);
    expect((await me(s, reset)).statusCode).toBe(200);
    expect((await send(s, 'PATCH', `/api/v2/users/${id}/password`, admin, { password: 'pw' })).statusCode).toBe(204);
    expect((await me(s, reset)).statusCode).toBe(401);

    const loggedOut = await newSession(s);
    expect((await me(s, loggedOut)).statusCode).toBe(200);
    expect((await send(s, 'POST', '/api/logout', loggedOut)).statusCode).toBe(204);
    expect((await me(s, loggedOut)).statusCode).toBe(401);

    const deleted = await newSession(s);
    expect((await me(s, deleted)).statusCode).toBe(200);
    expect((await send(s, 'DELETE', `/api/v2/users/${id}`, admin)).statusCode).toBe(204);
    expect((await me(s, deleted)).statusCode).toBe(401);
  });

  it('carries the user’s new roles on the very next request', async () => {
    const { s, id } = await withReader();
    const session = await newSession(s);
    expect(await rolesOf(s, session)).toContain('PAGE_STREAMING');
    expect((await send(s, 'PATCH', `/api/v2/users/${id}`, admin, { roles: ['FILE_DOWNLOAD'] })).statusCode).toBe(204);
    // A role change ends the user's sessions, as Komga expires them; the user signs in again with the new roles.
    expect((await me(s, session)).statusCode).toBe(401);
    const roles = await rolesOf(s, await newSession(s));
    expect(roles).toContain('FILE_DOWNLOAD');
    expect(roles).not.toContain('PAGE_STREAMING');
  });
});
