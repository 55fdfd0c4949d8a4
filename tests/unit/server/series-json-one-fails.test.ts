import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { logFilePath } from '../../../server/logging.ts';
import { refreshLibrarySeriesMetadata } from '../../../server/domain/metadata/metadata-refresh.ts';
import { SeriesJsonReads } from '../../../server/domain/metadata/series-json-reads.ts';
import { putOffReason } from '../../../server/domain/tasks/put-off.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * A scan imports every series' series.json (refreshLibrarySeriesMetadata) before it queues the
 * analyses of its new books. One series whose import failed for a reason of its own ended the whole
 * scan task there: the other series were left as they were and the new books were never analysed.
 * Now that series is logged with its file and the rest goes on; a failure of the server (a locked
 * database) still puts the task off as a whole.
 *
 * The failure here is real: a trigger another tool left in the database refuses one series'
 * metadata update (SQLITE_CONSTRAINT_TRIGGER), as no file input can make the import throw (every
 * unusable series.json is skipped where it is read).
 */

let server: TestServer;
let root: string;
const FOLDERS = ['Alpha', 'Beta', 'Gamma'];
const seriesJson = (name: string) => JSON.stringify({ version: '1.0.2', metadata: { type: 'comicSeries', name, publisher: 'Image', status: 'Continuing' } });

beforeEach(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  root = join(server.dir, 'library');
  for (const folder of FOLDERS) {
    await createCbz(join(root, folder, `${folder} 001.cbz`), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    await writeFile(join(root, folder, 'series.json'), seriesJson(`${folder} first`));
  }
});
afterEach(async () => server.close());

const seriesByFolder = async () => new Map((await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.map((s) => [s.name, s]));

/** A second connection, as another tool: its trigger refuses every metadata update of that series. */
function refuseUpdatesOf(seriesId: string): void {
  const other = new Database(join(server.dataDir, 'folio.sqlite'));
  try {
    other.exec(`CREATE TRIGGER refuse_one_series BEFORE UPDATE ON series_metadata WHEN NEW.series_id = '${seriesId}' BEGIN SELECT RAISE(ABORT, 'refused by another tool'); END`);
  } finally {
    other.close();
  }
}

it("logs the series whose import fails and goes on with the library's other series and the scan's new books", async () => {
  const library = await addLibrary(server, root);
  const before = await seriesByFolder();
  expect(FOLDERS.map((folder) => before.get(folder)!.metadata.title)).toEqual(['Alpha first', 'Beta first', 'Gamma first']);
  // The middle series (whichever order the library's series come in, one at least is after it).
  const failing = before.get('Beta')!;
  refuseUpdatesOf(failing.id);
  for (const folder of FOLDERS) await writeFile(join(root, folder, 'series.json'), seriesJson(`${folder} second`));
  await createCbz(join(root, 'Delta', 'Delta 001.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);

  await rescan(server, library.id);

  const after = await seriesByFolder();
  expect(FOLDERS.map((folder) => after.get(folder)!.metadata.title)).toEqual(['Alpha second', 'Beta first', 'Gamma second']);
  // Queued after the series sources: before, the failure left it unanalysed.
  const delta = (await server.json<Page<BookDto>>(`/api/v1/series/${after.get('Delta')!.id}/books`)).content[0]!;
  expect(delta.media.status).toBe('READY');
  const lines = (await readFile(logFilePath(server.dataDir), 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toContainEqual(
    expect.objectContaining({
      level: 50,
      msg: expect.stringMatching(/^series metadata import failed/),
      libraryId: library.id,
      seriesId: failing.id,
      file: join(root, 'Beta', 'series.json'),
      err: expect.objectContaining({ message: 'refused by another tool' }),
    }),
  );
});

it('still ends on a locked database, so that the task queue puts the whole task off', async () => {
  const library = await addLibrary(server, root);
  for (const folder of FOLDERS) await writeFile(join(root, folder, 'series.json'), seriesJson(`${folder} second`));
  // Another process holds the write lock: the first series' update waits out the busy time, then fails.
  const other = new Database(join(server.dataDir, 'folio.sqlite'));
  other.exec('BEGIN IMMEDIATE');
  try {
    const failure = await refreshLibrarySeriesMetadata(server.app.folio, library.id, new SeriesJsonReads()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
    expect(putOffReason(failure)).toBe('the database cannot be written now');
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
});
