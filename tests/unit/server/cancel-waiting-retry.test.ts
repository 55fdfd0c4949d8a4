import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { analysisRetry } from '../../../server/domain/tasks/library-tasks.ts';
import { xmlWorker } from '../../../server/media/xml-parsing.ts';
import { BLUE, createCbz, RED } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';

/*
 * An analysis whose ComicInfo import was put off waits on its own timer to be tried again (the book
 * unreadable meanwhile). "Cancel all tasks" did not end that wait: it answered 0, the retry ran
 * anyway, its stored row stayed (a restart ran it again), the task counts never showed it, and a
 * screen waiting for the analysis heard nothing. Cancel now ends it as it ends a queued task.
 */

const page = { width: 40, height: 60, color: RED, format: 'png' as const };
/** Empty elements: a ComicInfo.xml the XML worker takes long enough over to be stopped under. */
const filler = (chars: number) => '<x/>'.repeat(Math.ceil(chars / 4));

let server: TestServer;
const defaults = { ...analysisRetry };
beforeEach(async () => {
  // A retry that does not come during the test.
  Object.assign(analysisRetry, { baseMs: 600_000, maxMs: 600_000, backOffSteps: 1 });
  server = await startServer();
});
afterEach(async () => {
  Object.assign(analysisRetry, defaults);
  await server.close();
});

const books = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;

it('"cancel all tasks" ends an analysis waiting to retry its put-off import: counted, announced, not run again', async () => {
  const root = join(server.dir, 'lib');
  await createCbz(join(root, 'Rated', 'Rated 1.cbz'), [page, { ...page, color: BLUE }], {
    comicInfo: `<?xml version="1.0"?><ComicInfo><Title>Imported</Title><AgeRating>Adults Only 18+</AgeRating>${filler(1024 * 1024 - 1024)}</ComicInfo>`,
  });
  const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Books', root, scanOnStartup: false } });
  expect(created.statusCode).toBe(200);
  await pollUntil('the import in the XML worker', () => xmlWorker.inFlight(), { intervalMs: 2 });
  await xmlWorker.stop();
  await server.app.folio.tasks.idle();
  const [book] = await books();
  expect(book!.media.status).not.toBe('READY');
  const { tasks, events } = server.app.folio;
  // The wait is a task in hand: the admin's task counts (and a screen waiting for the analysis) see it.
  expect(tasks.status()).toEqual({ count: 1, countByType: { AnalyzeBook: 1 } });

  const heard: FolioEvent[] = [];
  const unsubscribe = events.subscribe((event) => heard.push(event));
  try {
    const cancelled = await server.app.inject({ method: 'DELETE', url: '/api/v1/tasks', headers: server.admin });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.body).toBe('1');
    await pollUntil('the queue status after the cancel', () => heard.some((e) => e.name === 'TaskQueueStatus' && e.data.count === 0));
  } finally {
    unsubscribe();
  }
  expect(tasks.status()).toEqual({ count: 0, countByType: {} });
  expect(heard.filter((e) => e.name === 'TaskFailed')).toEqual([{ name: 'TaskFailed', data: { taskType: 'AnalyzeBook', bookId: book!.id, reason: 'cancelled' }, adminOnly: true }]);
  // Its stored row went too: started again on the same data folder (no scan), nothing runs it.
  const dir = server.dir;
  await server.app.close();
  server = await startServer({ dir, claim: false });
  await server.app.folio.tasks.idle();
  const [after] = await books();
  expect(after!.media.status).toBe('UNKNOWN');
  await server.close();
  await rm(dir, { recursive: true, force: true });
  server = await startServer();
});
