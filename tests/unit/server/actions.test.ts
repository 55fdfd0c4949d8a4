import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { startScanScheduler } from '../../../server/domain/tasks/scan-scheduler.ts';
import { RED, createCbz, createSampleLibrary, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let sample: SampleLibrary;
let library: LibraryDto;
beforeEach(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
  await createCbz(join(sample.root, 'Info', 'info.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }], {
    comicInfo: { title: 'From ComicInfo' },
  });
  library = await addLibrary(server, sample.root);
});
afterEach(async () => {
  vi.useRealTimers();
  await server.close();
});

const post = (url: string) => server.app.inject({ method: 'POST', url, headers: server.admin });
const bookNamed = async (name: string) =>
  (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.find((b) => b.name === name)!;

describe('analyse and refresh actions', () => {
  it('re-analyses a book on request', async () => {
    const book = await bookNamed('Alpha 01');
    server.app.folio.db.prepare(`UPDATE media SET status = 'ERROR', page_count = 0 WHERE book_id = ?`).run(book.id);
    expect((await post(`/api/v1/books/${book.id}/analyze`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect((await bookNamed('Alpha 01')).media).toMatchObject({ status: 'READY', pagesCount: 3 });
  });

  it('re-imports metadata for a series and a library', async () => {
    const book = await bookNamed('info');
    server.app.folio.db.prepare(`UPDATE book_metadata SET title = 'Edited' WHERE book_id = ?`).run(book.id);
    expect((await post(`/api/v1/series/${book.seriesId}/metadata/refresh`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect((await bookNamed('info')).metadata.title).toBe('From ComicInfo');
    server.app.folio.db.prepare(`UPDATE book_metadata SET title = 'Edited' WHERE book_id = ?`).run(book.id);
    expect((await post(`/api/v1/libraries/${library.id}/metadata/refresh`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect((await bookNamed('info')).metadata.title).toBe('From ComicInfo');
    expect((await post('/api/v1/books/unknown/analyze')).statusCode).toBe(404);
  });

  it('deep scan re-analyses every book', async () => {
    const before = server.app.folio.repos.media.findByBookId((await bookNamed('Beta 01')).id)!.lastModified;
    // The server's clock (a fake Date in this process) reads a second later, so a new analysis
    // carries a later stamp.
    vi.useFakeTimers({ toFake: ['Date'], now: before + 1_000 });
    try {
      expect((await post(`/api/v1/libraries/${library.id}/scan?deep=true`)).statusCode).toBe(202);
      await server.app.folio.tasks.idle();
      expect(server.app.folio.repos.media.findByBookId((await bookNamed('Beta 01')).id)!.lastModified).toBeGreaterThan(before);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('trash', () => {
  it('empties the trash of deleted books and series', async () => {
    await rm(sample.series[1]!.books[0]!.path);
    await rescan(server, library.id);
    expect((await bookNamed('Beta 01')).deleted).toBe(true);
    expect((await post(`/api/v1/libraries/${library.id}/empty-trash`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect(await bookNamed('Beta 01')).toBeUndefined();
    const series = await server.json<Page<SeriesDto>>('/api/v1/series');
    expect(series.content.map((s) => s.name)).not.toContain('Beta');
  });

  it('empties it after each scan when the library says so', async () => {
    await server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${library.id}`, headers: server.admin, payload: { emptyTrashAfterScan: true } });
    await rm(sample.series[0]!.books[1]!.path);
    await rescan(server, library.id);
    expect(await bookNamed('Alpha 02')).toBeUndefined();
    expect(await bookNamed('Alpha 01')).toBeDefined();
  });
});

describe('task queue and scheduling', () => {
  it('cancels queued tasks and answers their number', async () => {
    const response = await server.app.inject({ method: 'DELETE', url: '/api/v1/tasks', headers: server.admin });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toBe(0);
  });

  it('scans libraries flagged scanOnStartup when the server starts', async () => {
    await server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${library.id}`, headers: server.admin, payload: { scanOnStartup: true } });
    await server.app.close();
    await createCbz(join(sample.root, 'Late', 'late.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    server = await startServer({ claim: false, dir: server.dir });
    await server.app.folio.tasks.idle();
    expect((await bookNamed('late')).media.status).toBe('READY');
  });

  it('rescans a library when its interval has passed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] });
    const submit = vi.spyOn(server.app.folio.tasks, 'submit').mockReturnValue(true);
    await server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${library.id}`, headers: server.admin, payload: { scanInterval: 'HOURLY' } });
    const stop = startScanScheduler(server.app.folio, 60_000);
    vi.advanceTimersByTime(30 * 60_000);
    expect(submit.mock.calls.filter((c) => c[0] === 'ScanLibrary')).toHaveLength(0);
    vi.advanceTimersByTime(31 * 60_000);
    expect(submit.mock.calls.filter((c) => c[0] === 'ScanLibrary').map((c) => c[1])).toEqual([`ScanLibrary:${library.id}`]);
    stop();
    submit.mockRestore();
  });
});

describe('scheduled scans across restarts', () => {
  // Counting from each start, a server restarted daily never reached a weekly (or here hourly) scan.
  it('counts a library\'s interval from its last scan, not from the server\'s start', async () => {
    await server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${library.id}`, headers: server.admin, payload: { scanInterval: 'HOURLY' } });
    await server.app.close();
    await createCbz(join(sample.root, 'Late', 'late.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    // Restarted 50 minutes after the library's last scan.
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'], now: Date.now() + 50 * 60_000 });
    server = await startServer({ claim: false, dir: server.dir });
    const stop = startScanScheduler(server.app.folio, 60_000);
    try {
      vi.advanceTimersByTime(11 * 60_000);
      await server.app.folio.tasks.idle();
      expect((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => b.name)).toContain('late');
    } finally {
      stop();
    }
  });
});

describe('file hashes', () => {
  it('hashes book files after analysis and again after they change', async () => {
    const { createHash } = await import('node:crypto');
    const { readFile, utimes } = await import('node:fs/promises');
    const path = sample.series[0]!.books[0]!.path;
    const md5 = async () => createHash('md5').update(await readFile(path)).digest('hex');
    expect((await bookNamed('Alpha 01')).fileHash).toBe(await md5());
    await createCbz(path, [{ width: 12, height: 12, color: RED, format: 'png' }]);
    const later = new Date(Date.now() + 20_000);
    await utimes(path, later, later);
    await rescan(server, library.id);
    expect((await bookNamed('Alpha 01')).fileHash).toBe(await md5());
  });

  it('leaves hashes empty when the library turns hashing off', async () => {
    const root = join(server.dir, 'nohash');
    await createCbz(join(root, 'S', 'one.cbz'), [{ width: 12, height: 12, color: RED, format: 'png' }]);
    const response = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'NoHash', root, hashFiles: false } });
    expect(response.statusCode).toBe(200);
    await server.app.folio.tasks.idle();
    expect((await bookNamed('one')).fileHash).toBe('');
  });
});
