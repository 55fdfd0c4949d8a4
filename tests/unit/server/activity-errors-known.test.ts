import { afterEach, describe, expect, it } from 'vitest';
import { rotateRememberMeKey } from '../../../server/http/auth/remember-me.ts';
import { activityErrorMessage } from '../../../src/ui/settings/activityErrors.ts';
import { basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { setCookie } from './accounts-helpers.ts';

/**
 * The authentication activity's `error` is an English sentence the server writes (the API keeps it,
 * as Komga's clients read it). The users screens translate it through src/ui/settings/activityErrors.ts;
 * a sentence that table does not know reaches every language in English. This test makes the real
 * server record each kind of failed login it can be made to record here (wrong password, slowed
 * after repeated ones, unknown API key, forged, re-keyed and unknown-user remember-me tokens) and
 * fails on any recorded sentence the client does not know. OAuth2 failures need a provider; their
 * sentences are in the table by reading oauth2-routes.ts and oauth2.ts.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('failed logins recorded by the server, as the client shows them', () => {
  it('are each a sentence the client translates', async () => {
    server = await startServer();
    await insertUser(server, 'reader@example.org', 'right', []);
    // Each failure from its own address, so only the series of wrong passwords is slowed down.
    let address = 0;
    const get = async (headers: Record<string, string>, from = `192.0.2.${++address}`) =>
      server!.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { ...XHR, ...headers }, remoteAddress: from });

    // Past the free failures the answer is slowed, and the sentence says so.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await get({ authorization: basic('reader@example.org', 'wrong') }, '198.51.100.1')).statusCode).toBe(401);
    }
    expect((await get({ 'x-api-key': 'no-such-key' })).statusCode).toBe(401);

    const token = setCookie(await server.get('/api/v2/users/me?remember-me=true', { authorization: basic('reader@example.org', 'right') }), 'komga-remember-me')!.value;
    const [id, expires, signature] = Buffer.from(token, 'base64url').toString('utf8').split(':');
    const remember = (value: string) => get({ cookie: `komga-remember-me=${Buffer.from(value).toString('base64url')}` });
    await remember(`${id}:${Number(expires) + 1000}:${signature}`);
    await remember('not-a-token');
    await remember(`${id}:${Date.now() - 1000}:${signature}`);
    await remember(`nobody:${expires}:${signature}`);
    rotateRememberMeKey(server.app.folio.repos.serverSettings);
    await get({ cookie: `komga-remember-me=${token}` });

    const activity = await server.json<{ content: { success: boolean; error: string | null }[] }>(
      '/api/v2/users/authentication-activity?unpaged=true',
    );
    const errors = [...new Set(activity.content.filter((a) => !a.success).map((a) => a.error ?? ''))];
    expect(errors.length).toBeGreaterThanOrEqual(4);
    expect(errors.some((error) => /slowed down/.test(error))).toBe(true);
    expect(errors.filter((error) => activityErrorMessage(error) === undefined)).toEqual([]);
  });
});
