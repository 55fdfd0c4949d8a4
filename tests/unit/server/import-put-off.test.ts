import Database from 'better-sqlite3';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { GREEN, createCbz, createSampleLibrary } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * A book import that meets another process's write lock on the database (here a second connection
 * holding a write transaction, as the sqlite3 tool would) used to end at once as a failed import,
 * ERR_1022, although the file had already been moved into its series folder: the source gone and no
 * book for it until the next scan. Like every task, it is now put off and run again once the lock is
 * gone, going on from the placed file, and ends as one successful BookImported.
 */

let server: TestServer;
let events: FolioEvent[];
beforeEach(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  events = [];
  server.app.folio.events.subscribe((e) => events.push(e));
});
afterEach(async () => server.close());

it('puts an import that meets a locked database off and finishes it once the lock is gone', async () => {
  const sample = await createSampleLibrary(join(server.dir, 'library'));
  await addLibrary(server, sample.root);
  const alpha = (await server.json<Page<SeriesDto>>('/api/v1/series')).content.find((s) => s.name === 'Alpha')!;
  const source = join(server.dir, 'inbox', 'locked.cbz');
  await createCbz(source, [{ width: 50, height: 70, color: GREEN, format: 'png' }]);

  const other = new Database(join(server.dataDir, 'folio.sqlite'));
  other.exec('BEGIN IMMEDIATE');
  other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
  try {
    const response = await server.app.inject({ method: 'POST', url: '/api/v1/books/import', headers: server.admin, payload: { books: [{ sourceFile: source, seriesId: alpha.id }], copyMode: 'MOVE' } });
    expect(response.statusCode).toBe(202);
    await pollUntil('the import to be put off', async () => (await loggedLines(server)).some((l) => l.includes('tasks put off')));
    expect(events.filter((e) => e.name === 'BookImported')).toEqual([]);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  const imported = await pollUntil('the import to end', () => events.find((e) => e.name === 'BookImported'), { timeoutMs: 30_000 });
  expect(imported.data).toMatchObject({ success: true, sourceFile: source, message: null });
  await server.app.folio.tasks.idle();
  expect(events.filter((e) => e.name === 'BookImported')).toHaveLength(1);
  await expect(access(source)).rejects.toThrow();
  const books = (await server.json<Page<BookDto>>(`/api/v1/series/${alpha.id}/books`)).content;
  expect(books.find((b) => b.name === 'locked')?.id).toBe((imported.data as { bookId: string }).bookId);
}, 60_000);
