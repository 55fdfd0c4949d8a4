import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/http/app.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';

/*
 * A request whose body trickles in (a byte every few seconds, under the stall limit that closes
 * connections on which nothing moves) held its connection for ever: Fastify turns off Node's limit
 * on the time to receive a whole request. A few addresses doing so, each up to its share of the
 * connections, kept everyone else out (slowloris). A request now has a time limit to arrive.
 */
let dir: string;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-slow-body-'));
  app = await buildApp({ dataDir: join(dir, 'data'), clientDir: join(dir, 'no-client'), logLevel: 'silent', stalledConnectionMs: 60_000, requestTimeoutMs: 1_000 });
  const claim = await app.inject({ method: 'POST', url: '/api/v1/claim', headers: { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD } });
  expect(claim.statusCode).toBe(200);
  port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

/** Sends `head` and then one byte of body every 100 ms (never quiet long enough for the stall limit); resolves once the server closed the connection, with what it answered. */
async function trickle(head: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  const timer = setInterval(() => socket.write(' '), 100);
  try {
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error(`still open after 8 s; answered: ${answer.split('\r\n')[0]}`)), 8_000))]);
  } finally {
    clearInterval(timer);
    socket.destroy();
  }
  return answer.split('\r\n')[0]!;
}

it('closes a connection whose request body never finishes arriving (a signed-in caller)', async () => {
  const head = `PATCH /api/v1/client-settings/user HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(ADMIN_EMAIL, ADMIN_PASSWORD)}\r\nX-Requested-With: XMLHttpRequest\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{`;
  expect(await trickle(head)).toBe('HTTP/1.1 408 Request Timeout');
}, 20_000);

it('closes an anonymous connection answered at once whose body is still arriving', async () => {
  const head = 'POST /api/v1/claim HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{';
  expect(await trickle(head)).toMatch(/^HTTP\/1\.1 4\d\d/);
}, 20_000);
