import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCbz } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';
import { submitLibraryScan } from '../../../server/domain/tasks/library-tasks.ts';

/*
 * A scan failing because another process holds the database's write lock has one owner of its
 * retry: the task queue, which puts it off and runs it again. The scan's own retry timer (kept for
 * other failures) ran it a second time on top.
 */

let server: TestServer;
let libraryId: string;
const root = () => join(server.dir, 'library');
beforeAll(async () => {
  server = await startServer();
  await createCbz(join(root(), 'S', 'One.cbz'), [{ width: 60, height: 80, color: [200, 20, 20], format: 'jpeg' }]);
  libraryId = (await addLibrary(server, root())).id;
}, 60_000);
afterAll(async () => {
  await server.close();
});

it('runs a scan that failed on a locked database once more, not twice', async () => {
  const tasks = server.app.folio.tasks;
  const runs: boolean[] = [];
  const stop = tasks.onTaskDone((type, _ms, failed) => {
    if (type === 'ScanLibrary') runs.push(failed);
  });
  try {
    await createCbz(join(root(), 'S', 'Two.cbz'), [{ width: 60, height: 80, color: [20, 200, 20], format: 'jpeg' }]);
    const other = new Database(join(server.dataDir, 'folio.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
    try {
      submitLibraryScan(server.app.folio, libraryId);
      await pollUntil('the scan to fail on the lock', () => runs.length > 0, { timeoutMs: 30_000 });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(runs).toEqual([true]);
    // idle() waits for put-off tasks too; the scan's own retry (1 s) came before the put-off (2 s).
    await tasks.idle();
    expect(runs).toEqual([true, false]);
    // And the run that went through found the book added meanwhile.
    expect((await server.json<{ totalElements: number }>('/api/v1/books?size=1')).totalElements).toBe(2);
  } finally {
    stop();
  }
}, 60_000);
