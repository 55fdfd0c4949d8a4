import Database from 'better-sqlite3';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.ts';
import { createCbz } from '../../fixtures/index.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/**
 * Background tasks while another process holds the database's write lock: a task whose write
 * fails then must neither kill the server nor be lost. Its failure used to be followed by removing
 * its stored row, which failed the same way, out of a `finally` nobody awaited: an unhandled
 * rejection, and Node ends the process.
 */
let dir: string;
let server: SpawnedServer | undefined;
afterEach(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

it('survives tasks failing on a locked database, and runs them once the lock is gone', async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-busy-tasks-'));
  const root = join(dir, 'library');
  const BOOKS = 40;
  for (let i = 0; i < BOOKS; i++) await createCbz(join(root, 'Series', `Book ${String(i).padStart(2, '0')}.cbz`), [{ width: 300, height: 400, color: [i * 5, 80, 120], format: 'jpeg' }]);
  server = await spawnServer(join(dir, 'data'));
  const cookie = await claimSession(server.url);
  const libraryId = await addLibraryAndWait(server.url, cookie, root, BOOKS);
  const db = join(dir, 'data', 'folio.sqlite');
  const query = <T>(sql: string): T => {
    const reader = new Database(db, { readonly: true });
    try {
      return reader.prepare(sql).get() as T;
    } finally {
      reader.close();
    }
  };
  const tasksLeft = () => query<{ n: number }>('SELECT count(*) AS n FROM task').n;
  const lockFailures = async () => ((await readFile(join(dir, 'data', 'logs', 'folio.log'), 'utf8')).match(/database is locked/g) ?? []).length;
  await pollUntil('the first scan\'s tasks done', () => tasksLeft() === 0, { timeoutMs: 60_000 });

  // Queued, stored, and running when the lock is taken.
  const asked = Date.now();
  await apiCall(server.url, cookie, `/api/v1/libraries/${libraryId}/analyze`, { method: 'POST' });
  const other = new Database(db);
  other.exec('BEGIN IMMEDIATE');
  other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
  try {
    // Until tasks have failed on the lock (the log says so), the server must still answer.
    await pollUntil('tasks to fail on the lock', async () => (await lockFailures()) >= 3 || server!.exited() !== null, { timeoutMs: 30_000 });
    // A book added meanwhile, and a scan asked for: accepted, and done once it can be.
    await createCbz(join(root, 'Series', 'Book new.cbz'), [{ width: 300, height: 400, color: [9, 9, 9], format: 'jpeg' }]);
    const scan = await fetch(`${server.url}/api/v1/libraries/${libraryId}/scan`, { method: 'POST', headers: { cookie, 'X-Requested-With': 'XMLHttpRequest' } });
    expect(scan.status).toBe(202);
    expect(server.exited(), server.stderr().slice(-2000)).toBeNull();
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  // Every analysis that failed is run again: the queue drains, every book still READY, the new one too.
  await pollUntil('the analyses to be run again', () => tasksLeft() === 0, { timeoutMs: 60_000 });
  expect(server.exited()).toBeNull();
  await pollUntil('the book added during the lock to be analysed', async () => (await apiCall<{ totalElements: number }>(server!.url, cookie, '/api/v1/books?media_status=READY&size=1')).totalElements === BOOKS + 1, { timeoutMs: 60_000 });
  const books = await apiCall<{ content: { media: { status: string } }[] }>(server.url, cookie, '/api/v1/books?size=100');
  expect(books.content.map((b) => b.media.status)).toEqual(Array(BOOKS + 1).fill('READY'));
  // None of the analyses asked for was dropped: every book was analysed after the request.
  expect(query<{ n: number }>(`SELECT count(*) AS n FROM media WHERE last_modified < ${asked}`).n).toBe(0);
}, 180_000);
