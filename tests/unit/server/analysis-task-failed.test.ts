import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { GREEN, createCbz } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/**
 * An analysis an administrator asks for that records nothing (the file went since the scan) sent
 * no event at all: the media analysis screen said "Analysis started" until it was reloaded. It is
 * now announced to administrators as TaskFailed, with the book and why.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

it('an analysis whose book file is gone is announced as TaskFailed (book-changed), to administrators only', async () => {
  const path = join(server.dir, 'library', 'Gone', 'Gone 01.cbz');
  await createCbz(path, [{ width: 40, height: 60, color: GREEN, format: 'png' }]);
  await addLibrary(server, join(server.dir, 'library'));
  await server.app.folio.tasks.idle();
  const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
  await rm(path);

  const heard: FolioEvent[] = [];
  const stop = server.app.folio.events.subscribe((event) => {
    if (event.name === 'TaskFailed' || event.name === 'BookChanged') heard.push(event);
  });
  try {
    const asked = await server.app.inject({ method: 'POST', url: `/api/v1/books/${book!.id}/analyze`, headers: server.admin });
    expect(asked.statusCode).toBe(202);
    await server.app.folio.tasks.idle();
  } finally {
    stop();
  }
  expect(heard).toEqual([{ name: 'TaskFailed', data: { taskType: 'AnalyzeBook', bookId: book!.id, reason: 'book-changed' }, adminOnly: true }]);
});
