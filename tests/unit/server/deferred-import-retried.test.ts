import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { analysisRetry } from '../../../server/domain/tasks/library-tasks.ts';
import { xmlWorker } from '../../../server/media/xml-parsing.ts';
import { BLUE, createCbz, RED } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';

/*
 * A readable book is made READY only once its ComicInfo is imported (its rating may hide it from a
 * restricted reader). When that import is put off (the server short of descriptors, handles or
 * worker slots) the book stays unreadable for everyone until the analysis is retried, so the retry
 * must not end while the import keeps being put off: before, it gave up after a fixed number of
 * tries and the book stayed unreadable until a scan, never with scheduled scans disabled.
 */

const page = { width: 40, height: 60, color: RED, format: 'png' as const };
/** Empty elements: a ComicInfo.xml the XML worker takes long enough over to be stopped under. */
const filler = (chars: number) => '<x/>'.repeat(Math.ceil(chars / 4));

let server: TestServer;
const defaults = { ...analysisRetry };
beforeEach(async () => {
  // Back-off of a few milliseconds, and its ceiling reached after one retry.
  Object.assign(analysisRetry, { baseMs: 1, maxMs: 20, backOffSteps: 1 });
  server = await startServer();
});
afterEach(async () => {
  Object.assign(analysisRetry, defaults);
  await server.close();
});

const books = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;

describe('a put-off metadata import', () => {
  it('is retried until it is done, however many times it is put off, and the book then becomes READY', async () => {
    const root = join(server.dir, 'lib');
    await createCbz(join(root, 'Rated', 'Rated 1.cbz'), [page, { ...page, color: BLUE }], {
      comicInfo: `<?xml version="1.0"?><ComicInfo><Title>Imported</Title><AgeRating>Adults Only 18+</AgeRating>${filler(1024 * 1024 - 1024)}</ComicInfo>`,
    });
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Books', root } });
    expect(created.statusCode).toBe(200);
    // Three imports in a row cut short (the worker stopped under the parse): more than the back-off's steps.
    for (let n = 1; n <= 3; n++) {
      await pollUntil(`import ${n} in the XML worker`, () => xmlWorker.inFlight(), { intervalMs: 2, timeoutMs: 10_000 });
      await xmlWorker.stop();
      const [book] = await books();
      expect(book!.media.status, `after import ${n} was cut short`).not.toBe('READY');
    }
    const ready = await pollUntil('the book READY after the fourth import', async () => {
      const [book] = await books();
      return book!.media.status === 'READY' && book;
    });
    expect(ready.metadata.title).toBe('Imported');
    const series = await server.json<{ metadata: { ageRating: number | null } }>(`/api/v1/series/${ready.seriesId}`);
    expect(series.metadata.ageRating).toBe(18);
  });

  it('is run again at the next start when the server stops while the retry waits', async () => {
    // A retry that does not come before the stop.
    Object.assign(analysisRetry, { baseMs: 600_000, maxMs: 600_000 });
    const root = join(server.dir, 'lib');
    await createCbz(join(root, 'Rated', 'Rated 1.cbz'), [page, { ...page, color: BLUE }], {
      comicInfo: `<?xml version="1.0"?><ComicInfo><Title>Imported</Title><AgeRating>Adults Only 18+</AgeRating>${filler(1024 * 1024 - 1024)}</ComicInfo>`,
    });
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Books', root, scanOnStartup: false } });
    expect(created.statusCode).toBe(200);
    await pollUntil('the import in the XML worker', () => xmlWorker.inFlight(), { intervalMs: 2 });
    await xmlWorker.stop();
    await server.app.folio.tasks.idle();
    const [before] = await books();
    expect(before!.media.status).not.toBe('READY');
    // Stopped, and started again on the same data folder: no scan, the retry's timer gone with the process.
    const dir = server.dir;
    await server.app.close();
    server = await startServer({ dir, claim: false });
    const ready = await pollUntil('the book READY after the restart', async () => {
      const [book] = await books();
      return book!.media.status === 'READY' && book;
    }, { timeoutMs: 15_000 });
    expect(ready.metadata.title).toBe('Imported');
    // This second server keeps the first one's folder: remove it, and leave afterEach a server to close.
    await server.close();
    await rm(dir, { recursive: true, force: true });
    server = await startServer();
  });
});
