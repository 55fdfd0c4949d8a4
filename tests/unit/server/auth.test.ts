import { afterEach, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../../server/http/auth/sessions.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cookieValue = (setCookie: string | string[] | undefined) => {
  const header = Array.isArray(setCookie) ? setCookie.find((c) => c.startsWith('KOMGA-SESSION=')) : setCookie;
  return header?.match(/^KOMGA-SESSION=([^;]*)/)?.[1];
};

describe('claim', () => {
  it('reports unclaimed, creates the admin with every role, then refuses a second claim', async () => {
    server = await startServer({ claim: false });
    expect((await server.get('/api/v1/claim', {})).json()).toEqual({ isClaimed: false });

    const claimed = await server.app.inject({
      method: 'POST',
      url: '/api/v1/claim',
      headers: { 'x-komga-email': 'Owner@Example.org', 'x-komga-password': 'pw' },
    });
    expect(claimed.statusCode).toBe(200);
    const user = claimed.json();
    expect(user.email).toBe('Owner@Example.org');
    expect(new Set(user.roles)).toEqual(new Set(['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC', 'USER']));
    // Present and null, as Jackson writes it: komga-client (Komelia) requires the key.
    expect(user).toHaveProperty('ageRestriction', null);
    expect((await server.get('/api/v1/claim', {})).json()).toEqual({ isClaimed: true });

    const again = await server.app.inject({
      method: 'POST',
      url: '/api/v1/claim',
      headers: { 'x-komga-email': 'other@example.org', 'x-komga-password': 'pw' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This server has already been claimed');
  });

  it('rejects a malformed email and a blank password with 400', async () => {
    server = await startServer({ claim: false });
    for (const headers of [
      { 'x-komga-email': 'not-an-email', 'x-komga-password': 'pw' },
      { 'x-komga-email': 'a@b.c', 'x-komga-password': '  ' },
    ]) {
      const response = await server.app.inject({ method: 'POST', url: '/api/v1/claim', headers });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, error: 'Bad Request', path: '/api/v1/claim' });
    }
    expect((await server.get('/api/v1/claim', {})).json()).toEqual({ isClaimed: false });
  });
});

describe('login and sessions', () => {
  it('logs in with Basic on /api/v2/users/me and then works with the session cookie alone', async () => {
    server = await startServer();
    const login = await server.get('/api/v2/users/me', { authorization: basic(ADMIN_EMAIL.toUpperCase(), ADMIN_PASSWORD) });
    expect(login.statusCode).toBe(200);
    expect(login.json().email).toBe(ADMIN_EMAIL);
    const setCookie = login.headers['set-cookie'] as string;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    const cookie = cookieValue(setCookie)!;
    // Cookie value is base64 of a 32-byte random id.
    const sessionId = Buffer.from(cookie, 'base64').toString('utf8');
    expect(Buffer.from(sessionId, 'base64url')).toHaveLength(32);

    const withCookie = await server.get('/api/v2/users/me', { cookie: `KOMGA-SESSION=${cookie}` });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.headers['set-cookie']).toBeUndefined();
  });

  it('keeps sessions in the database across a restart', async () => {
    const first = await startServer();
    const login = await first.get('/api/v2/users/me');
    const cookie = cookieValue(login.headers['set-cookie'])!;
    await first.app.close();
    server = await startServer({ claim: false, dir: first.dir });
    const again = await server.get('/api/v2/users/me', { cookie: `KOMGA-SESSION=${cookie}` });
    expect(again.statusCode).toBe(200);
    expect(again.json().email).toBe(ADMIN_EMAIL);
  });

  it('uses header mode when X-Auth-Token is sent: the new id comes back in the header, no cookie', async () => {
    server = await startServer();
    const login = await server.get('/api/v2/users/me', { ...server.admin, 'x-auth-token': '' });
    expect(login.statusCode).toBe(200);
    const token = login.headers['x-auth-token'] as string;
    expect(token).toBeTruthy();
    expect(login.headers['set-cookie']).toBeUndefined();
    const withToken = await server.get('/api/v2/users/me', { 'x-auth-token': token });
    expect(withToken.statusCode).toBe(200);
    expect((await server.get('/api/v2/users/me', { 'x-auth-token': 'bogus' })).statusCode).toBe(401);
  });

  it('expires a session after 7 days without use', async () => {
    server = await startServer();
    const login = await server.get('/api/v2/users/me');
    const cookie = cookieValue(login.headers['set-cookie'])!;
    server.app.folio.db.prepare('UPDATE session SET last_access = ?').run(Date.now() - 8 * 24 * 3600 * 1000);
    expect((await server.get('/api/v2/users/me', { cookie: `KOMGA-SESSION=${cookie}` })).statusCode).toBe(401);
  });

  it('remembers a found session for a moment, and forgets it on every change made through the session repository', async () => {
    server = await startServer();
    const cookie = cookieValue((await server.get('/api/v2/users/me')).headers['set-cookie'])!;
    const asCookie = { cookie: `KOMGA-SESSION=${cookie}` };
    expect((await server.get('/api/v2/users/me', asCookie)).statusCode).toBe(200);
    const sessions = server.app.folio.repos.sessions;
    const idHash = hashSessionId(Buffer.from(decodeURIComponent(cookie), 'base64').toString('utf8'));
    const found = sessions.find(idHash)!;
    expect(found).toBeDefined();
    // Answered from memory: a change made around the repository is not seen (the database is not asked).
    server.app.folio.db.prepare('UPDATE session SET last_access = 1 WHERE id_hash = ?').run(idHash);
    expect(sessions.find(idHash)?.lastAccess).toBe(found.lastAccess);
    // Changes made through it are seen at once.
    sessions.touch(idHash, found.lastAccess + 1);
    expect(sessions.find(idHash)?.lastAccess).toBe(found.lastAccess + 1);
    // A revocation of the user's sessions (password or role change) ends this one on the next request.
    sessions.deleteForUser(found.userId);
    expect(sessions.find(idHash)).toBeUndefined();
    expect((await server.get('/api/v2/users/me', asCookie)).statusCode).toBe(401);
  });

  it('logs out: 204, session gone, cookie cleared', async () => {
    server = await startServer();
    const cookie = cookieValue((await server.get('/api/v2/users/me')).headers['set-cookie'])!;
    const logout = await server.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: `KOMGA-SESSION=${cookie}`, 'x-requested-with': 'XMLHttpRequest' } });
    expect(logout.statusCode).toBe(204);
    expect(String(logout.headers['set-cookie'])).toMatch(/KOMGA-SESSION=;/);
    expect((await server.get('/api/v2/users/me', { cookie: `KOMGA-SESSION=${cookie}` })).statusCode).toBe(401);
  });
});

