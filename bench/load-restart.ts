/**
 * Stop and start under load (`node bench/load-restart.ts`): readers turn pages and save progress,
 * the admin's deep scan, analysis and thumbnail regeneration run, and the server gets SIGTERM
 * in the middle of it, BENCH_RESTART_ROUNDS times (3). After each stop: how long it took and its
 * exit code, the database's integrity, every progress save answered 204 before the stop found
 * stored (none lost, none older), no book's media changed; after each start, the stored tasks
 * run again and the queue drains. Not part of `npm run bench`.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from '../tests/unit/server/support/spawned-server.ts';
import { generateLibrary } from './lib/generate-library.ts';
import { pause } from './lib/pacing.ts';
import { round } from './lib/stats.ts';

const env = (name: string, value: number) => Number(process.env[name] ?? value);
const BOOKS = env('BENCH_RESTART_BOOKS', 200);
const READERS = env('BENCH_RESTART_READERS', 100);
const ROUNDS = env('BENCH_RESTART_ROUNDS', 3);
const LOAD_MS = env('BENCH_RESTART_LOAD_MS', 15_000);

interface BookRow { id: string; media: { status: string; pagesCount: number } }

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-restart-'));
  let server: SpawnedServer | undefined;
  const failures: string[] = [];
  try {
    const root = join(work, 'library');
    await generateLibrary({ root, seriesCount: Math.ceil(BOOKS / 10), booksPerSeries: 10, pagesPerBook: 20, pageWidth: 640, pageHeight: 960, noise: true });
    const dataDir = join(work, 'data');
    server = await spawnServer(dataDir, { nofile: 1024 });
    let admin = await claimSession(server.url);
    const libraryId = await addLibraryAndWait(server.url, admin, root, BOOKS, 10 * 60_000);
    const books = (await apiCall<{ content: BookRow[] }>(server.url, admin, '/api/v1/books?size=2000&sort=name,asc')).content;
    const mediaBefore = new Map(books.map((b) => [b.id, `${b.media.status}/${b.media.pagesCount}`]));
    // Last page each reader saw answered 204, and whether a later save's answer was lost with the stop.
    const saved = new Map<string, { page: number; unsure: boolean }>();

    for (let round_ = 1; round_ <= ROUNDS; round_++) {
      const url = server.url;
      const stop = new AbortController();
      let requests = 0;
      let refused = 0;
      const reader = async (index: number) => {
        const book = books[index % books.length]!;
        const mine = saved.get(book.id) ?? saved.set(book.id, { page: 0, unsure: false }).get(book.id)!;
        for (let page = 1 + (mine.page % book.media.pagesCount); !stop.signal.aborted; page = (page % book.media.pagesCount) + 1) {
          try {
            await (await fetch(`${url}/api/v1/books/${book.id}/pages/${page}`, { headers: { cookie: admin } })).arrayBuffer();
            const response = await fetch(`${url}/api/v1/books/${book.id}/read-progress`, { method: 'PATCH', headers: { cookie: admin, 'content-type': 'application/json' }, body: JSON.stringify({ page }) });
            requests += 2;
            if (response.status === 204) Object.assign(mine, { page, unsure: false });
            else if (response.status >= 500 && response.status !== 503) failures.push(`round ${round_}: PATCH ${response.status}`);
            else refused++;
          } catch {
            // The stop cut this request: its save may or may not have landed.
            mine.unsure = true;
            return;
          }
          await pause(200 + Math.random() * 300, stop.signal);
        }
      };
      const readers = Array.from({ length: READERS }, (_, i) => reader(i));
      await apiCall(url, admin, `/api/v1/libraries/${libraryId}/scan?deep=true`, { method: 'POST' });
      await apiCall(url, admin, `/api/v1/libraries/${libraryId}/analyze`, { method: 'POST' });
      await apiCall(url, admin, '/api/v1/books/thumbnails?for_bigger_result_only=false', { method: 'PUT' });
      await pause(LOAD_MS, new AbortController().signal);
      const t0 = Date.now();
      const exited = new Promise<void>((done) => {
        const poll = setInterval(() => {
          if (server!.exited() !== null) {
            clearInterval(poll);
            done();
          }
        }, 20);
      });
      process.kill(server.pid, 'SIGTERM');
      await exited;
      const stopMs = Date.now() - t0;
      stop.abort();
      await Promise.all(readers);
      const code = server.exited();
      if (code !== '0') failures.push(`round ${round_}: exit ${code}`);

      const db = new Database(join(dataDir, 'folio.sqlite'), { readonly: true, fileMustExist: true });
      const integrity = db.pragma('integrity_check', { simple: true });
      const tasksStored = (db.prepare('SELECT count(*) AS n FROM task').get() as { n: number }).n;
      const stored = new Map((db.prepare('SELECT book_id AS book, page FROM read_progress').all() as { book: string; page: number }[]).map((r) => [r.book, r.page]));
      db.close();
      if (integrity !== 'ok') failures.push(`round ${round_}: integrity ${String(integrity)}`);
      let lost = 0;
      for (const [bookId, mine] of saved) {
        if (mine.page > 0 && stored.get(bookId) !== mine.page && !mine.unsure) lost++;
        // What is stored is what the next round starts from.
        if (stored.has(bookId)) Object.assign(mine, { page: stored.get(bookId)!, unsure: false });
      }
      if (lost > 0) failures.push(`round ${round_}: ${lost} progress saves lost`);

      const t1 = Date.now();
      server = await spawnServer(dataDir, { nofile: 1024 });
      admin = await claimSession(server.url).catch(async () => {
        // Claimed already: sign in.
        const login = await fetch(`${server!.url}/api/v2/users/me`, { headers: { authorization: `Basic ${Buffer.from('admin@example.org:correct horse battery staple').toString('base64')}` } });
        return login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))!.split(';')[0]!;
      });
      const startMs = Date.now() - t1;
      const drainStart = Date.now();
      let drainedS = -1;
      while (Date.now() - drainStart < 600_000) {
        const check = new Database(join(dataDir, 'folio.sqlite'), { readonly: true, fileMustExist: true });
        const n = (check.prepare('SELECT count(*) AS n FROM task').get() as { n: number }).n;
        check.close();
        if (n === 0) {
          drainedS = round((Date.now() - drainStart) / 1000, 1);
          break;
        }
        await pause(500, new AbortController().signal);
      }
      const after = (await apiCall<{ content: BookRow[] }>(server.url, admin, '/api/v1/books?size=2000&sort=name,asc')).content;
      const changed = after.filter((b) => mediaBefore.get(b.id) !== `${b.media.status}/${b.media.pagesCount}`).length + Math.abs(after.length - mediaBefore.size);
      if (changed > 0) failures.push(`round ${round_}: ${changed} books' media changed`);
      if (drainedS < 0) failures.push(`round ${round_}: stored tasks did not drain after restart`);
      console.log(JSON.stringify({ round: round_, load: loadavg().map((l) => round(l, 2)), requests, refused, stopMs, exit: code, integrity, tasksStoredAtStop: tasksStored, progressLost: lost, restartMs: startMs, tasksDrainedAfterS: drainedS, booksWhoseMediaChanged: changed }));
    }
  } finally {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  }
  console.log(failures.length === 0 ? 'restart: ok' : `restart: FAILED\n${failures.join('\n')}`);
  if (failures.length > 0) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolvePath(process.argv[1])) await main();
