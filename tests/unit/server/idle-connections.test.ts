import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionBudget } from '../../../server/media/descriptor-budget.ts';
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
});