describe('401 and 403', () => {
  it('answers XHR callers with a bare 401 and others with a Basic challenge and JSON', async () => {
    server = await startServer();
    const xhr = await server.get('/api/v1/libraries', { 'x-requested-with': 'XMLHttpRequest' });
    expect(xhr.statusCode).toBe(401);
    expect(xhr.body).toBe('');
    expect(xhr.headers['www-authenticate']).toBeUndefined();

    const plain = await server.get('/api/v1/libraries', {});
    expect(plain.statusCode).toBe(401);
    expect(plain.headers['www-authenticate']).toBe('Basic realm="Realm"');
    expect(plain.json()).toMatchObject({ status: 401, error: 'Unauthorized', path: '/api/v1/libraries' });

    const wrong = await server.get('/api/v2/users/me', { authorization: basic(ADMIN_EMAIL, 'nope') });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('forbids library creation without ADMIN', async () => {
    server = await startServer();
    await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
    const reader = { authorization: basic('reader@example.org', 'pw') };
    const me = await server.json<{ roles: string[] }>('/api/v2/users/me', reader);
    expect(me.roles.sort()).toEqual(['PAGE_STREAMING', 'USER']);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/libraries',
      headers: reader,
      payload: { name: 'x', root: server.dir },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().status).toBe(403);
  });
});
