import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let reader: Record<string, string>;
let readerId: string;

beforeAll(async () => {
  server = await startServer();
  readerId = await insertUser(server, 'reader@example.org', 'reader-password', []);
  reader = { authorization: basic('reader@example.org', 'reader-password') };
});
afterAll(async () => {
  await server.close();
});

const send = (method: 'PATCH' | 'DELETE', url: string, payload: unknown, headers: Record<string, string> = server.admin) =>
  server.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

describe('global client settings', () => {
  it('lets an admin save settings, shows all to users and only allowUnauthorized ones to anonymous callers', async () => {
    const saved = await send('PATCH', '/api/v1/client-settings/global', {
      'webui.oauth2.hide_login': { value: 'true', allowUnauthorized: true },
      'webui.poster.stretch': { value: 'false', allowUnauthorized: false },
    });
    expect(saved.statusCode).toBe(204);

    expect(await server.json('/api/v1/client-settings/global/list', reader)).toEqual({
      'webui.oauth2.hide_login': { value: 'true', allowUnauthorized: true },
      'webui.poster.stretch': { value: 'false', allowUnauthorized: false },
    });
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/v1/client-settings/global/list' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ 'webui.oauth2.hide_login': { value: 'true', allowUnauthorized: true } });
  });

  it('overwrites a key, deletes keys, and refuses non-admins and malformed bodies', async () => {
    expect((await send('PATCH', '/api/v1/client-settings/global', { 'webui.poster.stretch': { value: 'true', allowUnauthorized: true } })).statusCode).toBe(204);
    expect((await server.json<Record<string, unknown>>('/api/v1/client-settings/global/list'))['webui.poster.stretch']).toEqual({ value: 'true', allowUnauthorized: true });

    expect((await send('PATCH', '/api/v1/client-settings/global', { x: { value: '1', allowUnauthorized: false } }, reader)).statusCode).toBe(403);
    expect((await send('DELETE', '/api/v1/client-settings/global', ['webui.poster.stretch'], reader)).statusCode).toBe(403);
    for (const body of [{ x: { value: null, allowUnauthorized: true } }, { x: 'v' }, ['x'], { x: {} }, { x: { value: {} } }]) {
      expect((await send('PATCH', '/api/v1/client-settings/global', body)).statusCode, JSON.stringify(body)).toBe(400);
    }

    expect((await send('DELETE', '/api/v1/client-settings/global', ['webui.poster.stretch', 'never.set'])).statusCode).toBe(204);
    expect(Object.keys(await server.json('/api/v1/client-settings/global/list'))).toEqual(['webui.oauth2.hide_login']);
  });

  // Komga reads allowUnauthorized into a Kotlin Boolean: absent or null is false (Jackson's default
  // for a primitive, jackson-module-kotlin#161), not a 400.
  it('takes a missing or null allowUnauthorized as false', async () => {
    const saved = await send('PATCH', '/api/v1/client-settings/global', { 'lenient.a': { value: 'v' }, 'lenient.b': { value: 'w', allowUnauthorized: null } });
    expect(saved.statusCode, saved.body).toBe(204);
    const list = await server.json<Record<string, unknown>>('/api/v1/client-settings/global/list');
    expect([list['lenient.a'], list['lenient.b']]).toEqual([{ value: 'v', allowUnauthorized: false }, { value: 'w', allowUnauthorized: false }]);
    expect((await send('DELETE', '/api/v1/client-settings/global', ['lenient.a', 'lenient.b'])).statusCode).toBe(204);
  });

  it('needs authentication for writes', async () => {
    const response = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/client-settings/global',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('user client settings', () => {
  it('keeps each user their own settings, without allowUnauthorized', async () => {
    expect(await server.json('/api/v1/client-settings/user/list', reader)).toEqual({});
    expect((await send('PATCH', '/api/v1/client-settings/user', { 'webui.libraries': { value: '{"a":{"order":1}}' } }, reader)).statusCode).toBe(204);
    expect((await send('PATCH', '/api/v1/client-settings/user', { 'webui.libraries': { value: '{}' } })).statusCode).toBe(204);

    expect(await server.json('/api/v1/client-settings/user/list', reader)).toEqual({ 'webui.libraries': { value: '{"a":{"order":1}}' } });
    expect(await server.json('/api/v1/client-settings/user/list')).toEqual({ 'webui.libraries': { value: '{}' } });

    expect((await send('DELETE', '/api/v1/client-settings/user', ['webui.libraries'], reader)).statusCode).toBe(204);
    expect(await server.json('/api/v1/client-settings/user/list', reader)).toEqual({});
    expect(await server.json('/api/v1/client-settings/user/list')).toEqual({ 'webui.libraries': { value: '{}' } });
    expect((await send('PATCH', '/api/v1/client-settings/user', { k: { value: null } }, reader)).statusCode).toBe(400);
    expect((await send('PATCH', '/api/v1/client-settings/user', { k: {} }, reader)).statusCode).toBe(400);
  });

  // A scope holds at most 1 MiB of settings, so a body past twice that can only be refused: it is,
  // before being parsed (a 10 MB body of tiny keys held the server's thread for seconds).
  it('refuses a settings body larger than any scope may hold before reading it', async () => {
    const keys = Array.from({ length: 150_000 }, (_, i) => `setting.${i}`.padEnd(20, '.'));
    const many = Object.fromEntries(keys.map((key) => [key, { value: '' }]));
    expect(JSON.stringify(keys).length).toBeGreaterThan(2 * 1024 * 1024);
    for (const [method, url, body] of [
      ['PATCH', '/api/v1/client-settings/user', many],
      ['PATCH', '/api/v1/client-settings/global', many],
      ['DELETE', '/api/v1/client-settings/user', keys],
      ['DELETE', '/api/v1/client-settings/global', keys],
    ] as const) {
      const response = await send(method, url, body, method === 'PATCH' && url.endsWith('user') ? reader : server.admin);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(413);
    }
    expect(await server.json('/api/v1/client-settings/user/list', reader)).not.toHaveProperty(keys[1]!);
  });

  // Komga's ClientSettingUserUpdateDto/GlobalUpdateDto hold a plain Kotlin String: "" is stored as
  // given (a client clears a setting so), and so is a blank key. Only a missing or null value is a 400.
  it('stores an empty value and a blank key as Komga does', async () => {
    const user = await send('PATCH', '/api/v1/client-settings/user', { 'empty.value': { value: '' }, ' ': { value: 'blank key' } }, reader);
    expect(user.statusCode, user.body).toBe(204);
    expect(await server.json('/api/v1/client-settings/user/list', reader)).toEqual({ ' ': { value: 'blank key' }, 'empty.value': { value: '' } });

    const global = await send('PATCH', '/api/v1/client-settings/global', { 'empty.global': { value: '', allowUnauthorized: true } });
    expect(global.statusCode, global.body).toBe(204);
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/v1/client-settings/global/list' });
    expect(anonymous.json()['empty.global']).toEqual({ value: '', allowUnauthorized: true });

    // A null value is not coerced to "": it stays refused, and the stored one is kept.
    expect((await send('PATCH', '/api/v1/client-settings/user', { 'empty.value': { value: null } }, reader)).statusCode).toBe(400);
    expect((await send('PATCH', '/api/v1/client-settings/global', { 'empty.global': { value: null, allowUnauthorized: true } })).statusCode).toBe(400);
    expect((await server.json<Record<string, unknown>>('/api/v1/client-settings/user/list', reader))['empty.value']).toEqual({ value: '' });

    expect((await send('DELETE', '/api/v1/client-settings/user', ['empty.value', ' '], reader)).statusCode).toBe(204);
    expect((await send('DELETE', '/api/v1/client-settings/global', ['empty.global'])).statusCode).toBe(204);
  });

  it('are removed with their user', async () => {
    await send('PATCH', '/api/v1/client-settings/user', { k: { value: 'v' } }, reader);
    server.app.folio.repos.users.delete(readerId);
    const left = server.app.folio.db.prepare('SELECT COUNT(*) FROM client_setting WHERE scope = ?').pluck().get(readerId);
    expect(left).toBe(0);
  });
});
