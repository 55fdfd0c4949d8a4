import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookDto, LibraryDto, Page } from '../../../src/api/types.ts';
import { submitBarcodeSearch, submitBookAnalysis, submitLibraryScan, submitMetadataRefresh } from '../../../server/domain/tasks/library-tasks.ts';
import { TaskQueue } from '../../../server/domain/tasks/task-queue.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

let dir: string;
let server: TestServer;
let library: LibraryDto;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-tasks-'));
  server = await startServer({ dir });
  library = await addLibrary(server, (await createSampleLibrary(join(dir, 'library'))).root);
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const storedKeys = (s: TestServer) =>
  s.app.folio.db.prepare('SELECT key FROM task ORDER BY key').pluck().all() as string[];

/** Occupies the only worker slots so that what is submitted next stays queued. */
function blockWorkers(s: TestServer, workers = 2): () => void {
  const releases: (() => void)[] = [];
  for (let i = 0; i < workers; i++) {
    s.app.folio.tasks.submit('ScanLibrary', `blocker-${i}`, () => new Promise<void>((resolve) => releases.push(resolve)), 100);
  }
  return () => releases.forEach((r) => r());
}

describe('persistent task queue', () => {
  it('stores queued tasks once each and runs them again after a restart', async () => {
    const ctx = server.app.folio;
    const book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
    const release = blockWorkers(server);
    submitBookAnalysis(ctx, book.id);
    submitBookAnalysis(ctx, book.id); // identical: deduplicated
    submitLibraryScan(ctx, library.id, true);
    expect(storedKeys(server)).toEqual([`AnalyzeBook:${book.id}`, `ScanLibrary:${library.id}`]);
    expect(JSON.parse(ctx.db.prepare('SELECT payload FROM task WHERE type = ?').pluck().get('ScanLibrary') as string)).toEqual({
      libraryId: library.id,
      deep: true,
    });
    // The book must be analysed again when the task comes back.
    const media = ctx.repos.media.findByBookId(book.id)!;
    ctx.repos.media.update({ ...media, status: 'OUTDATED' });

    // Stop: the queue closes first (queued work stays stored), then the blockers end.
    const closing = ctx.tasks.close();
    release();
    await closing;
    await server.close();

    server = await startServer({ dir, claim: false });
    expect(server.app.folio.tasks.status().count).toBeGreaterThan(0);
    await server.app.folio.tasks.idle();
    expect((await server.json<BookDto>(`/api/v1/books/${book.id}`)).media.status).toBe('READY');
    expect(storedKeys(server)).toEqual([]);
  });

  it('keeps a barcode search apart from a full metadata refresh of the same book, across a restart', async () => {
    const ctx = server.app.folio;
    await ctx.tasks.idle();
    const book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
    const release = blockWorkers(server);
    submitBarcodeSearch(ctx, book.id);
    // A refresh asked meanwhile is queued too: the barcode search alone would not re-read ComicInfo.
    submitMetadataRefresh(ctx, book.id);
    expect(storedKeys(server)).toEqual([`BarcodeIsbn:${book.id}`, `RefreshBookMetadata:${book.id}`]);
    expect(JSON.parse(ctx.db.prepare('SELECT payload FROM task WHERE key = ?').pluck().get(`BarcodeIsbn:${book.id}`) as string)).toEqual({
      bookId: book.id,
      barcodeOnly: true,
    });
    const closing = ctx.tasks.close();
    release();
    await closing;
    await server.close();

    // Both come back after a restart, run, and leave the store.
    server = await startServer({ dir, claim: false });
    await server.app.folio.tasks.idle();
    expect(storedKeys(server)).toEqual([]);
  });

  it('DELETE /api/v1/tasks cancels queued tasks, in the store too, and answers their number', async () => {
    const ctx = server.app.folio;
    const books = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    const release = blockWorkers(server);
    for (const b of books.slice(0, 3)) submitMetadataRefresh(ctx, b.id);
    expect(storedKeys(server)).toHaveLength(3);
    const response = await server.app.inject({ method: 'DELETE', url: '/api/v1/tasks', headers: server.admin });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('3');
    expect(storedKeys(server)).toEqual([]);
    release();
    await ctx.tasks.idle();
  });

  it('stores empty-trash requests too', async () => {
    const release = blockWorkers(server);
    const response = await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/empty-trash`, headers: server.admin });
    expect(response.statusCode).toBe(202);
    expect(storedKeys(server)).toEqual([`EmptyTrash:${library.id}`]);
    release();
    await server.app.folio.tasks.idle();
    expect(storedKeys(server)).toEqual([]);
  });

  it('keeps the stored row of an identical task queued while the first one runs', async () => {
    const saved: string[] = [];
    const removed: string[] = [];
    const queue = new TaskQueue(1);
    queue.persistTo({ save: (t) => saved.push(t.key), remove: (k) => removed.push(k) });
    let finish!: () => void;
    queue.submit('AnalyzeBook', 'AnalyzeBook:1', () => new Promise<void>((r) => (finish = r)), 0, { bookId: '1' });
    await Promise.resolve();
    queue.submit('AnalyzeBook', 'AnalyzeBook:1', async () => undefined, 0, { bookId: '1' });
    finish();
    await queue.idle();
    // The row goes only after the second run, never between the two.
    expect(saved).toEqual(['AnalyzeBook:1', 'AnalyzeBook:1']);
    expect(removed).toEqual(['AnalyzeBook:1']);
    // A failing task is not retried forever: its row goes too.
    queue.submit('HashBook', 'HashBook:2', () => Promise.reject(new Error('boom')), 0, { bookId: '2' });
    await queue.idle();
    expect(removed).toEqual(['AnalyzeBook:1', 'HashBook:2']);
  });

  // A scan stores the rows of the analyses it queues in one commit; an administrator's action on a
  // whole library queues as many tasks and must not pay one commit (one fsync) per book.
  for (const action of ['analyze', 'metadata/refresh'] as const) {
    it(`stores the tasks of a library's ${action} in one commit`, async () => {
      const ctx = server.app.folio;
      await ctx.tasks.idle();
      const release = blockWorkers(server);
      const saves: boolean[] = [];
      const store = ctx.repos.storedTasks;
      const save = store.save.bind(store);
      const spy = vi.spyOn(store, 'save').mockImplementation((task) => {
        saves.push(ctx.db.inTransaction);
        save(task);
      });
      try {
        const response = await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/${action}`, headers: server.admin });
        expect(response.statusCode).toBe(202);
        const books = (await server.json<Page<BookDto>>('/api/v1/books?size=1000')).content;
        expect(books.length).toBeGreaterThan(1);
        expect(saves).toEqual(books.map(() => true));
      } finally {
        spy.mockRestore();
        release();
      }
      await ctx.tasks.idle();
    });
  }

  it('commits the removal of an analysis\'s stored row with its follow-ups, so a crash between cannot run it twice', async () => {
    const ctx = server.app.folio;
    await ctx.tasks.idle();
    const book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
    // What a crash right after each commit would leave for the next start: the stored task rows.
    const committed: string[][] = [];
    const transaction = ctx.db.transaction.bind(ctx.db);
    const spy = vi.spyOn(ctx.db, 'transaction').mockImplementation(((fn: (...args: unknown[]) => unknown) => {
      const wrapped = transaction(fn);
      return (...args: unknown[]) => {
        const result = wrapped(...args);
        if (!ctx.db.inTransaction) committed.push(storedKeys(server));
        return result;
      };
    }) as typeof ctx.db.transaction);
    try {
      submitBookAnalysis(ctx, book.id);
      await ctx.tasks.idle();
    } finally {
      spy.mockRestore();
    }
    // The analysis queued a barcode search (the book has no ISBN), stored in one of those commits.
    const withFollowUp = committed.filter((keys) => keys.includes(`BarcodeIsbn:${book.id}`));
    expect(withFollowUp.length).toBeGreaterThan(0);
    for (const keys of withFollowUp) expect(keys).not.toContain(`AnalyzeBook:${book.id}`);
    expect(storedKeys(server)).toEqual([]);
  });

  it('lets a running task remove its stored row early, unless an identical task is queued, and again if it then fails', async () => {
    const removed: string[] = [];
    const queue = new TaskQueue(1);
    queue.persistTo({ save: () => undefined, remove: (k) => removed.push(k) });
    queue.submit('AnalyzeBook', 'AnalyzeBook:1', async () => queue.finishStored('AnalyzeBook:1'), 0, { bookId: '1' });
    await queue.idle();
    expect(removed).toEqual(['AnalyzeBook:1']); // once: not again when the task returns
    let again!: () => void;
    queue.submit('AnalyzeBook', 'AnalyzeBook:2', async () => {
      queue.submit('AnalyzeBook', 'AnalyzeBook:2', () => new Promise<void>((r) => (again = r)), 0, { bookId: '2' });
      queue.finishStored('AnalyzeBook:2');
    }, 0, { bookId: '2' });
    await expect.poll(() => again).toBeDefined();
    expect(removed).toEqual(['AnalyzeBook:1']); // the identical queued task owns the row
    again();
    await queue.idle();
    expect(removed).toEqual(['AnalyzeBook:1', 'AnalyzeBook:2']);
    queue.submit('HashBook', 'HashBook:3', async () => {
      queue.finishStored('HashBook:3');
      throw new Error('rolled back');
    }, 0, { bookId: '3' });
    await queue.idle();
    expect(removed).toEqual(['AnalyzeBook:1', 'AnalyzeBook:2', 'HashBook:3', 'HashBook:3']);
  });

  it('queues a task a worker requests by type through the registry the server registers', async () => {
    const ctx = server.app.folio;
    const book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
    await ctx.tasks.idle();
    const release = blockWorkers(server);
    ctx.tasks.request('AnalyzeBook', { bookId: book.id });
    expect(ctx.tasks.status().countByType.AnalyzeBook).toBe(1);
    expect(storedKeys(server)).toContain(`AnalyzeBook:${book.id}`);
    release();
    await ctx.tasks.idle();
  });

  it('refuses a request for a task type nobody registered', () => {
    const queue = new TaskQueue(1);
    expect(() => queue.request('HashBook', { bookId: '1' })).toThrow(/HashBook is not registered/);
    const requested: unknown[] = [];
    queue.define('HashBook', (payload) => requested.push(payload));
    queue.request('HashBook', { bookId: '1' });
    expect(requested).toEqual([{ bookId: '1' }]);
  });
});
