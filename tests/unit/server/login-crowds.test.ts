import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/http/auth/passwords.ts';
import { basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * Many rightful sign-ins from one address at once (a load test from one machine, an office or a
 * school behind one router) against the brute-force defence (login-throttle.test.ts): the crowd
 * gets in, maybe slower; guesses are still slowed, queued and refused past a bound.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const LOGIN = '/api/v2/users/me';
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const ACCOUNTS = 20;

function login(s: TestServer, email: string, password: string, remoteAddress: string) {
  return s.app.inject({ method: 'GET', url: LOGIN, remoteAddress, headers: { ...XHR, authorization: basic(email, password) } });
}

const activityOf = (s: TestServer) => s.app.folio.repos.authActivity.page({ sort: [], limit: null, offset: 0 }).rows;
const slowed = (error: string | null) => error?.includes('slowed down') ?? false;

/** Twenty reader accounts sharing one password hash (one argon2 hash made, not twenty). */
async function readers(s: TestServer): Promise<string[]> {
  const hash = { hash: await hashPassword('right') };
  const emails = Array.from({ length: ACCOUNTS }, (_, i) => `reader${i}@x.org`);
  for (const email of emails) await insertUser(s, email, hash, []);
  return emails;
}

describe('a crowd signing in from one address', () => {
  it('gets in to twenty accounts at once: every sign-in answered 200 with a session and recorded', async () => {
    server = await startServer();
    const s = server;
    const emails = await readers(s);
    // 120 readers, six per account, all at once from one address (the load bench's event-stream
    // clients and readers). Before: each account's check took one of the address's eight places,
    // so the sign-ins to the ninth account on were refused with 429 although every password was right.
    const responses = await Promise.all(Array.from({ length: 6 * ACCOUNTS }, (_, i) => login(s, emails[i % ACCOUNTS]!, 'right', '10.0.20.1')));
    const refused = responses.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`);
    expect(refused).toEqual([]);
    expect(responses.every((r) => String(r.headers['set-cookie']).includes('KOMGA-SESSION='))).toBe(true);
    const rows = activityOf(s).filter((a) => a.source === 'Password');
    expect(rows).toHaveLength(6 * ACCOUNTS);
    expect(rows.every((a) => a.success)).toBe(true);
  }, 60_000);

  it('gets in with Basic on every call too (readers that never keep a session)', async () => {
    server = await startServer();
    const s = server;
    const emails = await readers(s);
    const responses = await Promise.all(
      Array.from({ length: 4 * ACCOUNTS }, (_, i) =>
        s.app.inject({ method: 'GET', url: '/api/v1/libraries', remoteAddress: '10.0.20.2', headers: { authorization: basic(emails[i % ACCOUNTS]!, 'right') } }),
      ),
    );
    expect(responses.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
  }, 60_000);

  it('still gets in after a typo or two from the same address (failures that cost no delay yet)', async () => {
    server = await startServer();
    const s = server;
    const emails = await readers(s);
    expect((await login(s, emails[0]!, 'typo', '10.0.20.3')).statusCode).toBe(401);
    expect((await login(s, emails[1]!, 'typo', '10.0.20.3')).statusCode).toBe(401);
    const responses = await Promise.all(Array.from({ length: 3 * ACCOUNTS }, (_, i) => login(s, emails[i % ACCOUNTS]!, 'right', '10.0.20.3')));
    expect(responses.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
  }, 60_000);
});

describe('guesses from one address', () => {
  it('a flood of distinct wrong guesses: at most eleven are checked (three free, eight slowed), the rest refused with Retry-After', async () => {
    server = await startServer();
    const s = server;
    // Two hundred distinct e-mails at once from one address: no two share credentials or an account.
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => login(s, `nobody${i}@x.org`, `guess${i}`, '10.0.21.1')));
    const codes = responses.map((r) => r.statusCode);
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    const refused = responses.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(200 - 11);
    // Every refusal says when to come back.
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Refused guesses cost no argon2 check and leave no row; after the three free ones each checked guess waited.
    const rows = activityOf(s).filter((a) => a.source === 'Password');
    expect(rows.length).toBe(codes.filter((c) => c === 401).length);
    expect(rows.length).toBeLessThanOrEqual(11);
    expect(rows.filter((a) => slowed(a.error)).length).toBe(rows.length - 3);
  }, 60_000);

  it('make the crowd behind the same address wait its turn past eight, with Retry-After, once they cost a delay', async () => {
    server = await startServer();
    const s = server;
    const emails = await readers(s);
    // Four wrong passwords: the address is now slowed down (three free failures).
    for (let i = 0; i < 4; i++) expect((await login(s, `nobody${i}@x.org`, 'guess', '10.0.21.2')).statusCode).toBe(401);
    const responses = await Promise.all(emails.map((email) => login(s, email, 'right', '10.0.21.2')));
    const codes = responses.map((r) => r.statusCode);
    // One checked and seven waiting places; the rest are told when to come back. Not a lock-out.
    expect(codes.filter((c) => c === 200).length).toBe(8);
    for (const r of responses.filter((x) => x.statusCode === 429)) expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('credentials already verified never wait behind password checks, even with the server-wide queue full', async () => {
    server = await startServer();
    const s = server;
    await insertUser(s, 'family@x.org', 'right', []);
    expect((await login(s, 'family@x.org', 'right', '10.0.22.1')).statusCode).toBe(200);
    // 150 guesses from 150 addresses: the server-wide argon2 queue is full for a few seconds.
    let guessesChecked = 0;
    const guesses = Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        login(s, `spray${i}@x.org`, 'guess', `10.2.${Math.floor(i / 250)}.${i % 250}`).then((r) => {
          if (r.statusCode === 401) guessesChecked++;
          return r;
        }),
      ),
    );
    const again = await login(s, 'family@x.org', 'right', '10.0.22.1');
    expect(again.statusCode).toBe(200);
    // It was answered while the guesses admitted to the queue (65) were still waiting for their check.
    expect(guessesChecked).toBeLessThan(10);
    expect((await guesses).some((r) => r.statusCode === 401)).toBe(true);
  }, 60_000);
});
