import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { type TestServer, addLibrary, startServer } from './helpers.ts';
import { pollUntil } from '../../support/poll.ts';

/**
 * Another process holding the database's write lock (an administrator's sqlite3 shell left inside a
 * transaction, a backup tool's checkpoint): a request that writes meanwhile must be told to come back
 * (503 with Retry-After), not get a 500, and must not hold the whole server while it waits.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

it('answers a write 503 with Retry-After while another process holds the write lock, and saves it once the lock is gone', async () => {
  const root = (await createSampleLibrary(join(server.dir, 'library'))).root;
  await addLibrary(server, root);
  const book = (await server.json<Page<BookDto>>('/api/v1/books?size=1')).content[0]!;
  const login = await server.get('/api/v2/users/me');
  const cookie = String(login.headers['set-cookie']).match(/KOMGA-SESSION=[^;]+/)![0];
  const other = new Database(join(server.dataDir, 'folio.sqlite'));
  // The session was last used long enough ago that this request refreshes its clock (a write).
  other.prepare('UPDATE session SET last_access = last_access - 3600000').run();
  other.exec('BEGIN IMMEDIATE');
  other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
  try {
    const t0 = performance.now();
    const refused = await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}/read-progress`, headers: server.admin, payload: { page: 2 } });
    const waited = performance.now() - t0;
    expect(refused.statusCode).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Reads go on (WAL readers never wait for a writer), a session's bookkeeping write left for later.
    expect((await server.get(`/api/v1/books/${book.id}`, { cookie })).statusCode).toBe(200);
    // Within the 1 s busy wait (and a loaded machine's margin), not the 5 s it was.
    expect(waited).toBeLessThan(3000);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  const saved = await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}/read-progress`, headers: server.admin, payload: { page: 2 } });
  expect(saved.statusCode).toBe(204);
  expect((await server.json<BookDto>(`/api/v1/books/${book.id}`)).readProgress?.page).toBe(2);
});

it('waits for another process\'s lock once, not once per write: writes that follow a refusal are refused at once', async () => {
  // better-sqlite3 waits for the lock on the server's only thread: with every write waiting its
  // busy time in turn, readers' progress saves (each retried) kept the whole server frozen, reads
  // included, for as long as the lock was held.
  const root = (await createSampleLibrary(join(server.dir, 'library'))).root;
  await addLibrary(server, root);
  const book = (await server.json<Page<BookDto>>('/api/v1/books?size=1')).content[0]!;
  const other = new Database(join(server.dataDir, 'folio.sqlite'));
  other.exec('BEGIN IMMEDIATE');
  other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
  try {
    const save = () => server.app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}/read-progress`, headers: server.admin, payload: { page: 2 } });
    expect((await save()).statusCode).toBe(503);
    const t0 = performance.now();
    const refused = await Promise.all(Array.from({ length: 6 }, save));
    const waited = performance.now() - t0;
    expect(refused.map((r) => r.statusCode)).toEqual(Array(6).fill(503));
    // Six busy waits of 1 s in a row before; now none of them waits it again.
    expect(waited).toBeLessThan(1500);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  // Once the lock is gone, writes are taken again.
  await pollUntil('a progress save to be taken again', async () => {
    const saved = await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}/read-progress`, headers: server.admin, payload: { page: 2 } });
    return saved.statusCode === 204;
  }, { timeoutMs: 10_000 });
  expect((await server.json<BookDto>(`/api/v1/books/${book.id}`)).readProgress?.page).toBe(2);
});
