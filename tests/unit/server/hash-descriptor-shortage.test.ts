import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCbz } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';
import { hasPrlimit } from './support/process-files.ts';
import { submitBookHash } from '../../../server/domain/tasks/library-tasks.ts';
import { submitPageHashing } from '../../../server/domain/hashing/page-hashing.ts';

/*
 * File and page hashing that meet a process out of file descriptors (EMFILE): the shortage passes,
 * so the task is put off and run again by the task queue, and no empty or wrong hash is recorded.
 * They used to log and finish, leaving the hash empty until the next scan. Real descriptors run
 * out here: this test process's soft limit is lowered (prlimit) and the rest held open.
 */

let server: TestServer;
let bookId: string;
const pageHashes = () => server.app.folio.db.prepare('SELECT number, file_hash AS hash FROM media_page WHERE book_id = ? ORDER BY number').all(bookId) as { number: number; hash: string }[];

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  const pages = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ width: 60, height: 80, color: [i * 30, 40, 90] as [number, number, number], format: 'jpeg' as const }));
  await createCbz(join(root, 'S', 'Book.cbz'), pages);
  const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Comics', root, hashFiles: true, hashPages: true } });
  expect(created.statusCode, created.body).toBe(200);
  await pollUntil('the book', () => server.app.folio.repos.books.findByLibrary(created.json().id).length === 1);
  await server.app.folio.tasks.idle();
  bookId = server.app.folio.repos.books.findByLibrary(created.json().id)[0]!.id;
}, 60_000);
afterAll(async () => {
  await server.close();
});

/** Uses up this process's descriptors (soft limit lowered to what is open plus a few) until `release`. */
function exhaustDescriptors(): () => void {
  const hard = execFileSync('prlimit', ['--pid', String(process.pid), '--nofile', '--output=HARD', '--noheadings']).toString().trim();
  const soft = execFileSync('prlimit', ['--pid', String(process.pid), '--nofile', '--output=SOFT', '--noheadings']).toString().trim();
  execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${readdirSync('/proc/self/fd').length + 16}:${hard}`]);
  const held: number[] = [];
  for (;;) {
    try {
      held.push(openSync('/dev/null', 'r'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EMFILE') throw error;
      break;
    }
  }
  return () => {
    for (const fd of held) closeSync(fd);
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${soft}:${hard}`]);
  };
}

it.runIf(hasPrlimit)('puts a hash that ran out of descriptors off and runs it again, recording the right hashes', async () => {
  const ctx = server.app.folio;
  const fileHash = ctx.repos.books.findById(bookId)!.fileHash;
  const hashed = pageHashes();
  expect(fileHash).toMatch(/^[0-9a-f]{32}$/);
  expect(hashed.filter((p) => p.hash !== '').map((p) => p.number)).toEqual([1, 2, 3, 6, 7, 8]);

  // Hashes forgotten, the book's archive closed: hashing must open the file again.
  ctx.repos.books.update({ ...ctx.repos.books.findById(bookId)!, fileHash: '' });
  ctx.db.prepare("UPDATE media_page SET file_hash = '' WHERE book_id = ?").run(bookId);
  ctx.archives.closeAll();
  const runs: { type: string; failed: boolean }[] = [];
  const stop = ctx.tasks.onTaskDone((type, _ms, failed) => {
    if (type === 'HashBook' || type === 'HashBookPages') runs.push({ type, failed });
  });
  try {
    const release = exhaustDescriptors();
    try {
      submitBookHash(ctx, bookId);
      submitPageHashing(ctx, bookId);
      await pollUntil('both hashes to have run', () => runs.length === 2);
    } finally {
      release();
    }
    // Neither was done, and nothing empty or wrong was written meanwhile.
    expect(runs.map((r) => r.failed)).toEqual([true, true]);
    expect(ctx.repos.books.findById(bookId)!.fileHash).toBe('');
    expect(pageHashes().every((p) => p.hash === '')).toBe(true);
    // Put off, not dropped: both run again once descriptors are free.
    await ctx.tasks.idle();
    expect(runs.map((r) => r.failed)).toEqual([true, true, false, false]);
    expect(ctx.repos.books.findById(bookId)!.fileHash).toBe(fileHash);
    expect(pageHashes()).toEqual(hashed);
  } finally {
    stop();
  }
}, 60_000);
