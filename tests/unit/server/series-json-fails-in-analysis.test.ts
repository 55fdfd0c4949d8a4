import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, loggedLines, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * An analysis imports the book's metadata once the book is recorded READY, series.json last. A
 * failure of that import of the source's own (here a trigger another tool left refuses the
 * series.json title; no file input makes the import throw) ended the analysis there: no webtoon
 * detection, no BookChanged event, no poster/hash follow-ups (the task failed). Now it is logged with the book, the series and the file, and the rest
 * of the analysis goes on. A failure of the server (a locked database) still puts the task off.
 */

let server: TestServer;
let root: string;
const seriesJson = (name: string) => JSON.stringify({ version: '1.0.2', metadata: { type: 'comicSeries', name, publisher: 'Image', status: 'Continuing' } });

beforeEach(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  root = join(server.dir, 'library');
  await createCbz(join(root, 'Strip', 'Strip 001.cbz'), [{ width: 40, height: 30, color: RED, format: 'png' }]);
  await writeFile(join(root, 'Strip', 'series.json'), seriesJson('Strip first'));
});
afterEach(async () => server.close());

/** A second connection, as another tool: its trigger refuses the series.json title `title`. */
function refuseTitle(title: string): void {
  const other = new Database(join(server.dataDir, 'folio.sqlite'));
  try {
    other.exec(`CREATE TRIGGER refuse_title BEFORE UPDATE ON series_metadata WHEN NEW.title = '${title}' BEGIN SELECT RAISE(ABORT, 'refused by another tool'); END`);
  } finally {
    other.close();
  }
}

it('logs a series.json import that fails inside an analysis, and the analysis still detects a webtoon, says BookChanged and queues its poster', async () => {
  const library = await addLibrary(server, root);
  const series = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content[0]!;
  expect(series.metadata).toMatchObject({ title: 'Strip first', readingDirection: '' });
  refuseTitle('Strip second');
  await writeFile(join(root, 'Strip', 'series.json'), seriesJson('Strip second'));
  // A new book of tall strips: its analysis makes the series WEBTOON.
  await createCbz(join(root, 'Strip', 'Strip 002.cbz'), [1, 2, 3].map(() => ({ width: 20, height: 80, color: RED, format: 'png' as const })));
  const events: FolioEvent[] = [];
  const stop = server.app.folio.events.subscribe((event: FolioEvent) => void events.push(event));
  try {
    await rescan(server, library.id);
  } finally {
    stop();
  }

  const books = (await server.json<Page<BookDto>>(`/api/v1/series/${series.id}/books?unpaged=true`)).content;
  const added = books.find((book) => book.name === 'Strip 002')!;
  expect(added.media).toMatchObject({ status: 'READY', pagesCount: 3 });
  const after = await server.json<SeriesDto>(`/api/v1/series/${series.id}`);
  expect(after.metadata).toMatchObject({ title: 'Strip first', readingDirection: 'WEBTOON' });
  expect(events).toContainEqual({ name: 'BookChanged', data: { bookId: added.id, seriesId: series.id, libraryId: library.id } });
  expect(server.app.folio.repos.thumbnails.findSelectedForBook(added.id)).toBeTruthy();
  const lines = (await loggedLines(server)).filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toContainEqual(
    expect.objectContaining({
      level: 50,
      msg: expect.stringMatching(/metadata import failed/),
      bookId: added.id,
      seriesId: series.id,
      source: 'series.json',
      file: join(root, 'Strip', 'series.json'),
      err: expect.objectContaining({ message: 'refused by another tool' }),
    }),
  );
});
