import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../../../server/http/app.ts';
import { pollUntil } from '../../support/poll.ts';
import { MAX_UNSENT_BYTES } from '../../../server/http/event-stream-writer.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';

/**
 * Event streams of clients that stopped reading: each is dropped past MAX_UNSENT_BYTES of its own,
 * but many of them each holding a little less kept it all (4 MiB times the connection cap is
 * gigabytes). What they hold together is bounded too; a client that reads keeps its stream.
 */
const IN_ALL = 2 * 1024 * 1024;
let app: FastifyInstance;
let dir: string;
let port: number;
const authorization = basic(ADMIN_EMAIL, ADMIN_PASSWORD);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-sse-backlog-'));
  app = await buildApp({ dataDir: join(dir, 'data'), clientDir: join(dir, 'none'), sseHeartbeatMs: 600_000, logLevel: 'error', sseMaxUnsentBytesInAll: IN_ALL });
  await app.inject({ method: 'POST', url: '/api/v1/claim', headers: { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD } });
  port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterEach(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * An event stream on a raw socket; `reading` false: it takes the response head, then nothing more.
 * `until(text)` resolves once the end of what arrived holds `text`.
 */
async function stream(reading: boolean): Promise<{ socket: Socket; closed: Promise<void>; until: (text: string) => Promise<void> }> {
  const socket = connect({ port, host: '127.0.0.1' });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined); // a reset is how a drop may show
  let tail = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('latin1')).slice(-4096);
      if (tail.includes('\r\n\r\n') && !reading) socket.pause();
      resolve();
      for (const w of [...waiters]) if (tail.includes(w.text)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
    });
    socket.write(`GET /sse/v1/events HTTP/1.1\r\nHost: folio\r\nAuthorization: ${authorization}\r\n\r\n`);
  });
  return { socket, closed, until: (text) => new Promise((resolve) => (tail.includes(text) ? resolve() : waiters.push({ text, resolve }))) };
}

it('drops the streams holding the most once what all hold unsent passes its bound, and keeps those that read', async () => {
  const stalled = await Promise.all(Array.from({ length: 4 }, () => stream(false)));
  const reader = await stream(true);
  let dropped = 0;
  for (const s of stalled) void s.closed.then(() => dropped++);
  // Per stream: what a loopback socket's buffers take (about 3.7 MiB here) plus about 2.3 MiB
  // unsent, under a stream's own bound; four of them hold far more than IN_ALL together. Each
  // event goes out once the reading client has the one before, as a client keeping up would.
  const big = 'x'.repeat(64 * 1024);
  const perStream = 6 * 1024 * 1024;
  expect(perStream - 3.5 * 1024 * 1024).toBeLessThan(MAX_UNSENT_BYTES);
  for (let i = 0; i * big.length < perStream; i++) {
    app.folio.events.emit({ name: 'LibraryChanged', data: { libraryId: `${big}#${i}` } });
    await reader.until(`#${i}"}`);
  }
  // At least three of the four had to go for the rest to fit (a paused socket sees its end only
  // once it reads again); the one reading stays.
  for (const s of stalled) s.socket.resume();
  await pollUntil('three of the stalled streams to be dropped', () => dropped >= 3, { timeoutMs: 10_000 });
  expect(reader.socket.destroyed).toBe(false);
  reader.socket.destroy();
  for (const s of stalled) s.socket.destroy();
}, 60_000);
