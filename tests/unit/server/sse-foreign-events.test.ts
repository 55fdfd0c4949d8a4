import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { buildApp } from '../../../server/http/app.ts';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { hashPassword } from '../../../server/http/auth/passwords.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';

/**
 * Load wave: every page a reader turns saves progress, and its events are its owner's alone. Each
 * open event stream looked its session, user and API key up for every such event of every user
 * before dropping it, so a few hundred readers made each page turn cost a lookup per open stream.
 */
let app: FastifyInstance;
let dir: string;
let base: string;
const admin = { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-sse-foreign-'));
  // No heartbeat during the test: the only lookups are the ones events cause.
  app = await buildApp({ dataDir: join(dir, 'data'), clientDir: join(dir, 'none'), sseHeartbeatMs: 600_000, logLevel: 'warn' });
  await app.inject({ method: 'POST', url: '/api/v1/claim', headers: { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function streamText(cookie: string, controller: AbortController): Promise<{ until: (text: string) => Promise<void> }> {
  const response = await fetch(`${base}/sse/v1/events`, { headers: { cookie }, signal: controller.signal });
  const reader = response.body!.getReader();
  let text = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch((error: unknown) => {
        if (controller.signal.aborted) return { done: true as const, value: undefined };
        throw error;
      });
      if (chunk.done) return;
      text += new TextDecoder().decode(chunk.value);
      for (const w of [...waiters]) if (text.includes(w.text)) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
    }
  })();
  return { until: (wanted) => new Promise((resolve) => (text.includes(wanted) ? resolve() : waiters.push({ text: wanted, resolve }))) };
}

async function sessionOf(email: string, password: string): Promise<string> {
  const login = await fetch(`${base}/api/v2/users/me`, { headers: { authorization: basic(email, password) } });
  return login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))!.split(';')[0]!;
}

it("another user's read progress costs an open event stream no lookup", async () => {
  const root = (await createSampleLibrary(join(dir, 'library'))).root;
  await app.inject({ method: 'POST', url: '/api/v1/libraries', headers: admin, payload: { name: 'L', root } });
  await app.folio.tasks.idle();
  const now = Date.now();
  app.folio.repos.users.insert({
    id: 'OTHERREADER01',
    email: 'other@example.org',
    passwordHash: await hashPassword('pw'),
    roles: [],
    sharedAllLibraries: true,
    sharedLibraryIds: [],
    labelsAllow: [],
    labelsExclude: [],
    ageRestriction: null,
    ageRestrictionType: null,
    created: now,
    lastModified: now,
  });
  const controller = new AbortController();
  const theirs = await Promise.all(Array.from({ length: 5 }, async () => streamText(await sessionOf('other@example.org', 'pw'), controller)));
  const mine = await streamText(await sessionOf(ADMIN_EMAIL, ADMIN_PASSWORD), controller);
  const book = ((await app.inject({ method: 'GET', url: '/api/v1/books', headers: admin })).json() as Page<BookDto>).content.find((b) => b.media.status === 'READY')!;

  const lookups = vi.spyOn(app.folio.repos.users, 'findById');
  for (let page = 1; page <= 10; page++) {
    await app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}/read-progress`, headers: admin, payload: { page: 1 } });
  }
  // The owner's stream got them (its own lookups count: one per event)…
  await mine.until('event:ReadProgressSeriesChanged');
  const forOther = lookups.mock.calls.filter(([id]) => id === 'OTHERREADER01').length;
  // …and the other user's five streams, which the events were offered to as they were emitted, looked nothing up.
  expect(forOther).toBe(0);

  // They still get what is theirs to see.
  app.folio.events.emit({ name: 'LibraryChanged', data: { libraryId: 'ANYLIBRARY001' } });
  await Promise.all(theirs.map((s) => s.until('event:LibraryChanged')));
  controller.abort();
});

it("an API key's event stream checks its key on every event without preparing SQL each time", async () => {
  const cookie = await sessionOf(ADMIN_EMAIL, ADMIN_PASSWORD);
  const made = await fetch(`${base}/api/v2/users/me/api-keys`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({ comment: 'reader app' }),
  });
  const { key } = (await made.json()) as { key: string };
  const controller = new AbortController();
  const response = await fetch(`${base}/sse/v1/events`, { headers: { 'x-api-key': key }, signal: controller.signal });
  let text = '';
  const done = (async () => {
    for await (const chunk of response.body!) {
      text += Buffer.from(chunk).toString();
      if (text.includes('"libraryId":"LAST')) return;
    }
  })();
  // The first event prepares what it needs; the ones after it reuse that.
  app.folio.events.emit({ name: 'LibraryChanged', data: { libraryId: 'FIRST' } });
  const prepared = vi.spyOn(app.folio.db, 'prepare');
  for (let i = 0; i < 20; i++) app.folio.events.emit({ name: 'LibraryChanged', data: { libraryId: `L${i}` } });
  app.folio.events.emit({ name: 'LibraryChanged', data: { libraryId: 'LAST' } });
  await done;
  expect(text.match(/event:LibraryChanged/g)?.length).toBe(22);
  expect(prepared).not.toHaveBeenCalled();
  controller.abort();
});
