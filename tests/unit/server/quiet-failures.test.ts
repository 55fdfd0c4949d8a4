import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { logFilePath } from '../../../server/logging.ts';
import { GREEN, createCbz, createSampleLibrary, renderPage, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Failures that used to end in nothing: each is now either refused as what it is, or logged with
 * the path it concerns, so an administrator can tell what happened.
 */

let server: TestServer;
let sample: SampleLibrary;
let events: FolioEvent[];
beforeEach(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  sample = await createSampleLibrary(join(server.dir, 'library'));
  // A poster beside Alpha 01 (local artwork) that becomes its sidecar at the scan.
  await writeFile(join(sample.series[0]!.path, 'Alpha 01.png'), await renderPage({ width: 20, height: 30, color: GREEN, format: 'png' }));
  await addLibrary(server, sample.root);
  events = [];
  server.app.folio.events.subscribe((e) => events.push(e));
});
afterEach(async () => {
  await server.close();
});

type LogLine = { level: number; msg: string; err?: { message: string } };
/** The warnings and errors written to the log file (read once the server has closed and flushed it). */
async function loggedProblems(): Promise<LogLine[]> {
  await server.app.close();
  return (await readFile(logFilePath(server.dataDir), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.level >= 40);
}

const bookNamed = async (name: string) => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.find((b) => b.name === name)!;
const seriesNamed = async (name: string) => (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.find((s) => s.name === name)!;

async function importOne(book: object): Promise<{ success: boolean; message: string | null } | undefined> {
  const response = await server.app.inject({ method: 'POST', url: '/api/v1/books/import', headers: server.admin, payload: { books: [book], copyMode: 'COPY' } });
  expect(response.statusCode).toBe(202);
  await server.app.folio.tasks.idle();
  return events.find((e) => e.name === 'BookImported')?.data as { success: boolean; message: string | null } | undefined;
}

describe('deleting a book whose sidecar poster cannot be removed', () => {
  it('deletes the book and logs the poster left behind with its path', async () => {
    const book = await bookNamed('Alpha 01');
    const sidecar = join(sample.series[0]!.path, 'Alpha 01.png');
    expect((await server.json<{ type: string }[]>(`/api/v1/books/${book.id}/thumbnails`)).map((t) => t.type)).toContain('SIDECAR');
    // A folder where the poster was: rm refuses it (not a file), as it would a file it may not remove.
    await rm(sidecar);
    await mkdir(sidecar);

    const response = await server.app.inject({ method: 'DELETE', url: `/api/v1/books/${book.id}/file`, headers: server.admin });
    expect(response.statusCode).toBe(202);
    expect((await server.json<BookDto>(`/api/v1/books/${book.id}`)).deleted).toBe(true);
    const problems = await loggedProblems();
    expect(problems).toContainEqual(expect.objectContaining({ msg: expect.stringContaining(sidecar) }));
  });
});

describe('importing a book', () => {
  it('logs a source that exists but cannot be read (a link loop), beside the ERR_1018 it answers', async () => {
    const alpha = await seriesNamed('Alpha');
    const loop = join(server.dir, 'loop.cbz');
    await symlink(loop, loop);
    expect(await importOne({ sourceFile: loop, seriesId: alpha.id })).toMatchObject({ success: false, message: 'ERR_1018' });
    expect(await loggedProblems()).toContainEqual(expect.objectContaining({ msg: expect.stringContaining(loop) }));
  });

  it('never replaces a link that stands at the destination, even one leading nowhere', async () => {
    const alpha = await seriesNamed('Alpha');
    const source = join(server.dir, 'inbox', 'Alpha 03.cbz');
    await createCbz(source, [{ width: 50, height: 70, color: GREEN, format: 'png' }]);
    const destination = join(sample.series[0]!.path, 'Alpha 03.cbz');
    await symlink(destination, destination);
    expect(await importOne({ sourceFile: source, seriesId: alpha.id })).toMatchObject({ success: false, message: 'ERR_1021' });
  });
});
