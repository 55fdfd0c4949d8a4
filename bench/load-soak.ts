/**
 * Load scenario "soak" (`BENCH_LOAD_SCENARIO=soak node bench/load.ts`): a few hundred readers on one
 * server for a long time (BENCH_LOAD_SECONDS, 720) while the library changes under them, to find
 * what grows and does not come back down. Not part of `npm run bench`.
 *
 * - the server under `prlimit --nofile=BENCH_LOAD_NOFILE` (1,024), on ~BENCH_LOAD_BOOKS CBZ (300);
 * - BENCH_LOAD_READERS readers (300) over BENCH_LOAD_USERS users (20), each on its own book: sign in,
 *   dashboard and a search, the book, its thumbnails, then pages at a reading pace with a progress
 *   PATCH after each; every BENCH_LOAD_SESSION_PAGES pages the session ends and a new one signs in
 *   (a browser closed and opened again); a quarter hold an event stream for their session;
 * - BENCH_LOAD_STALLED_SSE event streams (40) opened on raw sockets that never read;
 * - the admin, meanwhile: a book added, removed or renamed in a "Churn" folder and a scan every
 *   BENCH_LOAD_CHURN_MS (10 s), an analysis, a metadata refresh, a deep scan and a thumbnail
 *   regeneration in turns.
 *
 * Every 5 s: the server's RSS, V8 heap, external and array-buffer memory (bench/support/loop-delay.mjs),
 * open descriptors, WAL and database size, event-loop delay of the last second, requests, errors and
 * p99 per route class in the interval. Heap snapshots (BENCH_LOAD_HEAP=1) after warm-up and once
 * every client left, in the work folder's heap/ (kept when BENCH_LOAD_KEEP is set).
 *
 * A leak is growth that does not come back down: the figures once every client left and the
 * server went idle are compared with those after warm-up. Reported with them: progress lost,
 * SQLITE_BUSY lines, books outside the churn folder whose media changed, 5xx per route.
 */
import { connect, type Socket } from 'node:net';
import Database from 'better-sqlite3';
import { checkStoredProgress, type SentProgress } from './support/progress-check.ts';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from '../tests/unit/server/support/spawned-server.ts';
import { generateLibrary } from './lib/generate-library.ts';
import { limited, pause } from './lib/pacing.ts';
import { percentile, round } from './lib/stats.ts';

const env = (name: string, value: number) => Number(process.env[name] ?? value);
const BOOKS = env('BENCH_LOAD_BOOKS', 300);
const USERS = env('BENCH_LOAD_USERS', 20);
const READERS = env('BENCH_LOAD_READERS', 300);
const SECONDS = env('BENCH_LOAD_SECONDS', 720);
const PAGE_MS = env('BENCH_LOAD_PAGE_MS', 2000);
const SESSION_PAGES = env('BENCH_LOAD_SESSION_PAGES', 25);
const NOFILE = env('BENCH_LOAD_NOFILE', 1024);
const STALLED_SSE = env('BENCH_LOAD_STALLED_SSE', 40);
const CHURN_MS = env('BENCH_LOAD_CHURN_MS', 10_000);
const SAMPLE_MS = 5000;
const PASSWORD = 'reader password 1234';
const MiB = 1024 * 1024;

interface BookRow { id: string; seriesId: string; url: string; media: { status: string; pagesCount: number } }
interface LoopFile { window?: { p99: number; max: number; rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number } }

