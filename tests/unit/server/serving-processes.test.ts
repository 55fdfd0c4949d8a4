import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCbz, renderPage } from '../../fixtures/comics.ts';
import { pollUntil } from '../../support/poll.ts';
import { type SpawnedServer, claimSession, spawnServer } from './support/spawned-server.ts';

/**
 * FOLIO_SERVING_PROCESSES=2 (README "Serving processes"): the real server as its own process, with
 * one serving process beside the primary on the same port. Each request below goes on a new
 * connection, which the kernel gives to either process; `Folio-Process` names the serving process
 * that took it (`serving-1`, or `serving-1>primary` when it handed the request on); the primary's
 * own answers carry none.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let dir: string;
let server: SpawnedServer;
let admin: string;
let libraryId: string;
let otherLibraryId: string;
let bookId: string;
let otherBookId: string;

function get(path: string, headers: Record<string, string> = {}, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A connection of its own each time unless an agent keeps one: the kernel picks the process.
    const outgoing = request(`${server.url}${path}`, { headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const by = (answer: Answer) => String(answer.headers['folio-process'] ?? 'primary');

/**
 * Asks until the serving process answered (itself, or `handedOn`: through the primary) and the
 * primary answered directly; both answers.
 */
async function fromBoth(path: string, headers: Record<string, string> = {}, { handedOn = false } = {}): Promise<{ serving: Answer; primary: Answer }> {
  const serving = handedOn ? 'serving-1>primary' : 'serving-1';
  const seen = new Map<string, Answer>();
  try {
    await pollUntil(`${path} answered by ${serving} and by the primary`, async () => {
      const answer = await get(path, headers);
      seen.set(by(answer), answer);
      return seen.has(serving) && seen.has('primary');
    }, { intervalMs: 1, timeoutMs: 15_000 });
  } catch (error) {
    throw new Error(`${String(error)}; answered by: ${[...seen].map(([name, a]) => `${name} ${a.status}`).join(', ')}`);
  }
  return { serving: seen.get(serving)!, primary: seen.get('primary')! };
}

/**
 * One kept-alive connection the serving process took: each request sent through it is the serving
 * process's to answer (or hand on), so "the next request" is exactly that.
 */
async function servingConnection(): Promise<{ send: (path: string, headers: Record<string, string>) => Promise<Answer>; close: () => void }> {
  return pollUntil('a connection taken by the serving process', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Anonymous: handed on and refused, without counting as a failed sign-in.
    const first = await get('/api/v1/books/none/pages/1', {}, agent);
    if (by(first) === 'serving-1>primary') return { send: (path: string, headers: Record<string, string>) => get(path, headers, agent), close: () => agent.destroy() };
    agent.destroy();
    return undefined;
  }, { intervalMs: 1 });
}

async function api<T>(path: string, init: { method?: string; body?: unknown; cookie?: string } = {}): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie: init.cookie ?? admin, 'X-Requested-With': 'XMLHttpRequest', ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

