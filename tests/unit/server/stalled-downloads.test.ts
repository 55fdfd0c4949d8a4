import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage, writeStoredCbz } from '../../fixtures/index.ts';
import { connectionCap } from '../../../server/http/connection-pressure.ts';
import { connectionBudget, fileReadBudget } from '../../../server/media/descriptor-budget.ts';
import { buildApp } from '../../../server/http/app.ts';
import { pollUntil } from '../../support/poll.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * Readers who start downloading a whole book and then stop reading (a phone that lost its network,
 * a client paused in the background) hold their connection and the book file the download streams
 * from. With every connection the server accepts taken by such a download, the process must still
 * have descriptors left to open archives for other readers: no EMFILE, no 503 for lack of a file.
 * Downloads past the budget of request-held files wait for one to come free.
 */

const LIMIT = 256;
const SMALL_BOOKS = 24;

let dir: string;
let server: SpawnedServer;
let cookie: string;
let big: { id: string };
let small: { id: string }[];
const sockets: Socket[] = [];

/** Starts a download and reads only its first bytes: the rest stays unread, stalling the response. */
function stalledDownload(path: string, url = server.url, session = cookie): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nCookie: ${session}\r\n\r\n`);
    });
    sockets.push(socket);
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve(chunk.toString('latin1').split('\r\n')[0]!);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    socket.once('close', () => resolve('closed'));
  });
}

/** Session cookies of `count` new accounts allowed to download. */
async function readerSessions(count: number): Promise<string[]> {
  const sessions: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `reader${i}@x.org`;
    await apiCall(server.url, cookie, '/api/v2/users', { method: 'POST', body: JSON.stringify({ email, password: 'pw', roles: ['FILE_DOWNLOAD'] }) });
    const login = await fetch(`${server.url}/api/v2/users/me`, { headers: { authorization: `Basic ${Buffer.from(`${email}:pw`).toString('base64')}` } });
    sessions.push(login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))!.split(';')[0]!);
  }
  return sessions;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-stalled-'));
  const page = await renderPage({ width: 40, height: 60, color: [30, 30, 200], format: 'jpeg' });
  // Far more than the socket buffers of both ends hold, so an unread download stays in flight.
  await mkdir(join(dir, 'library', 'Big'), { recursive: true });
  await writeStoredCbz(join(dir, 'library', 'Big', 'Big.cbz'), [page, Buffer.concat([page, randomBytes(16 * 1024 * 1024)])]);
  await mkdir(join(dir, 'library', 'Small'), { recursive: true });
  for (let b = 0; b < SMALL_BOOKS; b++) await writeStoredCbz(join(dir, 'library', 'Small', `Book ${b}.cbz`), [page, page]);
  server = await spawnServer(join(dir, 'data'), { nofile: LIMIT });
  cookie = await claimSession(server.url);
  await addLibraryAndWait(server.url, cookie, join(dir, 'library'), SMALL_BOOKS + 1, 60_000);
  const books = (await apiCall<{ content: { id: string; name: string }[] }>(server.url, cookie, '/api/v1/books?size=100&media_status=READY')).content;
  big = books.find((b) => b.name === 'Big')!;
  small = books.filter((b) => b.name !== 'Big');
}, 90_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('downloads that stop being read', () => {
  it('filling every connection the server accepts leave descriptors for other readers', async () => {
    expect(small).toHaveLength(SMALL_BOOKS);
    // Downloads holding every file the budget lets requests hold, by readers of several accounts
    // (one account's downloads hold at most a quarter of them, file-slots.ts)…
    const holding = fileReadBudget(LIMIT);
    const share = holding / 4;
    const readers = await readerSessions(4 + Math.ceil(connectionCap(connectionBudget(LIMIT)).cap / share));
    const statusLines = await Promise.all(Array.from({ length: holding }, (_, i) => stalledDownload(`/api/v1/books/${big.id}/file`, server.url, readers[Math.floor(i / share)])));
    expect(new Set(statusLines)).toEqual(new Set(['HTTP/1.1 200 OK']));
    // …and every other connection the server accepts but a few, downloading as well: these wait for
    // a file to come free. The few are this test's own keep-alive connections and room below the
    // point where the server starts closing idle sockets to make room (two places short of the cap,
    // connection-pressure.ts): with only four left, the fetches' own idle socket could be closed
    // under them (ECONNRESET, CI once in several runs), which is that relief working, not this test's subject.
    // The server serves its budget less the places it keeps for answering 503 (connectionCap).
    const queued = Array.from({ length: connectionCap(connectionBudget(LIMIT)).cap - holding - 8 }, (_, i) =>
      stalledDownload(`/api/v1/books/${big.id}/file`, server.url, readers[4 + Math.floor(i / share)]),
    );
    // Each page of a book not open yet needs a descriptor for its archive.
    const pageStatuses: number[] = [];
    for (const book of small) {
      const response = await fetch(`${server.url}/api/v1/books/${book.id}/pages/1`, { headers: { cookie } });
      await response.arrayBuffer();
      pageStatuses.push(response.status);
    }
    expect(new Set(pageStatuses)).toEqual(new Set([200]));
    expect(await server.openDescriptors()).toBeLessThan(LIMIT);
    // A reader leaving gives its file to one that waits.
    sockets[0]!.destroy();
    expect(await Promise.race(queued)).toBe('HTTP/1.1 200 OK');
    // Once the readers are gone, so are their files.
    for (const socket of sockets.splice(0)) socket.destroy();
    await pollUntil('the stalled downloads to close their files', async () => (await server.openDescriptors()) < 100);
    expect(server.exited()).toBeNull();
    // The log file is written in the background: only a stopped server (which flushes it on the
    // way out) has surely written every line, an EMFILE logged a moment ago included.
    await server.stop();
    const log = await readFile(join(dir, 'data', 'logs', 'folio.log'), 'utf8');
    expect(log).toMatch(/Folio stopping/);
    expect(log).not.toMatch(/EMFILE/);
  }, 60_000);
});

describe('a connection on which nothing moves', () => {
  it('is closed after the stall limit, while a quiet SSE stream that keeps receiving heartbeats stays open', async () => {
    const app = await buildApp({ dataDir: join(dir, 'stall-data'), clientDir: join(dir, 'no-client'), logLevel: 'silent', sseHeartbeatMs: 100, stalledConnectionMs: 1_000 });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      // The server's end of each connection: a client that does not read cannot tell it was closed.
      const serverSockets: Socket[] = [];
      app.server.on('connection', (socket: Socket) => serverSockets.push(socket));
      const admin = { 'x-komga-email': 'a@example.org', 'x-komga-password': 'secret-password' };
      await app.inject({ method: 'POST', url: '/api/v1/claim', headers: admin });
      const login = await fetch(`${url}/api/v2/users/me`, { headers: { authorization: `Basic ${Buffer.from('a@example.org:secret-password').toString('base64')}` } });
      const session = login.headers.getSetCookie()[0]!.split(';')[0]!;
      const library = await fetch(`${url}/api/v1/libraries`, { method: 'POST', headers: { cookie: session, 'content-type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' }, body: JSON.stringify({ name: 'Big', root: join(dir, 'library', 'Big') }) });
      expect(library.status).toBe(200);
      await app.folio.tasks.idle();
      const [book] = (await (await fetch(`${url}/api/v1/books`, { headers: { cookie: session } })).json()).content as { id: string }[];
      const events = await fetch(`${url}/sse/v1/events`, { headers: { cookie: session } });
      expect(events.status).toBe(200);
      const eventsReader = events.body!.getReader();
      let eventsOpen = true;
      const drain = (async () => {
        while (!(await eventsReader.read()).done);
        eventsOpen = false;
      })();
      expect(await stalledDownload(`/api/v1/books/${book!.id}/file`, url, session)).toBe('HTTP/1.1 200 OK');
      const stalled = serverSockets.find((socket) => socket.remotePort === sockets.at(-1)!.localPort)!;
      await pollUntil('the server to close the stalled download', () => stalled.destroyed, { timeoutMs: 10_000 });
      expect(eventsOpen).toBe(true);
      await eventsReader.cancel();
      await drain;
    } finally {
      // Closing waits for responses in flight, such as a stalled download the server kept.
      for (const socket of sockets.splice(0)) socket.destroy();
      await app.close();
    }
  }, 30_000);
});
