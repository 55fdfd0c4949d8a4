/**
 * Load scenario "wave" (`BENCH_LOAD_SCENARIO=wave node bench/load.ts`): a few hundred readers of
 * Komga's web client against the real server under `prlimit --nofile=BENCH_LOAD_NOFILE` (1,024), on a
 * generated library of CBZ of 20–60 pages plus CBR, CB7, PDF and EPUB, while the admin scans,
 * analyses and regenerates thumbnails, 20 clients abort downloads mid-way and 20 read slowly.
 * Not part of `npm run bench`: it runs minutes.
 *
 * Each reader (BENCH_LOAD_READERS, 300) signs in (session cookie from a Basic login, a remember-me
 * cookie alone, Basic on every call, or X-API-Key), loads the dashboard (series/new, series/updated,
 * books/ondeck, keep reading), opens its own book (one per reader and user, so the last progress it
 * sent is what the database must hold), reads pages with their thumbnails at a compressed pace and
 * PATCHes read-progress after every page; a quarter hold /sse/v1/events; EPUB readers fetch the
 * manifest, positions and resources.
 *
 * Reported: per route class count, p50/p95/p99, errors (5xx other than 503 with Retry-After, 429,
 * resets, timeouts); 503s with and without Retry-After; peak descriptors and RSS; the server's own
 * event-loop delay (bench/support/loop-delay.mjs); SQLITE_BUSY lines; descriptors once every client
 * left (event streams and aborted sockets cleaned up); progress lost or out of order; books whose
 * media changed; whether the scan and regeneration finished; the server alive at the end.
 */
import { connect } from 'node:net';
import Database from 'better-sqlite3';
import { checkStoredProgress, type SentProgress } from './support/progress-check.ts';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from '../tests/unit/server/support/spawned-server.ts';
import { createImageEpub } from '../tests/fixtures/epub.ts';
import { writePdf } from '../tests/fixtures/pdf.ts';
import { writeRar5 } from '../tests/fixtures/rar.ts';
import { writeSevenZip } from '../tests/fixtures/sevenzip.ts';
import { generateLibrary } from './lib/generate-library.ts';
import { limited, pause } from './lib/pacing.ts';
import { samplePeaks } from './lib/peak-sampler.ts';
import { percentile, round } from './lib/stats.ts';

const env = (name: string, value: number) => Number(process.env[name] ?? value);
const CBZ = env('BENCH_LOAD_BOOKS', 300);
const USERS = env('BENCH_LOAD_USERS', 20);
const READERS = env('BENCH_LOAD_READERS', 300);
const SECONDS = env('BENCH_LOAD_SECONDS', 180);
const PAGE_MS = env('BENCH_LOAD_PAGE_MS', 1500);
const NOFILE = env('BENCH_LOAD_NOFILE', 1024);
const ABORTERS = env('BENCH_LOAD_ABORTERS', 20);
const SLOW = env('BENCH_LOAD_SLOW', 20);
const PASSWORD = 'reader password 1234';

type Auth = { kind: 'cookie' | 'remember'; cookie: string } | { kind: 'basic'; header: string } | { kind: 'apikey'; key: string };
interface BookRow { id: string; name: string; media: { status: string; pagesCount: number; mediaProfile?: string }; readProgress?: { page: number } | null }

