import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { IMPORT_CANCELLED_PREFIX, IMPORT_GIVEN_UP_PREFIX } from '../../../src/api/bookImport.ts';
import type { Page, SeriesDto } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { IMPORT_CANCELLED, IMPORT_GIVEN_UP } from '../../../server/domain/import/import-task.ts';
import { putOffLimits } from '../../../server/domain/tasks/task-queue.ts';
import { GREEN, createCbz, createSampleLibrary } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * An import is announced to the import screen by one BookImported per file. One put off (a locked
 * database, a shortage of descriptors) for longer than the task queue waits (putOffLimits, an hour)
 * was dropped with no BookImported at all, and so was one waiting in the queue when an
 * administrator cancelled all tasks: the screen waited for ever and the log named no file. Both now
 * end in a failed BookImported saying why, and a log line naming the file.
 */

const { giveUpMs } = putOffLimits;
let server: TestServer;
let events: FolioEvent[];
beforeEach(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  events = [];
  server.app.folio.events.subscribe((e) => events.push(e));
});
afterEach(async () => {
  putOffLimits.giveUpMs = giveUpMs;
  await server.close();
});

/** A library with series Alpha and a file to import into it; returns the file and how to ask for its import. */
async function prepare(name: string): Promise<{ source: string; start: () => Promise<void> }> {
  const sample = await createSampleLibrary(join(server.dir, 'library'));
  await addLibrary(server, sample.root);
  const alpha = (await server.json<Page<SeriesDto>>('/api/v1/series')).content.find((s) => s.name === 'Alpha')!;
  const source = join(server.dir, 'inbox', `${name}.cbz`);
  await createCbz(source, [{ width: 50, height: 70, color: GREEN, format: 'png' }]);
  return { source, start: () => startImport(source, alpha.id) };
}

async function startImport(source: string, seriesId: string): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: '/api/v1/books/import', headers: server.admin, payload: { books: [{ sourceFile: source, seriesId }], copyMode: 'MOVE' } });
  expect(response.statusCode).toBe(202);
}

it('an import put off past the limit ends in a failed BookImported saying so, and a log line naming the file', async () => {
  // Dropped the first time it is put off.
  putOffLimits.giveUpMs = 0;
  const { source, start } = await prepare('locked');
  const other = new Database(join(server.dataDir, 'folio.sqlite'));
  let imported: FolioEvent;
  try {
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
    await start();
    imported = await pollUntil('the import to end', () => events.find((e) => e.name === 'BookImported'), { timeoutMs: 30_000 });
  } finally {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
  }
  expect(imported.data).toEqual({ bookId: null, sourceFile: source, success: false, message: `${IMPORT_GIVEN_UP}: the database cannot be written now` });
  const line = (await loggedLines(server)).find((l) => l.includes('book import given up'));
  expect(line).toContain(source);
  expect(line).toContain('"tries":1');
  await server.app.folio.tasks.idle();
  expect(events.filter((e) => e.name === 'BookImported')).toHaveLength(1);
}, 60_000);

it('an import still queued when all tasks are cancelled ends in a failed BookImported', async () => {
  const { tasks } = server.app.folio;
  const { source, start } = await prepare('queued');
  // Every worker held, so the import waits in the queue.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  for (let i = 0; i < tasks.workers; i++) tasks.submit('ScanLibrary', `holder-${i}`, () => held, 100);
  try {
    await start();
    expect(tasks.status().countByType.ImportBook).toBe(1);
    const cancelled = await server.app.inject({ method: 'DELETE', url: '/api/v1/tasks', headers: server.admin });
    expect(cancelled.body).toBe('1');
    expect(events.filter((e) => e.name === 'BookImported').map((e) => e.data)).toEqual([{ bookId: null, sourceFile: source, success: false, message: IMPORT_CANCELLED }]);
  } finally {
    release();
  }
});

it("the messages start as Folio's client recognises them (src/api/bookImport.ts)", () => {
  expect(IMPORT_GIVEN_UP.startsWith(IMPORT_GIVEN_UP_PREFIX)).toBe(true);
  expect(IMPORT_CANCELLED.startsWith(IMPORT_CANCELLED_PREFIX)).toBe(true);
});
