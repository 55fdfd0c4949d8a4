import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../server/http/app.ts';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';
import { hashPassword } from '../../../server/http/auth/passwords.ts';
import { EVENT_BATCH_MS, MAX_UNSENT_BYTES } from '../../../server/http/event-stream-writer.ts';
import { MAX_STREAMS_PER_USER } from '../../../server/http/routes/sse-routes.ts';

let app: FastifyInstance;
let dir: string;
let base: string;
const admin = { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-sse-'));
  app = await buildApp({ dataDir: join(dir, 'data'), clientDir: join(dir, 'none'), sseHeartbeatMs: 50, logLevel: 'warn' });
  await app.inject({ method: 'POST', url: '/api/v1/claim', headers: { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

/** A reader (no roles, every library shared) whose password is 'pw', kept from the series labelled `labelsExclude`. */
async function insertReader(id: string, email: string, labelsExclude: string[]): Promise<void> {
  const now = Date.now();
  app.folio.repos.users.insert({
    id,
    email,
    passwordHash: await hashPassword('pw'),
    roles: [],
    sharedAllLibraries: true,
    sharedLibraryIds: [],
    labelsAllow: [],
    labelsExclude,
    ageRestriction: null,
    ageRestrictionType: null,
    created: now,
    lastModified: now,
  });
}

/** Opens the event stream and collects its text; `until` resolves once the text satisfies a test. */
async function openStream(headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${base}/sse/v1/events`, { headers, signal: controller.signal });
  let text = '';
  const waiters: { test: (t: string) => boolean; resolve: () => void }[] = [];
  const reader = response.body!.getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
        for (const w of [...waiters]) if (w.test(text)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
      }
    } catch {
      // aborted
    }
  })();
  return {
    response,
    text: () => text,
    until: (test: (t: string) => boolean) =>
      new Promise<void>((resolve) => (test(text) ? resolve() : waiters.push({ test, resolve }))),
    close: () => controller.abort(),
  };
}

describe('GET /sse/v1/events', () => {
  it('needs authentication', async () => {
    const response = await fetch(`${base}/sse/v1/events`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    expect(response.status).toBe(401);
  });

  it('carries the security headers of every other API response, the sandboxing CSP among them', async () => {
    const stream = await openStream({ ...admin, 'sec-fetch-dest': 'document' });
    const other = await fetch(`${base}/api/v1/libraries`, { headers: { ...admin, 'sec-fetch-dest': 'document' } });
    const names = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection', 'origin-agent-cluster'];
    for (const name of names) expect(stream.response.headers.get(name), name).toBe(other.headers.get(name));
    // Before: the hijacked reply skipped the hook that sets it, so it went out with the web client's policy.
    expect(stream.response.headers.get('content-security-policy')?.split(';')[0]).toBe('sandbox');
    expect(stream.response.headers.get('x-content-type-options')).toBe('nosniff');
    stream.close();
  });

  it("keeps at most MAX_STREAMS_PER_USER streams per user: one more ends that user's oldest", async () => {
    const first = await fetch(`${base}/sse/v1/events`, { headers: admin });
    const firstEnded = (async () => {
      const reader = first.body!.getReader();
      for (;;) if ((await reader.read()).done) return true;
    })();
    const others = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) others.push(await openStream(admin));
    // Before: every stream stayed open, each adding a lookup to every event.
    expect(await firstEnded).toBe(true);
    // The newest ones still stream (heartbeats every 50 ms here).
    const newest = others.at(-1)!;
    const seen = newest.text().length;
    await newest.until((t) => t.length > seen);
    for (const o of others) o.close();
  });

  it('streams library, series, book and task events, with heartbeats', async () => {
    const stream = await openStream(admin);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const root = (await createSampleLibrary(join(dir, 'library'))).root;
    const created = await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'L', root } });
    const libraryId = created.json().id as string;
    await app.folio.tasks.idle();
    await stream.until((t) => t.includes('event:BookChanged') && /event:TaskQueueStatus\ndata:\{"count":0/.test(t));
    const text = stream.text();
    expect(text).toContain(`event:LibraryAdded\ndata:{"libraryId":"${libraryId}"}`);
    expect(text).toMatch(/event:SeriesAdded\ndata:\{"seriesId":"\w+","libraryId":"\w+"\}/);
    expect(text).toMatch(/event:BookAdded\ndata:\{"bookId":"\w+","seriesId":"\w+","libraryId":"\w+"\}/);
    expect(text).toMatch(/event:TaskQueueStatus\ndata:\{"count":\d+,"countByType":\{/);
    await stream.until((t) => t.split(':\n\n').length > 3);
    stream.close();
  });

  it('sends read progress events to their owner only', async () => {
    const root = (await createSampleLibrary(join(dir, 'library'))).root;
    await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'L', root } });
    await app.folio.tasks.idle();
    await insertReader('OTHERUSER0001', 'other@example.org', []);
    const mine = await openStream(admin);
    const theirs = await openStream({ authorization: basic('other@example.org', 'pw') });
    const books = (await app.inject({ method: 'GET', url: '/api/v1/books', headers: admin })).json() as Page<BookDto>;
    const book = books.content.find((b) => b.media.status === 'READY')!;
    await app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}/read-progress`, headers: admin, payload: { page: 1 } });
    await mine.until((t) => t.includes('event:ReadProgressChanged'));
    expect(mine.text()).toContain(`data:{"bookId":"${book.id}","userId":"`);
    // A broadcast emitted after the progress change: once the other stream has it, anything
    // sent to that stream before it has arrived too.
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'second'));
    await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'Second', root: join(dir, 'second') } });
    await app.folio.tasks.idle();
    await theirs.until((t) => t.includes('event:LibraryAdded'));
    expect(theirs.text()).not.toContain('ReadProgress');
    expect(theirs.text()).not.toContain('TaskQueueStatus'); // admins only
    mine.close();
    theirs.close();
  });

  it('announces a series marked unread even when it had no progress to forget, as Komga does', async () => {
    const root = (await createSampleLibrary(join(dir, 'library'))).root;
    await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'L', root } });
    await app.folio.tasks.idle();
    const books = (await app.inject({ method: 'GET', url: '/api/v1/books', headers: admin })).json() as Page<BookDto>;
    const book = books.content.find((b) => b.media.status === 'READY')!;
    const stream = await openStream(admin);
    const unread = await app.inject({ method: 'DELETE', url: `/api/v1/series/${book.seriesId}/read-progress`, headers: admin });
    expect(unread.statusCode).toBe(204);
    // An event sent after the unmarking: once it has arrived, the unmarking's events have too.
    await app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}/read-progress`, headers: admin, payload: { page: 1 } });
    await stream.until((t) => t.includes('event:ReadProgressChanged'));
    const before = stream.text().slice(0, stream.text().indexOf('event:ReadProgressChanged'));
    expect(before).toContain(`event:ReadProgressSeriesDeleted\ndata:{"seriesId":"${book.seriesId}","userId":"`);
    expect(before).not.toContain('event:ReadProgressDeleted\n');
    stream.close();
  });

  it('announces a series marked read even when every book was already read, as Komga does', async () => {
    const root = (await createSampleLibrary(join(dir, 'library'))).root;
    await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'L', root } });
    await app.folio.tasks.idle();
    const books = (await app.inject({ method: 'GET', url: '/api/v1/books', headers: admin })).json() as Page<BookDto>;
    const book = books.content.find((b) => b.media.status === 'READY')!;
    const first = await app.inject({ method: 'POST', url: `/api/v1/series/${book.seriesId}/read-progress`, headers: admin });
    expect(first.statusCode).toBe(204);
    const stream = await openStream(admin);
    const again = await app.inject({ method: 'POST', url: `/api/v1/series/${book.seriesId}/read-progress`, headers: admin });
    expect(again.statusCode).toBe(204);
    // An event sent after the second marking: once it has arrived, the marking's events have too.
    await app.inject({ method: 'DELETE', url: `/api/v1/books/${book.id}/read-progress`, headers: admin });
    await stream.until((t) => t.includes('event:ReadProgressDeleted'));
    const before = stream.text().slice(0, stream.text().indexOf('event:ReadProgressDeleted'));
    expect(before).toContain(`event:ReadProgressSeriesChanged\ndata:{"seriesId":"${book.seriesId}","userId":"`);
    expect(before).not.toContain('event:ReadProgressChanged\n');
    stream.close();
  });

  it("does not name a collection's or read list's poster to a user who cannot see the collection or list", async () => {
    const root = (await createSampleLibrary(join(dir, 'library'))).root;
    await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'L', root } });
    await app.folio.tasks.idle();
    const series = ((await app.inject({ method: 'GET', url: '/api/v1/series', headers: admin })).json() as Page<{ id: string; name: string }>).content;
    const alpha = series.find((x) => x.name === 'Alpha')!.id;
    const beta = series.find((x) => x.name === 'Beta')!.id;
    await app.inject({ method: 'PATCH', url: `/api/v1/series/${beta}/metadata`, headers: admin, payload: { sharingLabels: ['private'] } });
    const betaBook = ((await app.inject({ method: 'GET', url: `/api/v1/series/${beta}/books`, headers: admin })).json() as Page<BookDto>).content[0]!.id;
    const create = async (url: string, payload: object) => ((await app.inject({ method: 'POST', url, headers: admin, payload })).json() as { id: string }).id;
    const hiddenCollection = await create('/api/v1/collections', { name: 'Hidden', seriesIds: [beta] });
    const shownCollection = await create('/api/v1/collections', { name: 'Shown', seriesIds: [alpha] });
    const hiddenList = await create('/api/v1/readlists', { name: 'Hidden list', bookIds: [betaBook] });
    await insertReader('RESTRICTED001', 'restricted@example.org', ['private']);
    const theirs = await openStream({ authorization: basic('restricted@example.org', 'pw') });
    app.folio.events.emit({ name: 'ThumbnailSeriesCollectionAdded', data: { collectionId: hiddenCollection, selected: true } });
    app.folio.events.emit({ name: 'ThumbnailReadListAdded', data: { readListId: hiddenList, selected: true } });
    app.folio.events.emit({ name: 'ThumbnailSeriesCollectionDeleted', data: { collectionId: 'GONE00000001', selected: false } });
    // Emitted after them: once it has arrived, anything sent before it has arrived too.
    app.folio.events.emit({ name: 'ThumbnailSeriesCollectionAdded', data: { collectionId: shownCollection, selected: true } });
    await theirs.until((t) => t.includes(shownCollection));
    // Before: thumbnail events of collections and read lists went to everybody.
    expect(theirs.text()).not.toContain(hiddenCollection);
    expect(theirs.text()).not.toContain(hiddenList);
    expect(theirs.text()).not.toContain('GONE00000001');
    theirs.close();
  });

  it('does not announce an empty collection or read list to a user who cannot see it; admins hear of it', async () => {
    const root = (await createSampleLibrary(join(dir, 'library'))).root;
    await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'L', root } });
    await app.folio.tasks.idle();
    const series = ((await app.inject({ method: 'GET', url: '/api/v1/series', headers: admin })).json() as Page<{ id: string; name: string }>).content;
    const alpha = series.find((x) => x.name === 'Alpha')!.id;
    const create = async (url: string, payload: object) => ((await app.inject({ method: 'POST', url, headers: admin, payload })).json() as { id: string }).id;
    const shown = await create('/api/v1/collections', { name: 'Shown', seriesIds: [alpha] });
    await insertReader('RESTRICTED002', 'restricted@example.org', ['private']);
    const theirs = await openStream({ authorization: basic('restricted@example.org', 'pw') });
    const mine = await openStream(admin);
    // What the empty-lists cleanup sends when a collection or read list lost its last member, and
    // a list emptied (its members gone) but kept.
    app.folio.events.emit({ name: 'CollectionDeleted', data: { collectionId: 'EMPTYCOLL001', seriesIds: [] } });
    app.folio.events.emit({ name: 'ReadListDeleted', data: { readListId: 'EMPTYLIST001', bookIds: [] } });
    app.folio.events.emit({ name: 'CollectionChanged', data: { collectionId: 'EMPTYCOLL002', seriesIds: [] } });
    app.folio.events.emit({ name: 'ReadListChanged', data: { readListId: 'EMPTYLIST002', bookIds: [] } });
    // Emitted after them: once it has arrived, anything sent before it has arrived too.
    app.folio.events.emit({ name: 'CollectionChanged', data: { collectionId: shown, seriesIds: [alpha] } });
    await mine.until((t) => t.includes(shown));
    await theirs.until((t) => t.includes(shown));
    for (const id of ['EMPTYCOLL001', 'EMPTYLIST001', 'EMPTYCOLL002', 'EMPTYLIST002']) expect(mine.text()).toContain(id);
    // Before: an event naming no member went to every user with restrictions.
    for (const id of ['EMPTYCOLL001', 'EMPTYLIST001', 'EMPTYCOLL002', 'EMPTYLIST002']) expect(theirs.text()).not.toContain(id);
    theirs.close();
    mine.close();
  });

  it('ends the stream of a client that stopped reading once too much waits unsent, instead of keeping it all in memory', async () => {
    // A client that opens its streams and never reads (20 per user) made the server keep every
    // event for it in memory until the connection timed out two minutes later.
    const port = Number(new URL(base).port);
    const socket = connect({ port, host: '127.0.0.1' });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined); // a reset is how the end may show
    let head = '';
    const opened = new Promise<void>((resolve) => {
      socket.on('data', (chunk) => {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) {
          socket.pause();
          resolve();
        }
      });
    });
    socket.write(`GET /sse/v1/events HTTP/1.1\r\nHost: folio\r\nAuthorization: ${admin.authorization}\r\n\r\n`);
    await opened;
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    // Far more than the socket buffers and the bound hold, the client reading nothing.
    const big = 'x'.repeat(64 * 1024);
    const events = Math.ceil((MAX_UNSENT_BYTES * 4) / big.length) + 200;
    for (let i = 0; i < events; i++) app.folio.events.emit({ name: 'LibraryChanged', data: { libraryId: `${i}${big}` } });
    socket.resume();
    await closed;
  }, 30_000);

  it('writes a burst of events together, complete and in order, and an event after a quiet spell at once', async () => {
    const stream = await openStream(admin);
    // The first thing on the stream is its opening comment.
    await stream.until((t) => t.startsWith(':\n\n'));
    const imported = (i: number) => ({ name: 'BookImported' as const, data: { bookId: null, sourceFile: `/import/${i}.cbz`, success: true, message: null }, adminOnly: true as const });
    const writes = vi.spyOn(ServerResponse.prototype, 'write');
    // Writes carrying these events (heartbeats go out meanwhile, on their own).
    const eventWrites = () => writes.mock.calls.filter(([chunk]) => String(chunk).includes('event:BookImported')).length;
    try {
      // A scan's pace: events far closer together than the batching interval.
      for (let i = 0; i < 100; i++) app.folio.events.emit(imported(i));
      // At most the first went out on its own (the stream was quiet); the others wait for one write.
      expect(eventWrites()).toBeLessThanOrEqual(1);
      await stream.until((t) => t.includes('/import/99.cbz'));
      const order = [...stream.text().matchAll(/\/import\/(\d+)\.cbz/g)].map((m) => Number(m[1]));
      expect(order).toEqual(Array.from({ length: 100 }, (_, i) => i));
      expect(eventWrites()).toBeLessThanOrEqual(2);
      // Quiet for a batching interval: the next event is written as it happens.
      const quietSince = performance.now();
      await expect.poll(() => performance.now() - quietSince, { interval: 10 }).toBeGreaterThan(EVENT_BATCH_MS);
      const before = eventWrites();
      app.folio.events.emit(imported(100));
      expect(eventWrites()).toBe(before + 1);
      await stream.until((t) => t.includes('/import/100.cbz'));
    } finally {
      writes.mockRestore();
      stream.close();
    }
  });
});
