import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';
import { setCookie } from './accounts-helpers.ts';

/**
 * CSRF (issue 10, item 4): a page on another port of the same host (same site, so SameSite=Lax
 * sends the cookie) used to scan, empty the trash and shut the server down with text/plain POSTs.
 */
let server: TestServer;
let libraryId = '';
let cookie = '';
let apiKey = '';
let authToken = '';
const OWN = 'http://localhost';
const EVIL = 'http://localhost:8081';

beforeAll(async () => {
  server = await startServer();
  await createCbz(join(server.dir, 'lib', 'S', 'S 01.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  libraryId = (await addLibrary(server, join(server.dir, 'lib'))).id;
  const login = await server.get('/api/v2/users/me');
  cookie = `KOMGA-SESSION=${setCookie(login, 'KOMGA-SESSION')!.value}`;
  const key = await server.app.inject({ method: 'POST', url: '/api/v2/users/me/api-keys', headers: server.admin, payload: { comment: 'script' } });
  apiKey = key.json().key;
  const token = await server.get('/api/v2/users/me', { ...server.admin, 'x-auth-token': '' });
  authToken = String(token.headers['x-auth-token']);
}, 60_000);

afterAll(async () => {
  await server.close();
});

const scan = (headers: Record<string, string>, payload?: string) =>
  server.app.inject({ method: 'POST', url: `/api/v1/libraries/${libraryId}/scan`, headers, ...(payload === undefined ? {} : { payload }) });

describe('a cookie-authenticated state change', () => {
  it('from another origin or site is refused, with or without a body', async () => {
    const attacks: Record<string, string>[] = [
      { cookie, origin: EVIL },
      { cookie, origin: EVIL, 'sec-fetch-site': 'same-site' },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, origin: 'null' },
      // A browser sending neither Origin nor fetch metadata (a native client's User-Agent passes:
      // komga-compat-mihon-tracker.test.ts).
      { cookie, 'user-agent': 'Mozilla/5.0 (Windows NT 6.1; rv:52.0) Gecko/20100101 Firefox/52.0' },
      // An empty X-Auth-Token names no session: the cookie is still what the browser sent by itself.
      { cookie, 'x-auth-token': '', origin: EVIL },
    ];
    for (const headers of attacks) expect((await scan(headers)).statusCode, JSON.stringify(headers)).toBe(403);
    // What the attack sent: "simple" bodies that need no preflight.
    const textPlain = await scan({ cookie, origin: EVIL, 'content-type': 'text/plain' }, 'x');
    expect(textPlain.statusCode).toBe(403);
    const form = await scan({ cookie, 'sec-fetch-site': 'same-site', 'content-type': 'application/x-www-form-urlencoded' }, 'a=b');
    expect(form.statusCode).toBe(403);
  });

  it('includes GET /api/logout: a link or image on another site cannot log the user out', async () => {
    const login = await server.get('/api/v2/users/me?remember-me=true');
    const session = `KOMGA-SESSION=${setCookie(login, 'KOMGA-SESSION')!.value}`;
    const remembered = `komga-remember-me=${setCookie(login, 'komga-remember-me')!.value}`;
    const logout = (method: 'GET' | 'HEAD', headers: Record<string, string>) => server.app.inject({ method, url: '/api/logout', headers });
    // Before: each of these ended the session and revoked the remember-me cookie on every device.
    for (const elsewhere of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: EVIL }] as Record<string, string>[]) {
      expect((await logout('GET', { cookie: session, ...elsewhere })).statusCode, JSON.stringify(elsewhere)).toBe(403);
      expect((await logout('HEAD', { cookie: `${session}; ${remembered}`, ...elsewhere })).statusCode, JSON.stringify(elsewhere)).toBe(403);
      expect((await logout('GET', { cookie: remembered, ...elsewhere })).statusCode, JSON.stringify(elsewhere)).toBe(403);
    }
    expect((await server.get('/api/v2/users/me', { cookie: session })).statusCode).toBe(200);
    expect((await server.get('/api/v2/users/me', { cookie: remembered })).statusCode).toBe(200);
    // Folio's own pages, the address bar and native clients still log out with GET.
    expect((await logout('GET', { cookie: session, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(204);
    expect((await server.get('/api/v2/users/me', { cookie: session })).statusCode).toBe(401);
    expect((await logout('GET', { cookie: remembered, 'sec-fetch-site': 'none' })).statusCode).toBe(204);
    expect((await server.get('/api/v2/users/me', { cookie: remembered })).statusCode).toBe(401);
  });

  it('is refused for every admin action of the attack, shutdown included', async () => {
    for (const url of [`/api/v1/libraries/${libraryId}/analyze`, `/api/v1/libraries/${libraryId}/empty-trash`, '/actuator/shutdown', '/api/v1/libraries']) {
      const r = await server.app.inject({ method: 'POST', url, headers: { cookie, origin: EVIL } });
      expect(r.statusCode, url).toBe(403);
    }
    // Still running.
    expect((await server.get('/actuator/health', {})).statusCode).toBe(200);
  });

  it('from Folio’s own pages passes (X-Requested-With, same-origin fetch metadata, or own Origin)', async () => {
    expect((await scan({ cookie, 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(202);
    expect((await scan({ cookie, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(202);
    expect((await scan({ cookie, origin: OWN })).statusCode).toBe(202);
    // A body-less route still accepts an empty body whatever its declared type.
    expect((await scan({ cookie, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'text/plain' }, '')).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
  });
});

describe('credentials a browser does not send by itself', () => {
  it('API keys, X-Auth-Token and native Basic clients are unaffected', async () => {
    expect((await scan({ 'x-api-key': apiKey, origin: EVIL })).statusCode).toBe(202);
    expect((await scan({ 'x-auth-token': authToken })).statusCode).toBe(202);
    expect((await scan({ ...server.admin })).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
  });

  it('Basic credentials cached by a browser are refused from another site', async () => {
    expect((await scan({ ...server.admin, 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await scan({ ...server.admin, origin: EVIL })).statusCode).toBe(403);
  });
});