const latencies = new Map<string, number[]>();
const errors = new Map<string, string[]>();
const unavailable = { withRetryAfter: 0, without: 0, byClass: {} as Record<string, number> };
const record = (cls: string, ms: number, error?: string) => {
  (latencies.get(cls) ?? latencies.set(cls, []).get(cls)!).push(ms);
  if (error) (errors.get(cls) ?? errors.set(cls, []).get(cls)!).push(error);
};
const failure = (error: unknown) => {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? String(error) : `${String(error)} ${String(cause)}`;
};
const tally = (list: string[]) => {
  const counts = new Map<string, number>();
  for (const e of list) {
    const kind = e.replace(/[0-9A-Z]{13}/g, ':id').replace(/\/\d+(\/|$)/g, '/:n$1').replace(/\?[^:\s]*/, '');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n}× ${k}`);
};



async function library(root: string): Promise<number> {
  let count = 0;
  const sizes = [20, 30, 40, 50, 60];
  let bytes: Buffer[] = [];
  for (const pages of sizes) {
    const generated = await generateLibrary({ root: join(root, `p${pages}`), seriesCount: Math.ceil(CBZ / sizes.length / 10), booksPerSeries: 10, pagesPerBook: pages, pageWidth: 640, pageHeight: 960, noise: true });
    count += generated.books.length;
    bytes = generated.pageBytes;
  }
  const others = 10;
  for (let i = 0; i < others; i++) {
    const n = String(i).padStart(3, '0');
    const members = (count: number) => Array.from({ length: count }, (_, p) => ({ name: `${String(p + 1).padStart(3, '0')}.jpg`, data: bytes[(i + p) % bytes.length]! }));
    await mkdir(join(root, 'Other CBR'), { recursive: true });
    await writeRar5(join(root, 'Other CBR', `Rar ${n}.cbr`), members(24));
    await mkdir(join(root, 'Other CB7'), { recursive: true });
    if (i < 4) await writeSevenZip(join(root, 'Other CB7', `Seven ${n}.cb7`), members(20), { method: 'Copy' });
    await writePdf(join(root, 'Other PDF', `Pdf ${n}.pdf`), Array.from({ length: 20 }, (_, p) => ({ width: 420, height: 640, color: [(i * 40) % 256, (p * 20) % 256, 90] as [number, number, number] })));
    await createImageEpub(join(root, 'Other EPUB', `Epub ${n}.epub`), Array.from({ length: 6 }, (_, p) => ({ width: 320, height: 480, color: [(i * 30) % 256, (p * 40) % 256, 120] as [number, number, number], format: 'jpeg' as const })));
    count += i < 4 ? 4 : 3;
  }
  return count;
}

export async function runWaveScenario(work: string): Promise<boolean> {
  let server: SpawnedServer | undefined;
  try {
    console.log(`load/wave: generating ~${CBZ} CBZ and others…`);
    const total = await library(join(work, 'library'));
    const loopFile = join(work, 'loop.json');
    server = await spawnServer(join(work, 'data'), {
      nofile: NOFILE,
      // BENCH_LOAD_CPU_PROF=DIR: the server's CPU profile (written as it exits), to see what held its loop.
      env: {
        NODE_OPTIONS: `--import=${join(import.meta.dirname, 'support', 'loop-delay.mjs')}${process.env.BENCH_LOAD_CPU_PROF ? ` --cpu-prof --cpu-prof-dir=${process.env.BENCH_LOAD_CPU_PROF}` : ''}`,
        FOLIO_BENCH_LOOP_FILE: loopFile,
      },
    });
    const url = server.url;
    const admin = await claimSession(url);
    const t0setup = Date.now();
    const libraryId = await addLibraryAndWait(url, admin, join(work, 'library'), total, 20 * 60_000);
    console.log(`load/wave: ${total} books analysed in ${round((Date.now() - t0setup) / 1000, 1)} s`);
    const allBooks: BookRow[] = (await apiCall<{ content: BookRow[] }>(url, admin, `/api/v1/books?size=2000&sort=name,asc`)).content;
    const mediaBefore = new Map(allBooks.map((b) => [b.id, `${b.media.status}/${b.media.pagesCount}`]));
    const divina = allBooks.filter((b) => b.media.status === 'READY' && b.media.mediaProfile !== 'EPUB');
    const epubs = allBooks.filter((b) => b.media.status === 'READY' && b.media.mediaProfile === 'EPUB');
    const emails = Array.from({ length: USERS }, (_, i) => `reader${i}@example.org`);
    for (const email of emails) await apiCall(url, admin, '/api/v2/users', { method: 'POST', body: JSON.stringify({ email, password: PASSWORD, roles: ['PAGE_STREAMING', 'FILE_DOWNLOAD'] }) });
    const basic = (email: string) => `Basic ${Buffer.from(`${email}:${PASSWORD}`).toString('base64')}`;
    const sessionOf = async (email: string, remember = false) => {
      const login = await fetch(`${url}/api/v2/users/me${remember ? '?remember-me=true' : ''}`, { headers: { authorization: basic(email), 'X-Requested-With': 'XMLHttpRequest' }, signal: AbortSignal.timeout(30_000) });
      await login.arrayBuffer();
      const cookies = login.headers.getSetCookie();
      const pick = (name: string) => cookies.find((c) => c.startsWith(`${name}=`))?.split(';')[0];
      return { status: login.status, session: pick('KOMGA-SESSION'), remember: pick('komga-remember-me') };
    };
    const apiKeys: string[] = [];
    for (const email of emails.slice(0, Math.ceil(USERS / 4))) {
      const { session } = await sessionOf(email);
      apiKeys.push((await apiCall<{ key: string }>(url, session!, '/api/v2/users/me/api-keys', { method: 'POST', body: JSON.stringify({ comment: 'bench' }) })).key);
    }
    const baselineDescriptors = await server.openDescriptors();

    const stop = new AbortController();
    const peaks = samplePeaks(server!);

    const headersOf = (auth: Auth): Record<string, string> => {
      if (auth.kind === 'basic') return { authorization: auth.header };
      if (auth.kind === 'apikey') return { 'x-api-key': auth.key };
      return { cookie: auth.cookie };
    };
    const call = async (cls: string, auth: Auth, path: string, init: RequestInit = {}): Promise<{ status: number; body: Buffer } | undefined> => {
      const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', ...headersOf(auth) };
      if (init.body) headers['content-type'] = 'application/json';
      const t0 = performance.now();
      try {
        const response = await fetch(`${url}${path}`, { ...init, headers, signal: AbortSignal.timeout(30_000) });
        const body = Buffer.from(await response.arrayBuffer());
        if (auth.kind === 'remember') {
          // The remember-me cookie signs in again and opens a session: the browser keeps that session.
          const session = response.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='));
          if (session) auth.cookie = `${auth.cookie.split('; ').filter((c) => !c.startsWith('KOMGA-SESSION=')).join('; ')}; ${session.split(';')[0]}`;
        }
        if (response.status === 503) {
          unavailable.byClass[cls] = (unavailable.byClass[cls] ?? 0) + 1;
          if (response.headers.get('retry-after')) unavailable.withRetryAfter++;
          else unavailable.without++;
        }
        const bad = (response.status >= 500 && !(response.status === 503 && response.headers.get('retry-after'))) || response.status === 429 || (!response.ok && response.status !== 404 && response.status !== 503);
        record(cls, performance.now() - t0, bad ? `${response.status} ${init.method ?? 'GET'} ${path}` : undefined);
        return { status: response.status, body };
      } catch (error) {
        record(cls, performance.now() - t0, `${init.method ?? 'GET'} ${path}: ${failure(error)}`);
        return undefined;
      }
    };

    /** Per reader: the last page whose PATCH answered 204, and whether a later one is unknown (timed out). */
    const sent: SentProgress[] = [];
    const apiKeyOwner = (index: number) => Math.floor(index / 5) % apiKeys.length;
    const signIn = async (index: number): Promise<Auth | undefined> => {
      const email = emails[index % USERS]!;
      const mode = index % 5;
      if (mode === 1) return { kind: 'basic', header: basic(email) };
      // An API key signs in as its owner (emails[k]): mine.user follows it (apiKeyOwner below).
      if (mode === 2) return { kind: 'apikey', key: apiKeys[apiKeyOwner(index)]! };
      const t0 = performance.now();
      try {
        const login = await sessionOf(email, mode === 3);
        const ok = login.status === 200 && login.session && (mode !== 3 || login.remember);
        record('login', performance.now() - t0, ok ? undefined : `login ${login.status}`);
        if (!ok) return undefined;
        // Remember-me readers come back later with only the long-lived cookie (a browser restart).
        return mode === 3 ? { kind: 'remember', cookie: login.remember! } : { kind: 'cookie', cookie: login.session! };
      } catch (error) {
        record('login', performance.now() - t0, `login: ${failure(error)}`);
        return undefined;
      }
    };

    const sse = async (auth: Auth) => {
      try {
        const response = await fetch(`${url}/sse/v1/events`, { headers: headersOf(auth), signal: stop.signal });
        if (!response.ok) record('sse', 0, `SSE ${response.status}`);
        for await (const chunk of response.body!) void chunk;
      } catch (error) {
        if (!stop.signal.aborted) record('sse', 0, `SSE: ${failure(error)}`);
      }
    };

    const sseStreams: Promise<void>[] = [];
    const reader = async (index: number) => {
      await pause(Math.random() * 10_000, stop.signal);
      const auth = await signIn(index);
      if (!auth || stop.signal.aborted) return;
      const dashboard = `dashboard/${auth.kind}`;
      await limited(6, [
        () => call(dashboard, auth, '/api/v1/books/ondeck?page=0&size=20'),
        () => call(dashboard, auth, '/api/v1/books?read_status=IN_PROGRESS&sort=readProgress.readDate,desc&page=0&size=20'),
        () => call(dashboard, auth, '/api/v1/series/new?page=0&size=20'),
        () => call(dashboard, auth, '/api/v1/series/updated?page=0&size=20'),
      ]);
      if (index % 4 === 0) sseStreams.push(sse(auth));
      if (index % 15 === 14 && epubs.length > 0) {
        const book = epubs[index % epubs.length]!;
        const manifest = await call('epub', auth, `/api/v1/books/${book.id}/manifest/epub`);
        await call('epub', auth, `/api/v1/books/${book.id}/positions`);
        const hrefs = manifest?.status === 200 ? ((JSON.parse(manifest.body.toString()) as { readingOrder?: { href: string }[] }).readingOrder ?? []).map((l) => l.href) : [];
        for (let i = 0; !stop.signal.aborted && hrefs.length > 0; i++) {
          await call('epub', auth, new URL(hrefs[i % hrefs.length]!, url).pathname);
          await pause(PAGE_MS * (0.5 + Math.random()), stop.signal);
        }
        return;
      }
      // One book per reader, and no two readers of one user on one book: the last PATCH is what must be stored.
      const book = divina[index % divina.length]!;
      const mine = { user: auth.kind === 'apikey' ? apiKeyOwner(index) : index % USERS, bookId: book.id, page: 0, unsure: false };
      if (index < divina.length) sent.push(mine);
      await call('book', auth, `/api/v1/books/${book.id}`);
      await call('book', auth, `/api/v1/books/${book.id}/pages`);
      const pages = Math.max(1, book.media.pagesCount);
      await limited(4, Array.from({ length: Math.min(pages, 8) }, (_, p) => () => call('page-thumbnail', auth, `/api/v1/books/${book.id}/pages/${p + 1}/thumbnail`)));
      for (let page = 1; !stop.signal.aborted; page = (page % pages) + 1) {
        await call('page', auth, `/api/v1/books/${book.id}/pages/${page}`);
        const result = await call('progress', auth, `/api/v1/books/${book.id}/read-progress`, { method: 'PATCH', body: JSON.stringify({ page }) });
        if (index < divina.length) {
          if (result?.status === 204) Object.assign(mine, { page, unsure: false });
          else if (result === undefined) mine.unsure = true; // timed out or reset: it may or may not have landed
        }
        await pause(PAGE_MS * (0.5 + Math.random()), stop.signal);
      }
    };

    /** Downloads a book and drops the socket after its first bytes, again and again. */
    const aborter = async (index: number) => {
      const { session } = await sessionOf(emails[index % USERS]!).catch(() => ({ session: undefined }));
      if (!session) return record('aborter', 0, 'aborter login failed');
      while (!stop.signal.aborted) {
        const book = divina[(index * 7) % divina.length]!;
        const controller = new AbortController();
        const path = index % 2 === 0 ? `/api/v1/books/${book.id}/file` : `/api/v1/books/${book.id}/pages/${1 + (index % 20)}`;
        const t0 = performance.now();
        try {
          const response = await fetch(`${url}${path}`, { headers: { cookie: session }, signal: controller.signal });
          const reader = response.body!.getReader();
          await reader.read();
          controller.abort();
          record('aborted', performance.now() - t0, response.status >= 500 && response.status !== 503 ? `${response.status} ${path}` : undefined);
        } catch (error) {
          if (!controller.signal.aborted) record('aborted', performance.now() - t0, `${path}: ${failure(error)}`);
        }
        await pause(200 + Math.random() * 300, stop.signal);
      }
    };

    /** Downloads a book reading 4 KiB at a time, a few times a second (a reader on a bad line). */
    const slow = async (index: number) => {
      const { session } = await sessionOf(emails[index % USERS]!).catch(() => ({ session: undefined }));
      if (!session) return record('slow', 0, 'slow login failed');
      const book = divina[(index * 11) % divina.length]!;
      const { port } = new URL(url);
      await new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
          socket.write(`GET /api/v1/books/${book.id}/file HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${session}\r\n\r\n`);
        });
        let first = true;
        socket.on('data', (chunk: Buffer) => {
          if (first && !/^HTTP\/1\.1 (200|503)/.test(chunk.toString('latin1', 0, 12))) record('slow', 0, `slow: ${chunk.toString('latin1', 0, 12)}`);
          first = false;
          socket.pause();
          setTimeout(() => socket.resume(), 250).unref();
        });
        socket.setNoDelay(true);
        socket.on('error', (error) => {
          if (!stop.signal.aborted) record('slow', 0, `slow: ${failure(error)}`);
          resolve();
        });
        socket.on('close', () => resolve());
        stop.signal.addEventListener('abort', () => socket.destroy(), { once: true });
      });
    };

    let scanDone = -1;
    const adminWork = (async () => {
      await pause(5_000, stop.signal);
      const t0 = Date.now();
      await call('admin', { kind: 'cookie', cookie: admin }, `/api/v1/libraries/${libraryId}/scan?deep=true`, { method: 'POST' });
      await call('admin', { kind: 'cookie', cookie: admin }, `/api/v1/libraries/${libraryId}/analyze`, { method: 'POST' });
      await call('admin', { kind: 'cookie', cookie: admin }, `/api/v1/books/thumbnails?for_bigger_result_only=false`, { method: 'PUT' });
      // Done when the server's persisted task queue is empty again (read-only look at its database).
      const db = new Database(join(work, 'data', 'folio.sqlite'), { readonly: true, fileMustExist: true });
      try {
        while (!stop.signal.aborted) {
          await pause(1000, stop.signal);
          if ((db.prepare('SELECT count(*) AS n FROM task').get() as { n: number }).n === 0) {
            scanDone = round((Date.now() - t0) / 1000, 1);
            return;
          }
        }
      } finally {
        db.close();
      }
    })();

    const loopSamples: { p99: number; max: number }[] = [];
    const loopSampler = setInterval(() => {
      readFile(loopFile, 'utf8').then((text) => loopSamples.push(JSON.parse(text) as { p99: number; max: number }), () => undefined);
    }, 5000);
    const probe = (async () => {
      while (!stop.signal.aborted) {
        await call('probe', { kind: 'cookie', cookie: admin }, '/api/v1/libraries');
        await pause(250, stop.signal);
      }
    })();

    const t0 = Date.now();
    const readers = Array.from({ length: READERS }, (_, i) => reader(i));
    const abortersRun = Array.from({ length: ABORTERS }, (_, i) => aborter(i));
    const slowRun = Array.from({ length: SLOW }, (_, i) => slow(i));
    setTimeout(() => stop.abort(), SECONDS * 1000);
    await Promise.all([...readers, ...abortersRun, ...slowRun, adminWork, probe]);
    await Promise.all(sseStreams);
    const elapsed = (Date.now() - t0) / 1000;
    peaks.stop();
    clearInterval(loopSampler);

    // The admin's scan, analysis and regeneration must finish: wait for the queue (at most 5 min).
    const drainStart = Date.now();
    if (scanDone < 0) {
      const db = new Database(join(work, 'data', 'folio.sqlite'), { readonly: true, fileMustExist: true });
      try {
        while (Date.now() - drainStart < 300_000) {
          if ((db.prepare('SELECT count(*) AS n FROM task').get() as { n: number }).n === 0) {
            scanDone = round((Date.now() - t0) / 1000, 1);
            break;
          }
          await new Promise((r) => setTimeout(r, 1000));
        }
      } finally {
        db.close();
      }
    }
    // Every client is gone: the server's descriptors must come back near where they were.
    let settledDescriptors = await server.openDescriptors();
    for (let i = 0; i < 40 && settledDescriptors > baselineDescriptors + 20; i++) {
      await new Promise((r) => setTimeout(r, 250));
      settledDescriptors = await server.openDescriptors();
    }
    // What the ones left are: sockets by TCP state, files by folder.
    const leftKinds: Record<string, number> = {};
    const pid = server.pid;
    const { readdir, readlink } = await import('node:fs/promises');
    for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => 'gone');
      const kind = target.startsWith('socket:') ? 'socket' : target.replace(/\/[^/]*$/, '/…');
      leftKinds[kind] = (leftKinds[kind] ?? 0) + 1;
    }
    const { execFileSync } = await import('node:child_process');
    const port = new URL(url).port;
    const ssOut = execFileSync('ss', ['-tanH', `( sport = :${port} )`], { encoding: 'utf8' });
    const tcpStates: Record<string, number> = {};
    for (const line of ssOut.split('\n').filter(Boolean)) tcpStates[line.split(/\s+/)[0]!] = (tcpStates[line.split(/\s+/)[0]!] ?? 0) + 1;
    // This process's fetch keeps idle connections as long as the server's Keep-Alive allows (72 s):
    // those are the clients', not a leak. A server socket with no client socket open is one.
    const clientSockets = execFileSync('ss', ['-tanH', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' }).split('\n').filter(Boolean).length;

    // Progress: what each reader last saw accepted must be what is stored (none lost, none older).
    const { lost, unsureSkipped, mismatches } = checkStoredProgress(join(work, 'data', 'folio.sqlite'), sent, emails);
    const booksAfter = (await apiCall<{ content: BookRow[] }>(url, admin, `/api/v1/books?size=2000&sort=name,asc`)).content;
    const mediaChanged = booksAfter.filter((b) => mediaBefore.get(b.id) !== `${b.media.status}/${b.media.pagesCount}`).length + Math.abs(booksAfter.length - mediaBefore.size);

    const stderr = server.stderr();
    const log = await readFile(join(work, 'data', 'logs', 'folio.log'), 'utf8').catch(() => '');
    // The server's own time for each request (responseTime), to tell its work from waiting to be accepted.
    if (process.env.BENCH_LOAD_KEEP_LOG) await writeFile(process.env.BENCH_LOAD_KEEP_LOG, log);
    const busy = (`${stderr}${log}`.match(/SQLITE_BUSY|SQLITE_LOCKED|database is locked/g) ?? []).length;
    const logErrors = log.split('\n').filter((l) => /"level":(50|60)/.test(l));
    const alive = server.exited() === null;
    const classes = [...latencies].map(([cls, list]) => ({
      class: cls,
      count: list.length,
      p50Ms: round(percentile(list, 50), 1),
      p95Ms: round(percentile(list, 95), 1),
      p99Ms: round(percentile(list, 99), 1),
      errors: errors.get(cls)?.length ?? 0,
    }));
    const allErrors = [...errors.values()].flat();
    const results = {
      date: new Date().toISOString(),
      loadAverage: loadavg().map((l) => round(l, 2)),
      descriptorLimit: NOFILE,
      books: total,
      readers: READERS,
      users: USERS,
      aborters: ABORTERS,
      slowReaders: SLOW,
      seconds: round(elapsed, 1),
      errors: allErrors.length,
      errorKinds: Object.fromEntries([...errors].map(([cls, list]) => [cls, tally(list)])),
      unavailable503: unavailable,
      peakOpenDescriptors: peaks.descriptors,
      descriptorsBefore: baselineDescriptors,
      descriptorsAfterClientsLeft: settledDescriptors,
      descriptorsLeftByKind: leftKinds,
      serverTcpStatesAfter: tcpStates,
      clientSocketsStillOpen: clientSockets,
      peakRssMiB: round(peaks.rss / 1024 / 1024, 1),
      eventLoopDelayMs: { p99Worst: Math.max(0, ...loopSamples.map((s) => s.p99)), max: Math.max(0, ...loopSamples.map((s) => s.max)) },
      sqliteBusyLines: busy,
      progressChecked: sent.filter((s) => s.page > 0).length,
      progressLostOrOlder: lost,
      progressUnsureSkipped: unsureSkipped,
      progressMismatches: mismatches,
      booksWhoseMediaChanged: mediaChanged,
      adminTasksDrainedAfterS: scanDone,
      tasksLeft: (() => {
        const db = new Database(join(work, 'data', 'folio.sqlite'), { readonly: true, fileMustExist: true });
        try {
          return db.prepare('SELECT type, count(*) AS n FROM task GROUP BY type').all();
        } finally {
          db.close();
        }
      })(),
      logErrorLines: logErrors.length,
      firstLogErrors: logErrors.slice(0, 5).map((l) => l.slice(0, 400)),
      stderrTail: stderr.slice(-1500),
      serverAlive: alive,
    };
    console.table(classes);
    console.log(JSON.stringify({ ...results }, null, 2));
    await writeFile(join(import.meta.dirname, 'results', `load-wave-${NOFILE}.json`), `${JSON.stringify({ ...results, classes }, null, 2)}\n`);
    return allErrors.length === 0 && alive && busy === 0 && lost === 0 && mediaChanged === 0 && unavailable.without === 0;
  } finally {
    await server?.stop();
  }
}