/** Per 5 s interval: requests, errors and latencies per route class. */
class Intervals {
  private current = new Map<string, { ms: number[]; errors: number }>();
  readonly errorKinds = new Map<string, number>();
  record(cls: string, ms: number, error?: string): void {
    const entry = this.current.get(cls) ?? this.current.set(cls, { ms: [], errors: 0 }).get(cls)!;
    entry.ms.push(ms);
    if (error) {
      entry.errors++;
      const kind = `${cls}: ${error.replace(/[0-9A-Z]{13}/g, ':id').replace(/\/\d+(\/|$)/g, '/:n$1').replace(/\?.*$/, '')}`;
      this.errorKinds.set(kind, (this.errorKinds.get(kind) ?? 0) + 1);
    }
  }
  take(): Record<string, { n: number; p99: number; errors: number }> {
    const out = Object.fromEntries([...this.current].map(([cls, e]) => [cls, { n: e.ms.length, p99: round(percentile(e.ms, 99), 0), errors: e.errors }]));
    this.current = new Map();
    return out;
  }
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

export async function runSoakScenario(work: string): Promise<boolean> {
  let server: SpawnedServer | undefined;
  const stalled: Socket[] = [];
  try {
    const root = join(work, 'library');
    console.log(`load/soak: generating ${BOOKS} CBZ…`);
    const generated = await generateLibrary({ root, seriesCount: Math.ceil(BOOKS / 10), booksPerSeries: 10, pagesPerBook: 30, pageWidth: 640, pageHeight: 960, noise: true });
    // The churn folder's books come and go; readers never read them.
    const churn = join(root, 'Churn');
    await mkdir(churn, { recursive: true });
    for (let i = 0; i < 10; i++) await copyFile(generated.books[i]!, join(churn, `Churn ${String(i).padStart(4, '0')}.cbz`));
    const total = generated.books.length + 10;

    const loopFile = join(work, 'loop.json');
    const heapDir = join(work, 'heap');
    await mkdir(heapDir, { recursive: true });
    server = await spawnServer(join(work, 'data'), {
      nofile: NOFILE,
      env: {
        NODE_OPTIONS: `--import=${join(import.meta.dirname, 'support', 'loop-delay.mjs')} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${heapDir}`,
        FOLIO_BENCH_LOOP_FILE: loopFile,
      },
    });
    const url = server.url;
    const admin = await claimSession(url);
    const t0setup = Date.now();
    const libraryId = await addLibraryAndWait(url, admin, root, total, 20 * 60_000);
    console.log(`load/soak: ${total} books analysed in ${round((Date.now() - t0setup) / 1000, 1)} s`);
    const allBooks = (await apiCall<{ content: BookRow[] }>(url, admin, '/api/v1/books?size=2000&sort=name,asc')).content;
    const readable = allBooks.filter((b) => b.media.status === 'READY' && !b.url.includes('/Churn/'));
    const mediaBefore = new Map(readable.map((b) => [b.id, `${b.media.status}/${b.media.pagesCount}`]));
    const emails = Array.from({ length: USERS }, (_, i) => `reader${i}@example.org`);
    for (const email of emails) await apiCall(url, admin, '/api/v2/users', { method: 'POST', body: JSON.stringify({ email, password: PASSWORD, roles: ['PAGE_STREAMING', 'FILE_DOWNLOAD'] }) });
    const basic = (email: string) => `Basic ${Buffer.from(`${email}:${PASSWORD}`).toString('base64')}`;

    const stop = new AbortController();
    const intervals = new Intervals();
    const call = async (cls: string, cookie: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: Buffer } | undefined> => {
      const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', cookie };
      if (init.body) headers['content-type'] = 'application/json';
      const t0 = performance.now();
      try {
        const response = await fetch(`${url}${path}`, { ...init, headers, signal: AbortSignal.timeout(30_000) });
        const body = Buffer.from(await response.arrayBuffer());
        const retry = response.status === 503 && response.headers.get('retry-after');
        const bad = (response.status >= 500 && !retry) || response.status === 429 || (!response.ok && response.status !== 404 && response.status !== 503);
        intervals.record(cls, performance.now() - t0, bad ? `${response.status} ${init.method ?? 'GET'} ${path}` : undefined);
        return { status: response.status, body };
      } catch (error) {
        intervals.record(cls, performance.now() - t0, `${init.method ?? 'GET'} ${path}: ${String(error)}`);
        return undefined;
      }
    };
    const signIn = async (email: string): Promise<string | undefined> => {
      const t0 = performance.now();
      try {
        const login = await fetch(`${url}/api/v2/users/me`, { headers: { authorization: basic(email), 'X-Requested-With': 'XMLHttpRequest' }, signal: AbortSignal.timeout(30_000) });
        await login.arrayBuffer();
        const session = login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))?.split(';')[0];
        intervals.record('login', performance.now() - t0, login.status === 200 && session ? undefined : `login ${login.status}`);
        return session;
      } catch (error) {
        intervals.record('login', performance.now() - t0, `login: ${String(error)}`);
        return undefined;
      }
    };
    const sse = async (cookie: string, until: AbortSignal) => {
      try {
        const response = await fetch(`${url}/sse/v1/events`, { headers: { cookie }, signal: until });
        if (!response.ok) intervals.record('sse', 0, `SSE ${response.status}`);
        for await (const chunk of response.body!) void chunk;
      } catch (error) {
        if (!until.aborted) intervals.record('sse', 0, `SSE: ${String(error)}`);
      }
    };

