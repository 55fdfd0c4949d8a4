/**
 * Load scenario "readers" (`BENCH_LOAD_SCENARIO=readers node bench/load.ts`): hundreds of readers
 * behaving like Komga's web client and Mihon, against the real server and a mixed library, while an
 * admin scans and refreshes metadata. Not part of `npm run bench` (quick or full): it runs minutes.
 *
 * - BENCH_LOAD_BOOKS books (400), mostly CBZ, one in ten each CBR, PDF and EPUB;
 * - BENCH_LOAD_USERS accounts (20); BENCH_LOAD_READERS readers (400) spread over them; each reader
 *   signs in its own way (cookie session from a Basic login, Basic on every call as Mihon does, or
 *   an API key in X-API-Key), loads the dashboard (on deck, keep reading, recently added, new
 *   series), browses the library page by page with series thumbnails, opens a book and reads it
 *   one page after another saving progress after each, at a human pace (BENCH_LOAD_PAGE_MS, 3 s)
 *   or skipping fast (150 ms); one in ten downloads the whole book, one in ten browses OPDS, one
 *   in four holds /sse/v1/events open;
 * - meanwhile the admin starts a library scan and a metadata refresh.
 *
 * Reported per route class: count, p50/p95/p99 latency, errors (any 5xx, 429, reset or timeout); the
 * latency of a tiny probe call every 100 ms (event-loop and queueing delay as a client sees it);
 * peak descriptors and RSS; SQLite busy/locked lines and the server's log volume. BENCH_LOAD_KEEP_LOG=FILE
 * keeps the run's server log (each request's own responseTime, to tell the server's work from waiting).
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from '../tests/unit/server/support/spawned-server.ts';
import { createImageEpub } from '../tests/fixtures/epub.ts';
import { writePdf } from '../tests/fixtures/pdf.ts';
import { writeRar5 } from '../tests/fixtures/rar.ts';
import { generateLibrary } from './lib/generate-library.ts';
import { limited, pause } from './lib/pacing.ts';
import { samplePeaks } from './lib/peak-sampler.ts';
import { percentile, round } from './lib/stats.ts';

const env = (name: string, value: number) => Number(process.env[name] ?? value);
const BOOKS = env('BENCH_LOAD_BOOKS', 400);
const USERS = env('BENCH_LOAD_USERS', 20);
const READERS = env('BENCH_LOAD_READERS', 400);
const SECONDS = env('BENCH_LOAD_SECONDS', 60);
const PAGE_MS = env('BENCH_LOAD_PAGE_MS', 3000);
const FAST_MS = 150;
const PAGES = 12;
const NOFILE = 1024;
const PASSWORD = 'reader password 1234';

type Auth = { kind: 'cookie'; cookie: string } | { kind: 'basic'; header: string } | { kind: 'apikey'; key: string };

interface Stats {
  latencies: Map<string, number[]>;
  errors: Map<string, string[]>;
}

const record = (stats: Stats, cls: string, ms: number, error?: string) => {
  const list = stats.latencies.get(cls) ?? stats.latencies.set(cls, []).get(cls)!;
  list.push(ms);
  if (error) (stats.errors.get(cls) ?? stats.errors.set(cls, []).get(cls)!).push(error);
};

/** A failed fetch with its cause ("fetch failed" alone does not tell a refused connection from a reset). */
function failure(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? String(error) : `${String(error)} ${String(cause)}`;
}

/** "3× 429 /api/v1/books/ondeck": errors counted by kind, ids and queries left out. */
function tally(errors: string[]): string[] {
  const counts = new Map<string, number>();
  for (const error of errors) {
    const kind = error.replace(/[0-9A-Z]{13}/g, ':id').replace(/\?[^:\s]*/, '');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, n]) => `${n}× ${kind}`);
}

