import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionCap } from '../../../server/http/connection-pressure.ts';
import { connectionBudget } from '../../../server/media/descriptor-budget.ts';
import { pollUntil } from '../../support/poll.ts';
import { type SpawnedServer, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * Readers' idle keep-alive sockets must not lock the next reader out. Under a 256-descriptor limit
 * the server accepts connectionBudget(256) connections; a crowd that made one request each and kept
 * its sockets open (as browsers and OkHttp do) filled that cap, and the next client's connection
 * was reset before it could send anything.
 */

const NOFILE = 256;
let dir: string;
let server: SpawnedServer;
let cookie: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-idle-connections-'));
  server = await spawnServer(join(dir, 'data'), { nofile: NOFILE });
  cookie = await claimSession(server.url);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** One GET through `agent` (or a connection of its own): its status, or the error that ended it. */
function get(path: string, agent: Agent | false): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${server.url}${path}`, { agent, headers: { cookie } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', (error) => resolve(String(error)));
    });
    req.once('error', (error) => resolve((error as NodeJS.ErrnoException).code ?? String(error)));
    req.end();
  });
}

describe('idle keep-alive connections at the connection cap', () => {
  it('are closed to make room for a new client instead of the new client being reset', async () => {
    const cap = connectionBudget(NOFILE);
    // The crowd: `cap` sockets kept alive, each idle after its one request.
    const crowd = new Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 60_000 });
    const crowdCodes = await Promise.all(Array.from({ length: cap }, () => get('/api/v1/libraries', crowd)));
    expect(crowdCodes.filter((c) => c !== 200).length).toBeLessThan(cap);
    // A newcomer on a connection of its own (before: ECONNRESET, every time, while the crowd idled).
    const newcomer = await Promise.all(Array.from({ length: 5 }, () => get('/api/v1/libraries', false)));
    expect(newcomer).toEqual([200, 200, 200, 200, 200]);
    crowd.destroy();
    expect(server.exited()).toBeNull();
  }, 60_000);

  it('a connection past the cap when none can be closed is answered 503 with Retry-After, not reset', async () => {
    const { cap } = connectionCap(connectionBudget(NOFILE));
    const { port } = new URL(server.url);
    // Every place taken by connections that have sent nothing yet: none is idle, none old enough to close.
    const quiet: Socket[] = [];
    for (let i = 0; i < cap; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      quiet.push(socket);
    }
    try {
      // Before: the newcomer was reset (or closed unanswered) for as long as the crowd stayed.
      const answer = await pollUntil('a newcomer answered 503', async () => {
        const text = await rawGet(Number(port));
        return text.startsWith('HTTP/1.1 503 ') && text;
      });
      expect(answer).toMatch(/\r\nRetry-After: \d+\r\n/);
      expect(answer).toMatch(/\r\nConnection: close\r\n/);
    } finally {
      for (const socket of quiet) socket.destroy();
    }
    await pollUntil('a newcomer served once the crowd left', async () => (await get('/api/v1/libraries', false)) === 200);
    expect(server.exited()).toBeNull();
  }, 60_000);
});

/** A request on a raw connection of its own, asking to close after: all the server wrote before closing it ('' if it closed unanswered or reset it). */
function rawGet(port: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET /api/v1/libraries HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: ${cookie}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => {
      socket.end();
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.once('error', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}