    /** Per reader: the last page whose PATCH answered 204, and whether a later one is unknown (timed out). */
    const sent: SentProgress[] = [];
    const reader = async (index: number) => {
      await pause(Math.random() * 15_000, stop.signal);
      const user = index % USERS;
      const book = readable[index % readable.length]!;
      const mine = { user, bookId: book.id, page: 0, unsure: false };
      if (index < readable.length) sent.push(mine);
      const pages = Math.max(1, book.media.pagesCount);
      let page = 1;
      while (!stop.signal.aborted) {
        const cookie = await signIn(emails[user]!);
        if (!cookie) {
          await pause(5000, stop.signal);
          continue;
        }
        const session = new AbortController();
        const ended = AbortSignal.any([session.signal, stop.signal]);
        const stream = index % 4 === 0 ? sse(cookie, ended) : Promise.resolve();
        await limited(6, [
          () => call('dashboard', cookie, '/api/v1/books/ondeck?page=0&size=20'),
          () => call('dashboard', cookie, '/api/v1/books?read_status=IN_PROGRESS&sort=readProgress.readDate,desc&page=0&size=20'),
          () => call('dashboard', cookie, '/api/v1/series/new?page=0&size=20'),
          () => call('dashboard', cookie, '/api/v1/series/updated?page=0&size=20'),
          () => call('dashboard', cookie, '/api/v1/libraries'),
          () => call('search', cookie, `/api/v1/series?search=${encodeURIComponent(`Series ${1 + (index % 30)}`)}&page=0&size=20`),
          () => call('search', cookie, `/api/v1/books?search=${encodeURIComponent(String(index % 10))}&page=0&size=20`),
        ]);
        await call('book', cookie, `/api/v1/books/${book.id}`);
        await call('book', cookie, `/api/v1/books/${book.id}/pages`);
        await limited(4, Array.from({ length: 8 }, (_, p) => () => call('page-thumbnail', cookie, `/api/v1/books/${book.id}/pages/${1 + ((page + p - 1) % pages)}/thumbnail`)));
        await call('thumbnail', cookie, `/api/v1/series/${book.seriesId}/thumbnail`);
        for (let n = 0; n < SESSION_PAGES && !stop.signal.aborted; n++) {
          await call('page', cookie, `/api/v1/books/${book.id}/pages/${page}`);
          const result = await call('progress', cookie, `/api/v1/books/${book.id}/read-progress`, { method: 'PATCH', body: JSON.stringify({ page }) });
          if (index < readable.length) {
            if (result?.status === 204) Object.assign(mine, { page, unsure: false });
            else if (result === undefined) mine.unsure = true;
          }
          page = (page % pages) + 1;
          await pause(PAGE_MS * (0.5 + Math.random()), stop.signal);
        }
        session.abort();
        await stream;
      }
    };