async function mixedLibrary(root: string, books: number): Promise<number> {
  const perSeries = 10;
  const cbzSeries = Math.ceil((books * 0.7) / perSeries);
  const generated = await generateLibrary({ root, seriesCount: cbzSeries, booksPerSeries: perSeries, pagesPerBook: PAGES, pageWidth: 640, pageHeight: 960, noise: true });
  let count = generated.books.length;
  const others = Math.max(3, Math.round(books * 0.1));
  for (let i = 0; i < others; i++) {
    const series = `Other ${String(Math.floor(i / perSeries)).padStart(3, '0')}`;
    const n = String(i).padStart(4, '0');
    const members = Array.from({ length: PAGES }, (_, p) => ({ name: `${String(p + 1).padStart(3, '0')}.jpg`, data: generated.pageBytes[(i + p) % generated.pageBytes.length]! }));
    await mkdir(join(root, `${series} CBR`), { recursive: true });
    await writeRar5(join(root, `${series} CBR`, `Rar ${n}.cbr`), members);
    await writePdf(join(root, `${series} PDF`, `Pdf ${n}.pdf`), Array.from({ length: PAGES }, (_, p) => ({ width: 420, height: 640, color: [(i * 40) % 256, (p * 20) % 256, 90] })));
    await createImageEpub(
      join(root, `${series} EPUB`, `Epub ${n}.epub`),
      Array.from({ length: 4 }, (_, p) => ({ width: 320, height: 480, color: [(i * 30) % 256, (p * 60) % 256, 120] as [number, number, number], format: 'jpeg' as const })),
    );
    count += 3;
  }
  return count;
}

