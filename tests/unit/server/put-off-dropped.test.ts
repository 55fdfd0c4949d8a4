import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { putOffLimits } from '../../../server/domain/tasks/task-queue.ts';
import { createCbz } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * A task put off because the database cannot be written (here another process holds its lock) was
 * retried for ever. Past putOffLimits.giveUpMs (an hour; here 1 s, so the second failure drops it)
 * it is dropped with an ERROR naming it, and nothing stored changes for it: the books keep their
 * state, and the task keeps its stored row, so the next start runs it.
 */

const { giveUpMs } = putOffLimits;
let dir: string;
let server: TestServer | undefined;
afterEach(async () => {
  putOffLimits.giveUpMs = giveUpMs;
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tasks put off past the limit', () => {
  it('are dropped with an ERROR naming them; books unchanged, their stored rows run at the next start', { timeout: 120_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-put-off-dropped-'));
    server = await startServer({ dir, logLevel: 'warn', logStdout: false });
    const root = join(dir, 'library');
    for (const n of [1, 2]) await createCbz(join(root, 'Series', `Book ${n}.cbz`), [{ width: 30, height: 40, color: [n * 60, 80, 120], format: 'png' }]);
    const library = await addLibrary(server, root);
    const ctx = server.app.folio;
    await ctx.tasks.idle();
    const before = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content;
    expect(before.map((b) => b.media.status)).toEqual(['READY', 'READY']);
    const mediaBefore = before.map((b) => ctx.repos.media.findByBookId(b.id));

    // The analyses are queued and stored while the workers are held, then meet the lock.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    for (let i = 0; i < ctx.tasks.workers; i++) ctx.tasks.submit('ScanLibrary', `holder-${i}`, () => held, 100);
    const analyse = await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/analyze`, headers: server.admin });
    expect(analyse.statusCode).toBe(202);
    const stored = () => (ctx.db.prepare("SELECT key FROM task WHERE type = 'AnalyzeBook' ORDER BY key").all() as { key: string }[]).map((r) => r.key);
    expect(stored()).toHaveLength(2);
    putOffLimits.giveUpMs = 1_000;
    const other = new Database(join(server.dataDir, 'folio.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
    try {
      release();
      await ctx.tasks.idle();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const dropped = (await loggedLines(server)).filter((line) => line.includes('dropped after being put off'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatch(/"level":50/);
    expect(dropped[0]).toMatch(/the database cannot be written now: 2 task\(s\) dropped after being put off for 1 s; stored ones run again at the next start: AnalyzeBook AnalyzeBook:\w+ \(2 tries\), AnalyzeBook AnalyzeBook:\w+ \(2 tries\)/);
    // Nothing stored changed for it: the books as they were, the rows still there.
    expect(before.map((b) => ctx.repos.media.findByBookId(b.id))).toEqual(mediaBefore);
    expect(stored()).toHaveLength(2);

    // The next start runs them.
    await server.close();
    server = await startServer({ dir, logLevel: 'warn', logStdout: false, claim: false });
    const restarted = server.app.folio;
    await pollUntil('the stored analyses to run', () => (restarted.db.prepare("SELECT count(*) AS n FROM task WHERE type = 'AnalyzeBook'").get() as { n: number }).n === 0);
    for (const [i, book] of before.entries()) expect(restarted.repos.media.findByBookId(book.id)!.lastModified).toBeGreaterThan(mediaBefore[i]!.lastModified);
  });
});