    /** Event streams whose client never reads a byte (a phone asleep with the page open). */
    const cookieForStalled = await signIn(emails[0]!);
    const { port } = new URL(url);
    for (let i = 0; i < STALLED_SSE; i++) {
      const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
        socket.write(`GET /sse/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookieForStalled}\r\n\r\n`);
        socket.pause();
      });
      socket.on('error', (error) => {
        if (!stop.signal.aborted) intervals.record('stalled-sse', 0, `stalled: ${String(error)}`);
      });
      stalled.push(socket);
    }

    // The admin: the library changes while it is read.
    const churnOps = { added: 0, removed: 0, renamed: 0, scans: 0 };
    let churnSeq = 100;
    const adminWork = (async () => {
      let turn = 0;
      while (!stop.signal.aborted) {
        await pause(CHURN_MS, stop.signal);
        if (stop.signal.aborted) break;
        const present = (await readdir(churn)).filter((f) => f.endsWith('.cbz'));
        const op = turn % 3;
        if (op === 0 || present.length < 3) {
          await copyFile(generated.books[churnSeq % generated.books.length]!, join(churn, `Churn ${String(churnSeq++).padStart(4, '0')}.cbz`));
          churnOps.added++;
        } else if (op === 1) {
          await rm(join(churn, present[0]!));
          churnOps.removed++;
        } else {
          await rename(join(churn, present[present.length - 1]!), join(churn, `Churn ${String(churnSeq++).padStart(4, '0')} renamed.cbz`));
          churnOps.renamed++;
        }
        const deep = turn % 12 === 11;
        await call('admin', admin, `/api/v1/libraries/${libraryId}/scan${deep ? '?deep=true' : ''}`, { method: 'POST' });
        churnOps.scans++;
        if (turn % 6 === 2) await call('admin', admin, `/api/v1/libraries/${libraryId}/analyze`, { method: 'POST' });
        if (turn % 6 === 4) await call('admin', admin, `/api/v1/libraries/${libraryId}/metadata/refresh`, { method: 'POST' });
        if (turn % 18 === 9) await call('admin', admin, '/api/v1/books/thumbnails?for_bigger_result_only=false', { method: 'PUT' });
        turn++;
      }
    })();

    const dbPath = join(work, 'data', 'folio.sqlite');
    const samples: Record<string, unknown>[] = [];
    const t0 = Date.now();
    const sample = async (phase: string) => {
      const loop = (JSON.parse(await readFile(loopFile, 'utf8').catch(() => '{}')) as LoopFile).window;
      const entry = {
        s: round((Date.now() - t0) / 1000, 0),
        phase,
        rssMiB: round((await server!.memory()).rss / MiB, 1),
        heapMiB: loop ? round(loop.heapUsed / MiB, 1) : null,
        externalMiB: loop ? round(loop.external / MiB, 1) : null,
        arrayBuffersMiB: loop ? round(loop.arrayBuffers / MiB, 1) : null,
        fds: await server!.openDescriptors().catch(() => -1),
        walMiB: round((await fileSize(`${dbPath}-wal`)) / MiB, 2),
        dbMiB: round((await fileSize(dbPath)) / MiB, 2),
        loopP99Ms: loop?.p99 ?? null,
        loopMaxMs: loop?.max ?? null,
        routes: intervals.take(),
      };
      samples.push(entry);
      const errs = Object.values(entry.routes).reduce((a, r) => a + r.errors, 0);
      const n = Object.values(entry.routes).reduce((a, r) => a + r.n, 0);
      console.log(`${entry.s}s ${phase} rss ${entry.rssMiB} heap ${entry.heapMiB} ext ${entry.externalMiB} ab ${entry.arrayBuffersMiB} fds ${entry.fds} wal ${entry.walMiB} db ${entry.dbMiB} loop p99 ${entry.loopP99Ms}/${entry.loopMaxMs} req ${n} err ${errs} page p99 ${entry.routes.page?.p99 ?? '-'} progress p99 ${entry.routes.progress?.p99 ?? '-'}`);
    };
    await sample('before');
    const sampler = setInterval(() => void sample('load'), SAMPLE_MS);
    const heapSnapshot = async (label: string) => {
      if (process.env.BENCH_LOAD_HEAP !== '1') return;
      const before = new Set(await readdir(heapDir));
      process.kill(server!.pid, 'SIGUSR2');
      const deadline = Date.now() + 120_000;
      for (;;) {
        const added = (await readdir(heapDir)).filter((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
        // Written when its size stops changing for a second.
        if (added.length > 0) {
          const a = await fileSize(join(heapDir, added[0]!));
          await new Promise((r) => setTimeout(r, 1000));
          if (a > 0 && a === (await fileSize(join(heapDir, added[0]!)))) {
            await rename(join(heapDir, added[0]!), join(heapDir, `${label}.heapsnapshot`));
            console.log(`load/soak: heap snapshot ${label} (${round(a / MiB, 1)} MiB)`);
            return;
          }
        }
        if (Date.now() > deadline) throw new Error(`heap snapshot ${label} not written`);
        await new Promise((r) => setTimeout(r, 500));
      }
    };

    const readers = Array.from({ length: READERS }, (_, i) => reader(i));
    const warm = (async () => {
      await pause(Math.min(120_000, SECONDS * 250), stop.signal);
      if (!stop.signal.aborted) await heapSnapshot('warm');
    })();
    setTimeout(() => stop.abort(), SECONDS * 1000);
    await Promise.all([...readers, adminWork, warm]);
    for (const socket of stalled) socket.destroy();
    clearInterval(sampler);

    // Every client gone: wait for the background work to end, then for the figures to settle.
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const drainStart = Date.now();
    let tasksLeft = -1;
    while (Date.now() - drainStart < 300_000) {
      tasksLeft = (db.prepare('SELECT count(*) AS n FROM task').get() as { n: number }).n;
      if (tasksLeft === 0) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    db.close();
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
      await sample('idle');
    }
    await heapSnapshot('idle');
    await sample('idle');

    const { lost, unsureSkipped, mismatches, sessions } = checkStoredProgress(dbPath, sent, emails);
    const booksAfter = (await apiCall<{ content: BookRow[] }>(url, admin, '/api/v1/books?size=2000&sort=name,asc')).content;
    const after = new Map(booksAfter.map((b) => [b.id, `${b.media.status}/${b.media.pagesCount}`]));
    const mediaChanged = [...mediaBefore].filter(([id, m]) => after.get(id) !== m).length;
    const churnStatuses: Record<string, number> = {};
    for (const b of booksAfter.filter((b) => b.url.includes('/Churn/'))) churnStatuses[b.media.status] = (churnStatuses[b.media.status] ?? 0) + 1;
    const churnOnDisk = (await readdir(churn)).filter((f) => f.endsWith('.cbz')).length;

    const log = await readFile(join(work, 'data', 'logs', 'folio.log'), 'utf8').catch(() => '');
    const busy = (`${server.stderr()}${log}`.match(/SQLITE_BUSY|SQLITE_LOCKED|database is locked/g) ?? []).length;
    const logErrors = log.split('\n').filter((l) => /"level":(50|60)/.test(l));
    const loadSamples = samples.filter((s) => s.phase === 'load');
    const warmSample = loadSamples.find((s) => (s.s as number) >= Math.min(120, SECONDS / 4));
    const idle = samples.filter((s) => s.phase === 'idle').at(-1)!;
    const before = samples[0]!;
    const results = {
      date: new Date().toISOString(),
      loadAverage: loadavg().map((l) => round(l, 2)),
      books: total,
      readers: READERS,
      users: USERS,
      stalledEventStreams: STALLED_SSE,
      seconds: SECONDS,
      churn: churnOps,
      figures: {
        before: { rss: before.rssMiB, heap: before.heapMiB, fds: before.fds, wal: before.walMiB, db: before.dbMiB },
        warm: warmSample && { s: warmSample.s, rss: warmSample.rssMiB, heap: warmSample.heapMiB, fds: warmSample.fds, wal: warmSample.walMiB, db: warmSample.dbMiB },
        peak: {
          rss: Math.max(...samples.map((s) => s.rssMiB as number)),
          heap: Math.max(...samples.map((s) => (s.heapMiB as number) ?? 0)),
          fds: Math.max(...samples.map((s) => s.fds as number)),
          wal: Math.max(...samples.map((s) => s.walMiB as number)),
          loopMaxMs: Math.max(...samples.map((s) => (s.loopMaxMs as number) ?? 0)),
        },
        idle: { rss: idle.rssMiB, heap: idle.heapMiB, external: idle.externalMiB, fds: idle.fds, wal: idle.walMiB, db: idle.dbMiB },
      },
      requests: loadSamples.reduce((a, s) => a + Object.values(s.routes as Record<string, { n: number }>).reduce((b, r) => b + r.n, 0), 0),
      errorKinds: Object.fromEntries([...intervals.errorKinds].sort((a, b) => b[1] - a[1]).slice(0, 20)),
      sqliteBusyLines: busy,
      progressChecked: sent.filter((s) => s.page > 0).length,
      progressLostOrOlder: lost,
      progressUnsureSkipped: unsureSkipped,
      progressMismatches: mismatches,
      booksWhoseMediaChanged: mediaChanged,
      churnBooks: { onDisk: churnOnDisk, stored: churnStatuses },
      tasksLeft,
      sessionsStored: sessions,
      logErrorLines: logErrors.length,
      firstLogErrors: logErrors.slice(0, 5).map((l) => l.slice(0, 400)),
      serverAlive: server.exited() === null,
    };
    console.log(JSON.stringify(results, null, 2));
    await writeFile(join(import.meta.dirname, 'results', 'load-soak.json'), `${JSON.stringify({ ...results, samples }, null, 2)}\n`);
    if (process.env.BENCH_LOAD_KEEP) console.log(`load/soak: heap snapshots in ${heapDir}`);
    return results.errorKinds && Object.keys(results.errorKinds).length === 0 && lost === 0 && busy === 0 && mediaChanged === 0 && results.serverAlive;
  } finally {
    for (const socket of stalled) socket.destroy();
    await server?.stop();
  }
}