export async function runReadersScenario(work: string): Promise<boolean> {
  let server: SpawnedServer | undefined;
  try {
    console.log(`load/readers: generating ~${BOOKS} books…`);
    const total = await mixedLibrary(join(work, 'library'), BOOKS);
    server = await spawnServer(join(work, 'data'), { nofile: NOFILE });
    const url = server.url;
    const admin = await claimSession(url);
    const t0setup = Date.now();
    const libraryId = await addLibraryAndWait(url, admin, join(work, 'library'), total, 15 * 60_000);
    console.log(`load/readers: ${total} books analysed in ${round((Date.now() - t0setup) / 1000, 1)} s`);
    const emails = Array.from({ length: USERS }, (_, i) => `reader${i}@example.org`);
    for (const email of emails) await apiCall(url, admin, '/api/v2/users', { method: 'POST', body: JSON.stringify({ email, password: PASSWORD, roles: ['PAGE_STREAMING', 'FILE_DOWNLOAD'] }) });
    const basic = (email: string) => `Basic ${Buffer.from(`${email}:${PASSWORD}`).toString('base64')}`;
    // API keys are made from a session of their owner, as the web client does.
    const apiKeys: string[] = [];
    for (const email of emails.slice(0, Math.ceil(USERS / 4))) {
      const login = await fetch(`${url}/api/v2/users/me`, { headers: { authorization: basic(email) } });
      const cookie = login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))!.split(';')[0]!;
      const made = await apiCall<{ key: string }>(url, cookie, '/api/v2/users/me/api-keys', { method: 'POST', body: JSON.stringify({ comment: 'bench' }) });
      apiKeys.push(made.key);
    }

    const stats: Stats = { latencies: new Map(), errors: new Map() };
    const stop = new AbortController();
    const peaks = samplePeaks(server!);

    const call = async (cls: string, auth: Auth, path: string, init: RequestInit = {}): Promise<{ ok: boolean; json(): unknown } | undefined> => {
      const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
      if (auth.kind === 'cookie') headers.cookie = auth.cookie;
      else if (auth.kind === 'basic') headers.authorization = auth.header;
      else headers['x-api-key'] = auth.key;
      if (init.body) headers['content-type'] = 'application/json';
      const t0 = performance.now();
      try {
        const response = await fetch(`${url}${path}`, { ...init, headers, signal: AbortSignal.timeout(30_000) });
        const body = await response.arrayBuffer();
        const bad = response.status >= 500 || response.status === 429 || (!response.ok && response.status !== 404);
        record(stats, cls, performance.now() - t0, bad ? `${response.status} ${path}` : undefined);
        return bad ? undefined : { ok: response.ok, json: () => JSON.parse(Buffer.from(body).toString()) as unknown };
      } catch (error) {
        record(stats, cls, performance.now() - t0, `${path}: ${failure(error)}`);
        return undefined;
      }
    };
    const json = async <T>(cls: string, auth: Auth, path: string): Promise<T | undefined> => {
      const response = await call(cls, auth, path);
      return response?.ok ? (response.json() as T) : undefined;
    };

    const signIn = async (index: number): Promise<Auth | undefined> => {
      const email = emails[index % USERS]!;
      const mode = index % 4;
      if (mode === 1) return { kind: 'basic', header: basic(email) };
      if (mode === 2 && apiKeys.length > 0) return { kind: 'apikey', key: apiKeys[index % apiKeys.length]! };
      const t0 = performance.now();
      try {
        const response = await fetch(`${url}/api/v2/users/me`, { headers: { authorization: basic(email), 'X-Requested-With': 'XMLHttpRequest' }, signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        const cookie = response.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='));
        record(stats, 'login', performance.now() - t0, response.ok && cookie ? undefined : `login ${response.status}`);
        return cookie ? { kind: 'cookie', cookie: cookie.split(';')[0]! } : undefined;
      } catch (error) {
        record(stats, 'login', performance.now() - t0, `login: ${failure(error)}`);
        return undefined;
      }
    };

    const reader = async (index: number) => {
      await pause(Math.random() * 5000, stop.signal);
      const auth = await signIn(index);
      if (!auth || stop.signal.aborted) return;
      const fast = index % 3 === 0;
      const dashboard = `dashboard/${auth.kind}`;
      await limited(6, [
        () => call(dashboard, auth, '/api/v1/books/ondeck?page=0&size=20'),
        () => call(dashboard, auth, '/api/v1/books?read_status=IN_PROGRESS&sort=readProgress.readDate,desc&page=0&size=20'),
        () => call(dashboard, auth, '/api/v1/books/latest?page=0&size=20'),
        () => call(dashboard, auth, '/api/v1/series/new?page=0&size=20'),
        () => call(dashboard, auth, '/api/v1/series/updated?page=0&size=20'),
      ]);
      let bookIds: string[] = [];
      for (let page = 0; page < 3 && !stop.signal.aborted; page++) {
        const result = await json<{ content: { id: string }[] }>('browse', auth, `/api/v1/series?library_id=${libraryId}&page=${(index + page) % 8}&size=20&sort=metadata.titleSort,asc`);
        if (!result) continue;
        await limited(6, result.content.slice(0, 10).map((s) => () => call('thumbnail', auth, `/api/v1/series/${s.id}/thumbnail`)));
        if (page === 0 && result.content.length > 0) {
          const series = result.content[index % result.content.length]!;
          const books = await json<{ content: { id: string }[] }>('browse', auth, `/api/v1/series/${series.id}/books?page=0&size=20&sort=metadata.numberSort,asc`);
          bookIds = books?.content.map((b) => b.id) ?? [];
          await limited(6, bookIds.slice(0, 10).map((id) => () => call('thumbnail', auth, `/api/v1/books/${id}/thumbnail`)));
        }
      }
      if (index % 10 === 7) {
        for (const path of ['/opds/v1.2/catalog', '/opds/v1.2/ondeck', '/opds/v2/catalog', `/opds/v2/libraries/${libraryId}/browse?page=0`]) {
          await call('opds', auth, path);
        }
      }
      const bookId = bookIds[index % Math.max(1, bookIds.length)];
      if (!bookId) return;
      const book = await json<{ media: { pagesCount: number; mediaProfile?: string } }>('book', auth, `/api/v1/books/${bookId}`);
      await call('book', auth, `/api/v1/books/${bookId}/pages`);
      if (index % 10 === 3) await call('download', auth, `/api/v1/books/${bookId}/file`);
      const pages = Math.max(1, book?.media.pagesCount ?? PAGES);
      for (let page = 1; !stop.signal.aborted; page = (page % pages) + 1) {
        await call('page', auth, `/api/v1/books/${bookId}/pages/${page}`);
        await call('progress', auth, `/api/v1/books/${bookId}/read-progress`, { method: 'PATCH', body: JSON.stringify({ page }) });
        await pause(fast ? FAST_MS : PAGE_MS * (0.5 + Math.random()), stop.signal);
      }
    };

    const sse = async (index: number) => {
      let cookie: string | undefined;
      try {
        const login = await fetch(`${url}/api/v2/users/me`, { headers: { authorization: basic(emails[index % USERS]!) }, signal: AbortSignal.timeout(30_000) });
        await login.arrayBuffer();
        cookie = login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='))?.split(';')[0];
        if (!cookie) return record(stats, 'sse', 0, `SSE login ${login.status}`);
      } catch (error) {
        // A sign-in that never got an answer (refused or timed out connection) is an error of the run, not its end.
        return record(stats, 'sse', 0, `SSE login: ${failure(error)}`);
      }
      try {
        const response = await fetch(`${url}/sse/v1/events`, { headers: { cookie }, signal: stop.signal });
        if (!response.ok) record(stats, 'sse', 0, `SSE ${response.status}`);
        for await (const chunk of response.body!) void chunk;
      } catch (error) {
        if (!stop.signal.aborted) record(stats, 'sse', 0, `SSE: ${failure(error)}`);
      }
    };

    const probe = async () => {
      while (!stop.signal.aborted) {
        await call('probe', { kind: 'cookie', cookie: admin }, '/api/v1/libraries');
        await pause(100, stop.signal);
      }
    };

    const logPath = join(work, 'data', 'logs', 'folio.log');
    const logBefore = (await stat(logPath)).size;
    const stderrBefore = server.stderr().length;
    const t0 = Date.now();
    const sseClients = Array.from({ length: Math.floor(READERS / 4) }, (_, i) => sse(i));
    const admin0 = (async () => {
      await pause(3000, stop.signal);
      await call('admin', { kind: 'cookie', cookie: admin }, `/api/v1/libraries/${libraryId}/scan?deep=true`, { method: 'POST' });
      await call('admin', { kind: 'cookie', cookie: admin }, `/api/v1/libraries/${libraryId}/metadata/refresh`, { method: 'POST' });
    })();
    const probing = probe();
    const readers = Array.from({ length: READERS }, (_, i) => reader(i));
    setTimeout(() => stop.abort(), SECONDS * 1000);
    await Promise.all([...readers, admin0, probing]);
    const elapsed = (Date.now() - t0) / 1000;
    await Promise.all(sseClients);
    peaks.stop();
    const stderr = server.stderr().slice(stderrBefore);
    const log = (await readFile(logPath)).subarray(logBefore).toString();
    // The server's own time for each request (responseTime), to tell its work from waiting to be accepted.
    if (process.env.BENCH_LOAD_KEEP_LOG) await writeFile(process.env.BENCH_LOAD_KEEP_LOG, log);
    const busy = (`${stderr}${log}`.match(/SQLITE_BUSY|SQLITE_LOCKED|database is locked/g) ?? []).length;
    const logLines = log.split('\n').filter(Boolean);
    const levels: Record<string, number> = {};
    for (const line of logLines) {
      const level = /"level":(\d+)/.exec(line)?.[1] ?? '?';
      levels[level] = (levels[level] ?? 0) + 1;
    }
    const alive = server.exited() === null;
    const classes = [...stats.latencies].map(([cls, list]) => ({
      class: cls,
      count: list.length,
      p50Ms: round(percentile(list, 50), 1),
      p95Ms: round(percentile(list, 95), 1),
      p99Ms: round(percentile(list, 99), 1),
      errors: stats.errors.get(cls)?.length ?? 0,
    }));
    const errors = [...stats.errors.values()].flat();
    const results = {
      date: new Date().toISOString(),
      loadAverage: loadavg().map((l) => round(l, 2)),
      books: total,
      users: USERS,
      readers: READERS,
      seconds: round(elapsed, 1),
      classes,
      errors: errors.length,
      firstErrors: [...new Set(errors)].slice(0, 8),
      errorKinds: Object.fromEntries([...stats.errors].map(([cls, list]) => [cls, tally(list)])),
      peakOpenDescriptors: peaks.descriptors,
      peakRssMiB: round(peaks.rss / 1024 / 1024, 1),
      sqliteBusyLines: busy,
      stderrBytes: stderr.length,
      logBytes: log.length,
      logLinesByLevel: levels,
      firstLogErrors: logLines.filter((l) => /"level":(50|60)/.test(l)).slice(0, 5).map((l) => l.slice(0, 400)),
      serverAlive: alive,
    };
    console.table(classes);
    console.log(JSON.stringify({ ...results, classes: undefined }, null, 2));
    await writeFile(join(import.meta.dirname, 'results', 'load-readers.json'), `${JSON.stringify(results, null, 2)}\n`);
    return errors.length === 0 && alive && busy === 0;
  } finally {
    await server?.stop();
  }
}