async function signIn(email: string, password: string): Promise<string> {
  const login = await fetch(`${server.url}/api/v2/users/me`, { headers: { Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` } });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='));
  if (!cookie) throw new Error(`no session for ${email}: ${login.status}`);
  return cookie.split(';')[0]!;
}

async function readyBook(library: string): Promise<string> {
  return pollUntil(`a READY book in ${library}`, async () => {
    const page = await api<{ content: { id: string; media: { status: string } }[] }>(`/api/v1/books?library_id=${library}&unpaged=true`);
    const books = page.content;
    return books.length > 0 && books.every((b) => b.media.status === 'READY') && books[0]!.id;
  }, { timeoutMs: 60_000 });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-serving-processes-'));
  await createCbz(join(dir, 'one', 'Alpha', 'Alpha 1.cbz'), [
    { width: 300, height: 450, color: [200, 30, 30], format: 'jpeg' },
    { width: 300, height: 450, color: [30, 200, 30], format: 'png' },
  ]);
  await createCbz(join(dir, 'two', 'Beta', 'Beta 1.cbz'), [{ width: 300, height: 450, color: [30, 30, 200], format: 'jpeg' }]);
  server = await spawnServer(join(dir, 'data'), { env: { FOLIO_SERVING_PROCESSES: '2' } });
  admin = await claimSession(server.url);
  libraryId = (await api<{ id: string }>('/api/v1/libraries', { method: 'POST', body: { name: 'One', root: join(dir, 'one') } })).id;
  otherLibraryId = (await api<{ id: string }>('/api/v1/libraries', { method: 'POST', body: { name: 'Two', root: join(dir, 'two') } })).id;
  bookId = await readyBook(libraryId);
  otherBookId = await readyBook(otherLibraryId);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('serving processes', () => {
  it('serves the same page bytes and posters from both processes', async () => {
    const page = await fromBoth(`/api/v1/books/${bookId}/pages/2`, { cookie: admin });
    expect(page.serving.status).toBe(200);
    expect(page.serving.body.equals(page.primary.body)).toBe(true);
    for (const header of ['content-type', 'content-length', 'etag', 'last-modified', 'cache-control', 'content-disposition', 'x-content-type-options']) {
      expect([header, page.serving.headers[header]]).toEqual([header, page.primary.headers[header]]);
    }
    // Komga's OPDS page address, counted from 0.
    const opds = await fromBoth(`/opds/v1.2/books/${bookId}/pages/1`, { cookie: admin });
    expect(opds.serving.body.equals(page.primary.body)).toBe(true);
    // The primary draws the poster once; both then serve it.
    await pollUntil('the poster drawn', async () => (await get(`/api/v1/books/${bookId}/thumbnail`, { cookie: admin })).status === 200);
    const poster = await fromBoth(`/api/v1/books/${bookId}/thumbnail`, { cookie: admin });
    expect(poster.serving.headers['content-type']).toBe('image/jpeg');
    expect(poster.serving.body.equals(poster.primary.body)).toBe(true);
    expect(poster.serving.headers.etag).toBe(poster.primary.headers.etag);
    // A conditional request is answered 304 alike.
    const again = await fromBoth(`/api/v1/books/${bookId}/pages/2`, { cookie: admin, 'If-None-Match': String(page.primary.headers.etag) });
    expect([again.serving.status, again.primary.status]).toEqual([304, 304]);
  });

  it('refuses what one process refuses: no session, a hidden library, no streaming role, a page out of range', async () => {
    // Nobody signed in: the serving process hands it on, the primary answers 401 in Komga's flavour.
    const anonymous = await fromBoth(`/api/v1/books/${bookId}/pages/1`, {}, { handedOn: true });
    expect([anonymous.serving.status, anonymous.primary.status]).toEqual([401, 401]);
    expect(anonymous.serving.headers['www-authenticate']).toBe(anonymous.primary.headers['www-authenticate']);

    await api('/api/v2/users', { method: 'POST', body: { email: 'reader@example.org', password: 'reader password 1', roles: ['PAGE_STREAMING'], sharedLibraries: { all: false, libraryIds: [libraryId] } } });
    const reader = await signIn('reader@example.org', 'reader password 1');
    const hidden = await fromBoth(`/api/v1/books/${otherBookId}/pages/1`, { cookie: reader });
    expect([hidden.serving.status, hidden.primary.status]).toEqual([404, 404]);
    expect(hidden.serving.body.toString()).toBe(hidden.primary.body.toString());
    const poster = await fromBoth(`/api/v1/books/${otherBookId}/thumbnail`, { cookie: reader });
    expect([poster.serving.status, poster.primary.status]).toEqual([404, 404]);
    // No PAGE_STREAMING role: 403 for the page bytes, alike.
    await api('/api/v2/users', { method: 'POST', body: { email: 'noreader@example.org', password: 'no reader password', roles: [] } });
    const noStreaming = await fromBoth(`/api/v1/books/${bookId}/pages/1`, { cookie: await signIn('noreader@example.org', 'no reader password') });
    expect([noStreaming.serving.status, noStreaming.primary.status]).toEqual([403, 403]);
    expect(noStreaming.serving.body.toString()).toBe(noStreaming.primary.body.toString());
    const beyond = await fromBoth(`/api/v1/books/${bookId}/pages/9`, { cookie: reader });
    expect([beyond.serving.status, beyond.primary.status]).toEqual([400, 400]);
    expect(beyond.serving.body.toString()).toBe(beyond.primary.body.toString());
  });

  it('sees a logout, a password reset, a deleted API key and a library taken away on the very next request', async () => {
    await api('/api/v2/users', { method: 'POST', body: { email: 'gone@example.org', password: 'gone password 1', roles: ['PAGE_STREAMING'] } });
    const users = await api<{ id: string; email: string }[]>('/api/v2/users');
    const goneId = users.find((u) => u.email === 'gone@example.org')!.id;
    const page = `/api/v1/books/${bookId}/pages/1`;
    const connection = await servingConnection();
    const next = async (headers: Record<string, string>) => {
      const answer = await connection.send(page, headers);
      return `${answer.status} ${by(answer)}`;
    };
    try {
      const leaving = await signIn('gone@example.org', 'gone password 1');
      expect(await next({ cookie: leaving })).toBe('200 serving-1');
      await api('/api/logout', { method: 'POST', cookie: leaving });
      expect(await next({ cookie: leaving })).toBe('401 serving-1>primary');

      const reset = await signIn('gone@example.org', 'gone password 1');
      expect(await next({ cookie: reset })).toBe('200 serving-1');
      await api(`/api/v2/users/${goneId}/password`, { method: 'PATCH', body: { password: 'another password 2' } });
      expect(await next({ cookie: reset })).toBe('401 serving-1>primary');

      const keyOwner = await signIn('gone@example.org', 'another password 2');
      const key = await api<{ id: string; key: string }>('/api/v2/users/me/api-keys', { method: 'POST', cookie: keyOwner, body: { comment: 'reader app' } });
      // The first use is recorded as activity by the primary; the serving process answers the next ones itself.
      expect(await next({ 'X-API-Key': key.key })).toBe('200 serving-1>primary');
      expect(await next({ 'X-API-Key': key.key })).toBe('200 serving-1');
      await api(`/api/v2/users/me/api-keys/${key.id}`, { method: 'DELETE', cookie: keyOwner });
      expect(await next({ 'X-API-Key': key.key })).toBe('401 serving-1>primary');

      // A restriction change ends the user's sessions (as one process does); a key outlives it.
      const readerApp = await api<{ id: string; key: string }>('/api/v2/users/me/api-keys', { method: 'POST', cookie: await signIn('gone@example.org', 'another password 2'), body: { comment: 'another app' } });
      expect(await next({ 'X-API-Key': readerApp.key })).toBe('200 serving-1>primary');
      expect(await next({ 'X-API-Key': readerApp.key })).toBe('200 serving-1');
      await api(`/api/v2/users/${goneId}`, { method: 'PATCH', body: { sharedLibraries: { all: false, libraryIds: [otherLibraryId] } } });
      expect(await next({ 'X-API-Key': readerApp.key })).toBe('404 serving-1');

      await api(`/api/v2/users/${goneId}`, { method: 'DELETE' });
      expect(await next({ 'X-API-Key': readerApp.key })).toBe('401 serving-1>primary');
    } finally {
      connection.close();
    }
  });

  it('sees a deleted book and a newly chosen poster at once', async () => {
    await createCbz(join(dir, 'one', 'Gamma', 'Gamma 1.cbz'), [{ width: 200, height: 300, color: [90, 90, 90], format: 'jpeg' }]);
    await api(`/api/v1/libraries/${libraryId}/scan`, { method: 'POST' });
    const gamma = await pollUntil('Gamma READY', async () => {
      const books = (await api<{ content: { id: string; name: string; media: { status: string } }[] }>(`/api/v1/books?library_id=${libraryId}&unpaged=true`)).content;
      const found = books.find((b) => b.name === 'Gamma 1');
      return found?.media.status === 'READY' && found.id;
    }, { timeoutMs: 60_000 });
    const connection = await servingConnection();
    try {
      const next = async () => {
        const answer = await connection.send(`/api/v1/books/${gamma}/pages/1`, { cookie: admin });
        return `${answer.status} ${by(answer)}`;
      };
      expect(await next()).toBe('200 serving-1');
      const poster = async () => {
        const answer = await connection.send(`/api/v1/books/${gamma}/thumbnail`, { cookie: admin });
        return { by: by(answer), bytes: answer.body };
      };
      // Drawn by the primary the first time, then served by the serving process from the row it remembers.
      await pollUntil('the poster served by the serving process', async () => (await poster()).by === 'serving-1');
      const chosen = await renderPage({ width: 120, height: 180, color: [250, 200, 0], format: 'jpeg' });
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(chosen)], { type: 'image/jpeg' }), 'chosen.jpg');
      const upload = await fetch(`${server.url}/api/v1/books/${gamma}/thumbnails?selected=true`, { method: 'POST', headers: { cookie: admin, 'X-Requested-With': 'XMLHttpRequest' }, body: form });
      expect(upload.status).toBe(200);
      const after = await poster();
      expect(after.by).toBe('serving-1');
      expect(after.bytes.equals(chosen)).toBe(true);

      await api(`/api/v1/books/${gamma}/file`, { method: 'DELETE' });
      expect(await next()).toBe('404 serving-1');
    } finally {
      connection.close();
    }
  });

  it('hands every other request to the primary: event streams, uploads, the client address', async () => {
    const stream = await pollUntil('an event stream through the serving process', async () => {
      const answer = await new Promise<{ by: string; type: string | undefined }>((resolve, reject) => {
        const outgoing = request(`${server.url}/sse/v1/events`, { headers: { cookie: admin }, agent: false }, (response) => {
          // The stream's headers came through as they were written, before any event.
          resolve({ by: String(response.headers['folio-process'] ?? 'primary'), type: response.headers['content-type'] });
          outgoing.destroy();
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
      return answer.by === 'serving-1>primary' && answer;
    }, { intervalMs: 1 });
    expect(stream.type).toMatch(/^text\/event-stream/);

    // A poster upload (multipart, streamed through) by whichever process takes it, until the serving process did.
    const poster = await readFile(join(dir, 'data', 'thumbnails', 'books', (await readdirFirst(join(dir, 'data', 'thumbnails', 'books')))));
    const uploaded = await pollUntil('an upload through the serving process', async () => {
      const boundary = 'folio-test-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
        poster,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const answer = await new Promise<Answer>((resolve, reject) => {
        const outgoing = request(`${server.url}/api/v1/books/${bookId}/thumbnails?selected=false`, {
          method: 'POST',
          agent: false,
          headers: { cookie: admin, 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(body.length) },
        }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        });
        outgoing.on('error', reject);
        outgoing.end(body);
      });
      expect(answer.status).toBe(200);
      return by(answer) === 'serving-1>primary' && answer;
    }, { intervalMs: 1 });
    expect(JSON.parse(uploaded.body.toString())).toMatchObject({ bookId, type: 'USER_UPLOADED', selected: false });

    // A sign-in through the serving process is recorded with the client's address, not the serving process's.
    await api('/api/v2/users', { method: 'POST', body: { email: 'addr@example.org', password: 'address password 1', roles: [] } });
    const basic = `Basic ${Buffer.from('addr@example.org:address password 1').toString('base64')}`;
    await pollUntil('a sign-in through the serving process', async () => by(await get('/api/v2/users/me', { authorization: basic })) === 'serving-1>primary', { intervalMs: 1 });
    const activity = await api<{ content: { ip: string }[] }>('/api/v2/users/authentication-activity?unpaged=true');
    const addresses = new Set(activity.content.map((a) => a.ip));
    expect([...addresses].every((address) => address === '127.0.0.1' || address === '::ffff:127.0.0.1')).toBe(true);
  });

  it('starts a serving process again when it ends', async () => {
    const children = async () => (await readFile(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
    const [first] = await children();
    expect(first).toBeGreaterThan(0);
    process.kill(first!, 'SIGKILL');
    const next = await pollUntil('another serving process', async () => {
      const now = await children();
      return now.length === 1 && now[0] !== first && now[0];
    });
    expect(next).not.toBe(first);
    // It answers pages again.
    await fromBoth(`/api/v1/books/${bookId}/pages/1`, { cookie: admin });
    const log = await readFile(join(dir, 'data', 'logs', 'folio.log'), 'utf8');
    expect(log).toContain('a serving process ended: starting it again');
  }, 60_000);
});

async function readdirFirst(folder: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const names = await readdir(folder, { recursive: true, withFileTypes: true });
  const file = names.find((entry) => entry.isFile());
  if (!file) throw new Error(`no file in ${folder}`);
  return join(file.parentPath, file.name).slice(folder.length + 1);
}

describe('serving processes under a base path', () => {
  let base: SpawnedServer;
  let baseDir: string;
  beforeAll(async () => {
    baseDir = await mkdtemp(join(tmpdir(), 'folio-serving-base-'));
    base = await spawnServer(join(baseDir, 'data'), { env: { FOLIO_SERVING_PROCESSES: '2', FOLIO_BASE_PATH: '/folio' } });
  }, 60_000);
  afterAll(async () => {
    await base?.stop();
    await rm(baseDir, { recursive: true, force: true });
  });

  it('hands requests on with the path the client asked for', async () => {
    // base.url ends with the base path; a page request without a session is handed on from inside
    // the serving process's routing (after the base path was taken off for its routes).
    const answers = new Map<string, number>();
    await pollUntil('a page request handed on by the serving process, and one answered by the primary', async () => {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const outgoing = request(`${base.url}/api/v1/books/none/pages/1`, { agent: false }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.alloc(0) }));
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
      answers.set(by(answer), answer.status);
      return answers.has('serving-1>primary') && answers.has('primary');
    }, { intervalMs: 1 });
    expect(Object.fromEntries(answers)).toEqual({ 'serving-1>primary': 401, primary: 401 });
  });
});
