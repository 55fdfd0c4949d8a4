import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_LIMITS, StoreLimitExceeded, checkClientSettings } from '../../../server/domain/store-limits.ts';
import { RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { send, setCookie } from './accounts-helpers.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * Bounds on every user-writable store (issue 10, item 6): a plain user stored 139 MB of client
 * settings in 1.6 s. Each store answers a clear 400 once its limit is reached.
 */
let server: TestServer;
let user: Record<string, string>;
let seriesId = '';
let bookId = '';

beforeAll(async () => {
  server = await startServer();
  await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
  user = { authorization: basic('reader@example.org', 'pw') };
  await createCbz(join(server.dir, 'lib', 'S', 'S 01.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  await addLibrary(server, join(server.dir, 'lib'));
  const books = await server.json<{ content: { id: string; seriesId: string }[] }>('/api/v1/books');
  bookId = books.content[0]!.id;
  seriesId = books.content[0]!.seriesId;
}, 60_000);

afterAll(async () => {
  await server.close();
});

const limits = STORE_LIMITS;

describe('client settings', () => {
  it('refuse an oversized value, too many keys and too many bytes per user', async () => {
    // Over the bound in characters: the request's schema (input-limits.ts); in bytes only: the store.
    const big = 'x'.repeat(limits.clientSettings.valueBytes + 1);
    const oversized = await send(server, 'PATCH', '/api/v1/client-settings/user', user, { huge: { value: big } });
    expect(oversized.statusCode).toBe(400);
    expect(oversized.json().message).toMatch(/more than 65536 characters/);
    const wide = 'é'.repeat(limits.clientSettings.valueBytes / 2 + 1);
    const overBytes = await send(server, 'PATCH', '/api/v1/client-settings/user', user, { huge: { value: wide } });
    expect(overBytes.statusCode).toBe(400);
    expect(overBytes.json().message).toMatch(/limited/);

    const many = Object.fromEntries(Array.from({ length: limits.clientSettings.keysPerScope + 1 }, (_, i) => [`k${i}`, { value: 'v' }]));
    expect((await send(server, 'PATCH', '/api/v1/client-settings/user', user, many)).statusCode).toBe(400);

    // Values just under the per-value limit until the per-user total is reached.
    const value = 'y'.repeat(limits.clientSettings.valueBytes - 100);
    const fit = Math.floor(limits.clientSettings.bytesPerScope / limits.clientSettings.valueBytes);
    for (let i = 0; i < fit; i++) {
      expect((await send(server, 'PATCH', '/api/v1/client-settings/user', user, { [`part${i}`]: { value } })).statusCode, `part ${i}`).toBe(204);
    }
    const over = await send(server, 'PATCH', '/api/v1/client-settings/user', user, { [`part${fit}`]: { value } });
    expect(over.statusCode).toBe(400);
    // Replacing an existing key with a value of the same size still fits.
    expect((await send(server, 'PATCH', '/api/v1/client-settings/user', user, { part0: { value } })).statusCode).toBe(204);
    const stored = await server.json<Record<string, unknown>>('/api/v1/client-settings/user/list', user);
    expect(Object.keys(stored)).toHaveLength(fit);
  });

  it('are bounded across all users together', () => {
    const almostFull = limits.clientSettings.bytesOverall - 10;
    expect(() => checkClientSettings(new Map(), [['k', 'v'.repeat(20)]], almostFull)).toThrow(StoreLimitExceeded);
    expect(() => checkClientSettings(new Map([['k', 'v'.repeat(20)]]), [['k', 'w'.repeat(20)]], almostFull)).not.toThrow();
  });
});

describe('API keys', () => {
  it('are limited in number and comment length', async () => {
    const long = await send(server, 'POST', '/api/v2/users/me/api-keys', user, { comment: 'c'.repeat(limits.apiKeys.commentLength + 1) });
    expect(long.statusCode).toBe(400);
    for (let i = 0; i < limits.apiKeys.perUser; i++) {
      expect((await send(server, 'POST', '/api/v2/users/me/api-keys', user, { comment: `key ${i}` })).statusCode).toBe(200);
    }
    const extra = await send(server, 'POST', '/api/v2/users/me/api-keys', user, { comment: 'one more' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toMatch(/At most/);
  });
});

describe('R2 progression', () => {
  it('refuses an oversized locator or device', async () => {
    const progression = (locator: object, device = { id: 'd', name: 'n' }) => ({ modified: '2026-01-01T00:00:00Z', device, locator });
    const base = { href: `/api/v1/books/${bookId}/pages/1`, type: 'image/png', locations: { position: 1 } };
    const padded = { ...base, text: { highlight: 'z'.repeat(limits.progression.locatorBytes) } };
    expect((await send(server, 'PUT', `/api/v1/books/${bookId}/progression`, user, progression(padded))).statusCode).toBe(400);
    const longDevice = { id: 'd'.repeat(limits.progression.deviceFieldLength + 1), name: 'n' };
    expect((await send(server, 'PUT', `/api/v1/books/${bookId}/progression`, user, progression(base, longDevice))).statusCode).toBe(400);
    expect((await send(server, 'PUT', `/api/v1/books/${bookId}/progression`, user, progression(base))).statusCode).toBe(204);
  });
});

describe('uploaded posters', () => {
  it('are limited per series', async () => {
    const png = await renderPage({ width: 8, height: 8, color: RED, format: 'png' });
    const boundary = '----poster-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = () =>
      server.app.inject({
        method: 'POST',
        url: `/api/v1/series/${seriesId}/thumbnails`,
        headers: { ...server.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
    for (let i = 0; i < limits.uploadedPosters.perItem; i++) expect((await upload()).statusCode, `upload ${i}`).toBe(200);
    const extra = await upload();
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toMatch(/At most/);
  });
});

describe('sessions', () => {
  it('a remember-me cookie alone opens a session per request, yet a user keeps at most perUser of them', async () => {
    await insertUser(server, 'sessions@example.org', 'pw', []);
    const login = await server.get('/api/v2/users/me?remember-me=true', { authorization: basic('sessions@example.org', 'pw') });
    const rememberMe = setCookie(login, 'komga-remember-me')!.value;
    // Each request without a session cookie logs in again from the remember-me cookie: no password check.
    const sessionFrom = async () => {
      const response = await server.get('/api/v2/users/me', { cookie: `komga-remember-me=${rememberMe}` });
      expect(response.statusCode).toBe(200);
      return setCookie(response, 'KOMGA-SESSION')!.value;
    };
    const oldest = await sessionFrom();
    const asSession = (id: string) => server.get('/api/v2/users/me', { cookie: `KOMGA-SESSION=${id}` }).then((r) => r.statusCode);
    expect(await asSession(oldest)).toBe(200);
    let newest = '';
    for (let i = 0; i < limits.sessions.perUser; i++) newest = await sessionFrom();
    // The least recently used sessions (the password login's, then `oldest`) made room.
    expect(await asSession(oldest)).toBe(401);
    expect(await asSession(newest)).toBe(200);
  });
});
