import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DISCOVERY_RETRY_FIRST_MS, DISCOVERY_RETRY_MAX_MS } from '../../../server/http/auth/oauth2-flow.ts';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';

/**
 * An OpenID provider that is down: a real HTTP server on a local port that counts the discovery
 * requests it gets and answers them as told (503, not at all, or with its configuration).
 */
let provider: Server;
let issuer: string;
let discoveries = 0;
let answer: 'down' | 'hang' | 'up' = 'down';
const hanging: ServerResponse[] = [];

let server: TestServer;
let dir: string;

beforeAll(async () => {
  provider = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url !== '/.well-known/openid-configuration') return void response.writeHead(404).end();
    discoveries++;
    if (answer === 'hang') return void hanging.push(response);
    if (answer === 'down') return void response.writeHead(503).end('maintenance');
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/me`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'folio-oidc-down-'));
  await mkdir(join(dir, 'data'), { recursive: true });
  await writeFile(join(dir, 'data', 'oauth2-providers.json'), JSON.stringify([{ registrationId: 'flaky', name: 'Flaky ID', clientId: 'folio', issuerUri: issuer }]));
  server = await startServer({ dir });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await server.close();
  provider.closeAllConnections();
  await new Promise((resolve) => provider.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const startLogin = async () => {
  const response = await server.app.inject({ method: 'GET', url: '/oauth2/authorization/flaky' });
  expect(response.statusCode).toBe(302);
  return response.headers.location as string;
};
const UNAVAILABLE = '/login?server_redirect=Y&error=temporarily_unavailable';

describe('an OpenID provider that cannot be discovered', () => {
  it('is asked once by logins started together, then not again until its back-off has passed (30 s doubling to 5 min)', async () => {
    answer = 'hang';
    // Three logins at once while the provider does not answer: one discovery between them.
    const logins = Promise.all([startLogin(), startLogin(), startLogin()]);
    await pollUntil('the discovery request to reach the provider', () => hanging.length === 1);
    answer = 'down';
    for (const response of hanging.splice(0)) response.writeHead(503).end('maintenance');
    expect(await logins).toEqual([UNAVAILABLE, UNAVAILABLE, UNAVAILABLE]);
    expect(discoveries).toBe(1);

    // The next logins are answered at once, without asking the provider.
    expect(await startLogin()).toBe(UNAVAILABLE);
    expect(await startLogin()).toBe(UNAVAILABLE);
    expect(discoveries).toBe(1);

    // Past the first back-off the provider is asked again (still down): the next wait is doubled.
    let now = Date.now();
    const travel = (ms: number) => {
      now += ms;
      vi.useFakeTimers({ toFake: ['Date'], now });
    };
    travel(DISCOVERY_RETRY_FIRST_MS + 1);
    expect(await startLogin()).toBe(UNAVAILABLE);
    expect(discoveries).toBe(2);
    travel(DISCOVERY_RETRY_FIRST_MS + 1);
    expect(await startLogin()).toBe(UNAVAILABLE);
    expect(discoveries).toBe(2);
    travel(DISCOVERY_RETRY_FIRST_MS);
    expect(await startLogin()).toBe(UNAVAILABLE);
    expect(discoveries).toBe(3);
    // Doubling stops at five minutes.
    for (let failures = 3; failures < 8; failures++) {
      travel(DISCOVERY_RETRY_MAX_MS + 1);
      expect(await startLogin()).toBe(UNAVAILABLE);
    }
    expect(discoveries).toBe(8);

    // Back up: once the wait has passed, the login goes on to the provider.
    answer = 'up';
    travel(DISCOVERY_RETRY_MAX_MS + 1);
    expect(await startLogin()).toMatch(new RegExp(`^${issuer}/auth\\?`));
    expect(discoveries).toBe(9);
    expect(await startLogin()).toMatch(new RegExp(`^${issuer}/auth\\?`));
    expect(discoveries).toBe(9);
  });
});
