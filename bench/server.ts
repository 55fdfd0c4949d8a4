/**
 * Server benchmarks (issue: media server), printed and written to bench/results/server.{md,json}:
 *  1. scan + analysis of a generated library (default 2,000 books) through the real server,
 *     next to the floor: reading every archive's directory and image headers with the same media
 *     code and the same concurrency, without the database or the task queue;
 *  2. page-serving throughput (pages/s, MB/s) with concurrent clients, next to serving the same
 *     images as plain files.
 * Environment: BENCH_BOOKS (2000), BENCH_PAGES (12), BENCH_RUNS (3), BENCH_SECONDS (5), BENCH_CLIENTS (8,32,128),
 * BENCH_SERVING_BOOKS (500), BENCH_SERVING_PAGES (4), BENCH_SERVER_PARTS (scan,serving), BENCH_BASELINE_REPO (another
 * checkout measured in the same runs, both parts),
 * BENCH_CPU_PROF, BENCH_LIBRARY (JSON of library options, default: Komga's defaults), BENCH_THREAD_CPU=1 (the scan
 * server's CPU by thread name), BENCH_PERF_MAP=1 (the scan server writes /tmp/perf-<pid>.map, so that `perf record -p`
 * names its JavaScript: V8's own profile counts a thread that lost its core as busy where it stood).
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyseContainer } from '../server/media/analyse-container.ts';
import { startFolio, type RunningFolio } from '../tests/e2e/support/folio-server.ts';
import { generateLibrary } from './lib/generate-library.ts';
import { startNginx } from './lib/nginx.ts';
import { treeCpuSeconds } from './lib/tree-cpu.ts';
import { haveWrk, wrk } from './lib/wrk.ts';
import { median, percentile, round } from './lib/stats.ts';
import { waitUntil, waitUntilTimed, withTimeLimit } from './lib/wait.ts';

const QUICK = process.env.BENCH_QUICK === '1';
/**
 * The quick run scans 200 books: at 30, the scan's fixed start (library creation, the first task's
 * start, the last poll) was most of a 0.1-0.2 s READY against a 0.03 s floor, and the ratio swung
 * 3-7x between identical runs; 200 books weigh the per-book costs the 2,000-book target is about.
 */
const BOOKS = Number(process.env.BENCH_BOOKS ?? (QUICK ? 200 : 2000));
const PAGES = Number(process.env.BENCH_PAGES ?? 12);
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 3));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 5));
/** Concurrent clients of the page-serving runs (the issue's 8, 32 and 128). */
/** One process per core, as nginx's `worker_processes auto` (at least two). */
const FLOOR_PROCESSES = Math.max(2, availableParallelism());
const CLIENT_COUNTS = (process.env.BENCH_CLIENTS ?? '8,32,128').split(',').map(Number);
/** Books the page-serving runs spread their requests over. */
const SERVING_BOOKS = Number(process.env.BENCH_SERVING_BOOKS ?? (QUICK ? 40 : 500));
/**
 * Pages per serving book: 4 by default, so that 500 books (about 2.7 GB of noise JPEG) stay in the
 * page cache of a small machine and both servers are measured on warm files, not on the disk.
 */
const SERVING_PAGES = Number(process.env.BENCH_SERVING_PAGES ?? 4);
/** BENCH_SERVER_PARTS=serving (or scan) runs one half only; a partial run prints but writes no results. */
const SERVER_PARTS = new Set((process.env.BENCH_SERVER_PARTS ?? 'scan,serving').split(',').map((part) => part.trim()));
const TASK_WORKERS = 2; // the server's default number of analysis workers
const EMAIL = 'bench@example.org';
const PASSWORD = 'bench-password';

async function claimAndLogin(folio: RunningFolio): Promise<string> {
  const claim = await fetch(`${folio.url}/api/v1/claim`, {
    method: 'POST',
    headers: { 'X-Komga-Email': EMAIL, 'X-Komga-Password': PASSWORD },
  });
  if (!claim.ok) throw new Error(`claim failed: ${claim.status}`);
  const login = await fetch(`${folio.url}/api/v2/users/me`, {
    headers: { Authorization: `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}` },
  });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

async function api<T>(folio: RunningFolio, cookie: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${folio.url}${path}`, {
    ...init,
    // The XHR marker: cookie-authenticated writes without it are refused as cross-site (CSRF guard).
    headers: { cookie, 'content-type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...(init.headers ?? {}) },
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

async function countBooks(folio: RunningFolio, cookie: string, status: string): Promise<number> {
  const page = await api<{ totalElements: number }>(folio, cookie, `/api/v1/books?media_status=${status}&size=1`);
  return page.totalElements;
}

/**
 * Follows the task queue through the live event stream (TaskQueueStatus, sent to admins on
 * connect and on every change) and resolves once the queue has been seen empty after `since`.
 */
function watchTaskQueue(folio: RunningFolio, cookie: string): { idleAfter(since: number): Promise<number>; close(): void } {
  const controller = new AbortController();
  let lastEmptyAt = -1;
  let waiter: { since: number; resolve: (at: number) => void } | undefined;
  void (async () => {
    const response = await fetch(`${folio.url}/sse/v1/events`, { headers: { cookie }, signal: controller.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!message.includes('event:TaskQueueStatus') && !message.includes('event: TaskQueueStatus')) continue;
        const data = /data: ?(.*)/.exec(message)?.[1];
        if (data && (JSON.parse(data) as { count: number }).count === 0) {
          lastEmptyAt = performance.now();
          if (waiter && lastEmptyAt >= waiter.since) waiter.resolve(lastEmptyAt);
        }
      }
    }
  })().catch(() => undefined);
  return {
    idleAfter(since) {
      if (lastEmptyAt >= since) return Promise.resolve(lastEmptyAt);
      return new Promise((resolve) => (waiter = { since, resolve }));
    },
    close: () => controller.abort(),
  };
}

/**
 * Wall times from library creation to every book analysed (readable), and to the end of all the
 * background work the scan queued (posters, hashes, barcode search).
 */
async function timeScan(root: string, expectedBooks: number, checkout?: string): Promise<{ ready: number; idle: number; cpuSeconds: number; tasks: TaskTimes }> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const folio = await startFolio({ checkout, nodeOptions: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, checkout ? 'scan-baseline' : 'scan')}`] : process.env.BENCH_PERF_MAP ? ['--perf-basic-prof'] : [] });
  try {
    const cookie = await claimAndLogin(folio);
    const queue = watchTaskQueue(folio, cookie);
    const started = performance.now();
    const cpuAtStart = await processCpuSeconds(folio.pid);
    const mainAtStart = await mainThreadCpuSeconds(folio.pid);
    await api(folio, cookie, '/api/v1/libraries', {
      method: 'POST',
      body: JSON.stringify({ name: 'Bench', root, ...(JSON.parse(process.env.BENCH_LIBRARY ?? '{}') as object) }),
    });
    await waitUntilTimed('every book analysed', async () => (await countBooks(folio, cookie, 'READY')) >= expectedBooks, started);
    const readyAt = performance.now();
    // CPU to READY, the whole server and its main thread alone: on a shared machine the wall time
    // of this phase swings with the load, what the server spent on it much less.
    const [cpuToReady, mainToReady] = [(await processCpuSeconds(folio.pid)) - cpuAtStart, (await mainThreadCpuSeconds(folio.pid)) - mainAtStart];
    const schedAtReady = await schedulerSeconds(folio.pid);
    const idleAt = await withTimeLimit('the task queue to empty', queue.idleAfter(readyAt - 1));
    const cpuSeconds = round((await processCpuSeconds(folio.pid)) - cpuAtStart);
    const schedAtIdle = await schedulerSeconds(folio.pid);
    const [ran, waited, wall] = [schedAtIdle.ran - schedAtReady.ran, schedAtIdle.waited - schedAtReady.waited, (idleAt - readyAt) / 1000];
    console.log(`  to READY: server CPU ${round(cpuToReady)} s, of which its main thread ${round(mainToReady)} s`);
    console.log(
      `  background after READY: server threads ran ${round(ran)} s and waited ${round(waited)} s for a core in ${round(wall)} s:` +
        ` it wanted ${round((ran + waited) / wall)} cores and got ${round(ran / wall)}`,
    );
    if (process.env.BENCH_THREAD_CPU) console.log(`  server CPU by thread (whole process life): ${await threadCpuSeconds(folio.pid)}`);
    queue.close();
    return { ready: readyAt - started, idle: idleAt - started, cpuSeconds, tasks: await taskTimes(folio, cookie) };
  } finally {
    await folio.stop();
  }
}

/**
 * User + system CPU seconds a process has used (Linux /proc/<pid>/stat, in clock ticks of 1/100 s):
 * steadier than wall times on a loaded machine, though not immune to it.
 */
async function processCpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '').split(' ');
  // After the command's closing parenthesis, utime and stime are the 12th and 13th fields.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** User + system CPU seconds of a process's main thread (its first task, whose id is the process's). */
async function mainThreadCpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Seconds the threads of a process have run, and waited runnable for a core (/proc/<pid>/task/<tid>/schedstat,
 * in nanoseconds). Over a window, (ran + waited) / wall is how many cores the process wanted, whatever the
 * machine's load: on a shared machine "both cores used?" cannot be read from wall times. Threads that ended
 * in the window are not counted (libvips keeps its workers, so few do).
 */
async function schedulerSeconds(pid: number): Promise<{ ran: number; waited: number }> {
  let [ran, waited] = [0, 0];
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const fields = (await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => '0 0')).split(' ');
    ran += Number(fields[0]) / 1e9;
    waited += Number(fields[1]) / 1e9;
  }
  return { ran, waited };
}

/** CPU seconds per thread name of a process (libuv's pool, libvips workers, V8's helpers, the main thread). */
async function threadCpuSeconds(pid: number): Promise<string> {
  const byName = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
    const name = /\((.*)\)/s.exec(stat)?.[1] ?? '?';
    const fields = stat.replace(/^.*\) /s, '').split(' ');
    byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return [...byName].sort((a, b) => b[1] - a[1]).map(([name, seconds]) => `${name} ${round(seconds)} s`).join(', ');
}

/** Per task type: how many ran and their summed run time in seconds (Komga's komga.tasks.execution metric). */
type TaskTimes = Record<string, { count: number; seconds: number }>;

async function taskTimes(folio: RunningFolio, cookie: string): Promise<TaskTimes> {
  const metric = '/actuator/metrics/komga.tasks.execution';
  const all = await api<{ availableTags: { tag: string; values: string[] }[] }>(folio, cookie, metric);
  const times: TaskTimes = {};
  for (const type of all.availableTags.find((t) => t.tag === 'type')?.values ?? []) {
    const one = await api<{ measurements: { statistic: string; value: number }[] }>(folio, cookie, `${metric}?tag=type:${type}`);
    const stat = (name: string) => one.measurements.find((m) => m.statistic === name)?.value ?? 0;
    times[type] = { count: stat('COUNT'), seconds: round(stat('TOTAL_TIME')) };
  }
  return times;
}

/** The floor: the same directory and header reading, no database, same concurrency. */
async function timeFloor(books: string[]): Promise<number> {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: TASK_WORKERS }, async () => {
      while (next < books.length) {
        const book = books[next++]!;
        await analyseContainer(book, true);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuAtStart);
  // This process does nothing else meanwhile: its CPU is the floor's (libuv's pool included).
  console.log(`floor: ${round((performance.now() - started) / 1000)} s, CPU ${round((cpu.user + cpu.system) / 1e6)} s`);
  return performance.now() - started;
}

interface Throughput {
  /** Failed requests (wrk's connect, read, write, timeout and non-2xx counts); the fetch loop throws instead. */
  errors?: number;
  pagesPerSecond: number;
  megabytesPerSecond: number;
  latencyMedianMs: number;
  latencyP95Ms: number;
  averagePageKiB: number;
  /** CPU (user + system) of the server's processes and threads per request, in µs (bench/lib/tree-cpu.ts). */
  cpuPerRequestUs?: number;
}

async function drive(urls: string[], headers: Record<string, string>, clients: number): Promise<Throughput> {
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let bytes = 0;
  let cursor = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const url = urls[cursor++ % urls.length]!;
        const t0 = performance.now();
        const response = await fetch(url, { headers });
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        // Read first, then add: `bytes += await …` would read `bytes` before the await and lose updates.
        const received = (await response.arrayBuffer()).byteLength;
        bytes += received;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    pagesPerSecond: round(latencies.length / seconds, 1),
    megabytesPerSecond: round(bytes / seconds / 1e6, 1),
    latencyMedianMs: round(median(latencies)),
    latencyP95Ms: round(percentile(latencies, 95)),
    averagePageKiB: round(bytes / latencies.length / 1024, 1),
  };
}

/** A Node file server for `folder` (bench/lib/static-server.ts unless told otherwise), in a process of its own. */
async function startStaticServer(folder: string, script = 'bench/lib/static-server.ts', args: string[] = []): Promise<{ url: string; pid?: number; stop: () => void }> {
  const child = spawn(process.execPath, [script, folder, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`static server exited ${code}`)));
  });
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/** The same measure through wrk: `urls` share one origin. */
async function driveWithWrk(work: string, urls: string[], cookie: string, clients: number): Promise<Throughput> {
  const origin = new URL(urls[0]!).origin;
  const result = await wrk(work, origin, urls.map((url) => url.slice(origin.length)), clients, SECONDS, cookie);
  return {
    errors: result.errors,
    pagesPerSecond: round(result.requests / result.seconds, 1),
    megabytesPerSecond: round(result.bytes / result.seconds / 1e6, 1),
    latencyMedianMs: round(result.latencyMedianMs),
    latencyP95Ms: round(result.latencyP95Ms),
    averagePageKiB: round(result.bytes / Math.max(1, result.requests) / 1024, 1),
  };
}

interface ServingResults {
  /** What served the plain files, and what generated the load. */
  peer: string;
  driver: string;
  /** The other checkout measured beside the current one (BENCH_BASELINE_REPO), if any. */
  baseline: string | null;
  /**
   * Per client count: Folio's page route, the same bytes as plain files, and the same files from
   * bench/lib/node-floor-server.ts (the most one Node thread serves), one entry per run.
   */
  pages: { clients: number; folio: Throughput[]; plain: Throughput[]; baseline: Throughput[]; nodeFloor: Throughput[]; nodeFloorProcesses: Throughput[] }[];
  /** Book posters (GET /books/{id}/thumbnail) and the same files served plain, at 32 clients. */
  thumbnails: { clients: number; folio: Throughput[]; plain: Throughput[]; baseline: Throughput[]; nodeFloor: Throughput[]; nodeFloorProcesses: Throughput[] };
}

/**
 * Page and poster serving through the real server, each next to a plain file server (nginx when
 * installed, else Fastify's static plugin) handing out the very same bytes.
 * Requests are spread over SERVING_BOOKS books, so the archive pool sees many distinct files.
 */
/** One server under test, ready to be driven: its page and poster addresses and its session cookie. */
interface ServedFolio {
  folio: RunningFolio;
  cookie: string;
  pageUrls: string[];
  posterUrls: string[];
}

/** Logs in, adds the serving library and waits until every book is READY and the task queue is empty. */
export async function prepareServing(folio: RunningFolio, root: string, bookCount: number): Promise<ServedFolio> {
  const cookie = await claimAndLogin(folio);
  // Measured once the server is quiet: no file hashing or barcode search (the scan bench times
  // those); the posters it draws are waited for.
  const queue = watchTaskQueue(folio, cookie);
  await api(folio, cookie, '/api/v1/libraries', {
    method: 'POST',
    body: JSON.stringify({ name: 'Serve', root, hashFiles: false, hashPages: false, hashKoreader: false, importBarcodeIsbn: false }),
  });
  await waitUntil('every book analysed', async () => (await countBooks(folio, cookie, 'READY')) >= bookCount);
  await withTimeLimit('the task queue to empty', queue.idleAfter(performance.now() - 1));
  queue.close();
  const books = await api<{ content: { id: string; name: string }[] }>(folio, cookie, '/api/v1/books?unpaged=true&sort=name,asc');
  const pageUrls = books.content.flatMap((b) =>
    Array.from({ length: SERVING_PAGES }, (_, p) => `${folio.url}/api/v1/books/${b.id}/pages/${p + 1}`),
  );
  // Interleave books so consecutive requests hit different archives.
  pageUrls.sort((a, b) => Number(/pages\/(\d+)$/.exec(a)?.[1]) - Number(/pages\/(\d+)$/.exec(b)?.[1]));
  const posterUrls = books.content.map((b) => `${folio.url}/api/v1/books/${b.id}/thumbnail`);
  return { folio, cookie, pageUrls, posterUrls };
}

/**
 * Page and poster serving through the real server, each next to a plain file server (nginx when
 * installed, else Fastify's static plugin) handing out the very same bytes. Requests are spread
 * over SERVING_BOOKS books, so the archive pool sees many distinct files. With BENCH_BASELINE_REPO
 * (another checkout, e.g. a worktree of main) that version of the server is measured too, in the
 * same run: before and after side by side. BENCH_CPU_PROF=<dir> profiles both (<dir>/current, <dir>/baseline).
 */
async function benchThroughput(work: string): Promise<ServingResults> {
  const root = join(work, 'serving');
  const seriesCount = Math.max(1, Math.round(SERVING_BOOKS / 25));
  const library = await generateLibrary({
    root, seriesCount, booksPerSeries: Math.ceil(SERVING_BOOKS / seriesCount), pagesPerBook: SERVING_PAGES, pageWidth: 1200, pageHeight: 1800, noise: true,
  });
  const plainDir = join(work, 'plain');
  await mkdir(join(plainDir, 'posters'), { recursive: true });
  // The same bytes as plain files, one file per page Folio serves: every book holds the same
  // rendered variants in some order, and file i holds variant i mod 8. As many distinct files as
  // archive entries, so that both sides read as many distinct bytes through the page cache; with
  // the 8 variants alone the peers served 11 MB from the CPU caches while Folio read 2.7 GB
  // (nginx measured 1.5x faster on 8 files than on 2,000 copies of them, paired runs).
  const plainNames: string[] = [];
  for (let i = 0; i < library.books.length * SERVING_PAGES; i++) {
    const name = `${i}.jpg`;
    await writeFile(join(plainDir, name), library.pageBytes[i % library.pageBytes.length]!);
    plainNames.push(name);
  }
  const profileDir = process.env.BENCH_CPU_PROF;
  // Every archive read once, so that whichever server is measured first does not warm the page
  // cache for the next one.
  for (const book of library.books) await readFile(book);
  for (const name of plainNames) await readFile(join(plainDir, name));
  const profile = (name: string) => (profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`] : []);
  const folio = await startFolio({ nodeOptions: profile('current') });
  const baselineRepo = process.env.BENCH_BASELINE_REPO;
  const baseline = baselineRepo ? await startFolio({ checkout: baselineRepo, nodeOptions: profile('baseline') }) : null;
  // BENCH_SERVING_PROCESSES=2,3: this checkout again with that many processes (README "Serving
  // processes"), measured in turn with the one-process server in the same run.
  const processCounts = (process.env.BENCH_SERVING_PROCESSES ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 1);
  const several: { processes: number; folio: RunningFolio }[] = [];
  for (const processes of processCounts) several.push({ processes, folio: await startFolio({ args: ['--serving-processes', String(processes)] }) });
  // nginx and wrk when installed (`apt-get install nginx wrk`): the issue's peer and a load generator
  // that leaves the CPU to the servers. Otherwise a Node static server and a fetch loop.
  // nginx's workers run as an unprivileged user: the folders must be readable by others.
  await chmod(work, 0o755);
  await chmod(plainDir, 0o755);
  const nginx = await startNginx(work, plainDir);
  const plain = nginx ?? (await startStaticServer(plainDir));
  const nodeFloor = await startStaticServer(plainDir, 'bench/lib/node-floor-server.ts');
  // The same floor in as many processes as cores, as nginx runs: the most Node could serve here
  // if Folio were split into processes.
  const nodeFloorProcesses = await startStaticServer(plainDir, 'bench/lib/node-floor-server.ts', ['--processes', String(FLOOR_PROCESSES)]);
  const peer = nginx ? 'nginx (Debian package, sendfile, one worker per core)' : "a Node static-file server (Fastify's static plugin)";
  const withWrk = await haveWrk();
  const driver = withWrk ? 'wrk, 2 threads' : "Node's fetch in one process";
  try {
    const current = await prepareServing(folio, root, library.books.length);
    const before = baseline ? await prepareServing(baseline, root, library.books.length) : null;
    const split: { processes: number; served: ServedFolio; pages: Map<number, Throughput[]>; posters: Throughput[] }[] = [];
    for (const { processes, folio: server } of several) split.push({ processes, served: await prepareServing(server, root, library.books.length), pages: new Map(), posters: [] });
    const plainUrls = Array.from({ length: current.pageUrls.length }, (_, i) => `${plain.url}/${plainNames[i % plainNames.length]}`);
    const floorUrls = plainUrls.map((url) => url.replace(plain.url, nodeFloor.url));
    const floorProcessesUrls = plainUrls.map((url) => url.replace(plain.url, nodeFloorProcesses.url));
    /** One measure; with the server's process id, its CPU per request too (every process and thread of it). */
    const load = async (urls: string[], headers: Record<string, string>, clients: number, pid?: number) => {
      const cpuBefore = pid === undefined ? 0 : await treeCpuSeconds(pid);
      const measured = await (withWrk ? driveWithWrk(work, urls, headers.cookie ?? '', clients) : drive(urls, headers, clients));
      if (pid !== undefined && measured.pagesPerSecond > 0) {
        measured.cpuPerRequestUs = round(((await treeCpuSeconds(pid)) - cpuBefore) * 1e6 / (measured.pagesPerSecond * SECONDS), 1);
      }
      return measured;
    };
    const cpu = (list: Throughput[]) => `${median(list.map((t) => t.cpuPerRequestUs ?? Number.NaN))} µs CPU`;
    // Untimed first pass over each Node server's pages: the first run (8 clients) otherwise measured
    // Folio while V8 was still compiling its request path (perf, 32 clients, same process: 733 µs of
    // CPU per page in the first 6 s, 615 µs once optimised), against nginx, which has nothing to warm.
    for (const [urls, cookie] of [[current.pageUrls, current.cookie], [before?.pageUrls, before?.cookie], [floorUrls, ''], [floorProcessesUrls, '']] as const) {
      if (urls) await load(urls, { cookie: cookie ?? '' }, 8);
    }
    for (const { served } of split) await load(served.pageUrls, { cookie: served.cookie }, 8);
    /** The several-process servers, each right after the one-process one, in an order that turns each run. */
    const measureSplit = async (run: number, measure: (variant: (typeof split)[number]) => Promise<void>) => {
      for (let i = 0; i < split.length; i++) await measure(split[(i + run) % split.length]!);
    };
    const results: ServingResults = {
      peer,
      driver,
      baseline: baselineRepo ? await describeCheckout(baselineRepo) : null,
      pages: [],
      thumbnails: { clients: 32, folio: [], plain: [], baseline: [], nodeFloor: [], nodeFloorProcesses: [] },
    };
    for (const clients of CLIENT_COUNTS) {
      const entry = { clients, folio: [] as Throughput[], plain: [] as Throughput[], baseline: [] as Throughput[], nodeFloor: [] as Throughput[], nodeFloorProcesses: [] as Throughput[] };
      for (let run = 0; run < RUNS; run++) {
        // The two versions take turns going first (the machine's load drifts).
        const measureCurrent = async () => entry.folio.push(await load(current.pageUrls, { cookie: current.cookie }, clients, folio.pid));
        const measureBefore = async () => {
          if (before) entry.baseline.push(await load(before.pageUrls, { cookie: before.cookie }, clients));
        };
        const measureSplitPages = () =>
          measureSplit(run, async (variant) => {
            const list = variant.pages.get(clients) ?? [];
            list.push(await load(variant.served.pageUrls, { cookie: variant.served.cookie }, clients, variant.served.folio.pid));
            variant.pages.set(clients, list);
          });
        if ((run + results.pages.length) % 2 === 0) {
          await measureCurrent();
          await measureBefore();
          await measureSplitPages();
        } else {
          await measureSplitPages();
          await measureBefore();
          await measureCurrent();
        }
        entry.plain.push(await load(plainUrls, {}, clients, plain.pid));
        entry.nodeFloor.push(await load(floorUrls, {}, clients, nodeFloor.pid));
        entry.nodeFloorProcesses.push(await load(floorProcessesUrls, {}, clients, nodeFloorProcesses.pid));
      }
      results.pages.push(entry);
      console.log(
        `  pages, ${clients} clients: Folio ${median(entry.folio.map((t) => t.pagesPerSecond))}/s` +
          `${before ? `, baseline ${median(entry.baseline.map((t) => t.pagesPerSecond))}/s` : ''}, plain ${median(entry.plain.map((t) => t.pagesPerSecond))}/s` +
          `, Node floor ${median(entry.nodeFloor.map((t) => t.pagesPerSecond))}/s (${FLOOR_PROCESSES} processes ${median(entry.nodeFloorProcesses.map((t) => t.pagesPerSecond))}/s)` +
          split.map((v) => `, Folio ${v.processes} processes ${median((v.pages.get(clients) ?? []).map((t) => t.pagesPerSecond))}/s`).join(''),
      );
      console.log(
        `    CPU per page: Folio ${cpu(entry.folio)}, plain ${cpu(entry.plain)}, Node floor ${cpu(entry.nodeFloor)} (${FLOOR_PROCESSES} processes ${cpu(entry.nodeFloorProcesses)})` +
          split.map((v) => `, Folio ${v.processes} processes ${cpu(v.pages.get(clients) ?? [])}`).join(''),
      );
    }
    // Posters: drawn on first request, then served from disk (and memory). Fetch each once, keep a
    // plain copy of the same bytes for the peer.
    const plainPosterUrls: string[] = [];
    for (const [index, url] of current.posterUrls.entries()) {
      const response = await fetch(url, { headers: { cookie: current.cookie } });
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      await writeFile(join(plainDir, 'posters', `${index}.jpg`), Buffer.from(await response.arrayBuffer()));
      plainPosterUrls.push(`${plain.url}/posters/${index}.jpg`);
    }
    // The several-process servers draw their posters on first request too: drawn before any is timed.
    for (const { served } of split) {
      for (const url of served.posterUrls) {
        const response = await fetch(url, { headers: { cookie: served.cookie } });
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        await response.arrayBuffer();
      }
    }
    for (let run = 0; run < RUNS; run++) {
      // The two versions take turns going first, as for pages.
      const measureCurrent = async () => results.thumbnails.folio.push(await load(current.posterUrls, { cookie: current.cookie }, results.thumbnails.clients, folio.pid));
      const measureBefore = async () => {
        if (before) results.thumbnails.baseline.push(await load(before.posterUrls, { cookie: before.cookie }, results.thumbnails.clients));
      };
      const measureSplitPosters = () =>
        measureSplit(run, async (variant) => {
          variant.posters.push(await load(variant.served.posterUrls, { cookie: variant.served.cookie }, results.thumbnails.clients, variant.served.folio.pid));
        });
      if (run % 2 === 0) {
        await measureCurrent();
        await measureBefore();
        await measureSplitPosters();
      } else {
        await measureSplitPosters();
        await measureBefore();
        await measureCurrent();
      }
      results.thumbnails.plain.push(await load(plainPosterUrls, {}, results.thumbnails.clients, plain.pid));
      results.thumbnails.nodeFloor.push(await load(plainPosterUrls.map((url) => url.replace(plain.url, nodeFloor.url)), {}, results.thumbnails.clients, nodeFloor.pid));
      results.thumbnails.nodeFloorProcesses.push(
        await load(plainPosterUrls.map((url) => url.replace(plain.url, nodeFloorProcesses.url)), {}, results.thumbnails.clients, nodeFloorProcesses.pid),
      );
    }
    console.log(
      `  posters: Folio ${median(results.thumbnails.folio.map((t) => t.pagesPerSecond))}/s, plain ${median(results.thumbnails.plain.map((t) => t.pagesPerSecond))}/s` +
        `, Node floor ${median(results.thumbnails.nodeFloor.map((t) => t.pagesPerSecond))}/s (${FLOOR_PROCESSES} processes ${median(results.thumbnails.nodeFloorProcesses.map((t) => t.pagesPerSecond))}/s)` +
        split.map((v) => `, Folio ${v.processes} processes ${median(v.posters.map((t) => t.pagesPerSecond))}/s`).join(''),
    );
    console.log(
      `    CPU per poster: Folio ${cpu(results.thumbnails.folio)}, plain ${cpu(results.thumbnails.plain)}, Node floor ${cpu(results.thumbnails.nodeFloor)} (${FLOOR_PROCESSES} processes ${cpu(results.thumbnails.nodeFloorProcesses)})` +
        split.map((v) => `, Folio ${v.processes} processes ${cpu(v.posters)}`).join(''),
    );
    return results;
  } finally {
    plain.stop();
    nodeFloor.stop();
    nodeFloorProcesses.stop();
    await baseline?.stop();
    for (const { folio: server } of several) await server.stop();
    await folio.stop();
  }
}

/** "<short commit> <subject>" of a checkout, to say what the baseline was. */
async function describeCheckout(repo: string): Promise<string> {
  const { stdout } = await promisify(execFile)('git', ['-C', repo, 'log', '-1', '--format=%h %s']);
  return stdout.trim().slice(0, 100);
}

/** Runs the server benchmarks and writes bench/results/server.{md,json}. */
export async function runServerBench(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-server-'));
  try {
    const seriesCount = Math.max(1, Math.round(BOOKS / 20));
    const booksPerSeries = Math.ceil(BOOKS / seriesCount);
    const scanning = SERVER_PARTS.has('scan');
    if (scanning) console.log(`generating ${seriesCount * booksPerSeries} books of ${PAGES} pages…`);
    const library = scanning
      ? await generateLibrary({
          root: join(work, 'scan'), seriesCount, booksPerSeries, pagesPerBook: PAGES, pageWidth: 1200, pageHeight: 1800, noise: false,
        })
      : { root: '', books: [] as string[] };
    const scanMs: number[] = [];
    const idleMs: number[] = [];
    /** Task time by type of the last run (seconds summed over the workers). */
    let taskSeconds: TaskTimes = {};
    const floorMs: number[] = [];
    // BENCH_BASELINE_REPO: that checkout's server scans the same library in the same runs, the two
    // taking turns going first, both against this checkout's floor.
    const baselineRepo = process.env.BENCH_BASELINE_REPO;
    const baselineScanMs: number[] = [];
    const baselineIdleMs: number[] = [];
    for (let run = 0; run < (scanning ? RUNS : 0); run++) {
      floorMs.push(await timeFloor(library.books));
      const floor = floorMs.at(-1)!;
      const measure = async (checkout?: string) => {
        const scan = await timeScan(library.root, library.books.length, checkout);
        (checkout ? baselineScanMs : scanMs).push(scan.ready);
        (checkout ? baselineIdleMs : idleMs).push(scan.idle);
        if (!checkout) taskSeconds = scan.tasks;
        console.log(
          `run ${run + 1}${checkout ? ', baseline' : ''}: floor ${round(floor / 1000)} s, every book READY ${round(scan.ready / 1000)} s (${round(scan.ready / floor)}×),` +
            ` all background work ${round(scan.idle / 1000)} s (${round(scan.idle / floor)}×), server CPU ${scan.cpuSeconds} s, load ${loadavg()[0]!.toFixed(1)}`,
        );
        console.log(`  task time by type: ${Object.entries(scan.tasks).map(([type, t]) => `${type} ${t.count}× ${t.seconds} s`).join(', ')}`);
      };
      if (baselineRepo && run % 2 === 1) await measure(baselineRepo);
      await measure();
      if (baselineRepo && run % 2 === 0) await measure(baselineRepo);
    }
    console.log('page serving…');
    const serving: ServingResults = SERVER_PARTS.has('serving') ? await benchThroughput(work) : { peer: '', driver: '', baseline: null, pages: [], thumbnails: { clients: 0, folio: [], plain: [], baseline: [], nodeFloor: [], nodeFloorProcesses: [] } };

    const describe = (list: Throughput[]) => ({
      averagePageKiB: median(list.map((t) => t.averagePageKiB)),
      pagesPerSecond: median(list.map((t) => t.pagesPerSecond)),
      megabytesPerSecond: median(list.map((t) => t.megabytesPerSecond)),
      latencyMedianMs: median(list.map((t) => t.latencyMedianMs)),
      latencyP95Ms: median(list.map((t) => t.latencyP95Ms)),
      errors: list.reduce((sum, t) => sum + (t.errors ?? 0), 0),
    });
    const load = loadavg().map((value) => value.toFixed(1)).join(' / ');
    const summary = {
      date: new Date().toISOString(),
      quick: QUICK,
      loadAverageAtEnd: load,
      books: library.books.length,
      pagesPerBook: PAGES,
      runs: RUNS,
      scan: { medianSeconds: round(median(scanMs) / 1000), backgroundDoneMedianSeconds: round(median(idleMs) / 1000), floorMedianSeconds: round(median(floorMs) / 1000), ratioToFloor: round(median(scanMs) / median(floorMs)), backgroundRatioToFloor: round(median(idleMs) / median(floorMs)), taskSeconds },
      serving: {
        peer: serving.peer,
        driver: serving.driver,
        books: SERVING_BOOKS,
        seconds: SECONDS,
        baseline: serving.baseline,
        pages: serving.pages.map(({ clients, folio, plain, baseline, nodeFloor, nodeFloorProcesses }) => ({
          clients, folio: describe(folio), plainFiles: describe(plain), baseline: baseline.length ? describe(baseline) : null, nodeFloor: describe(nodeFloor),
          nodeFloorProcesses: describe(nodeFloorProcesses),
        })),
        thumbnails: {
          clients: serving.thumbnails.clients,
          folio: describe(serving.thumbnails.folio),
          plainFiles: describe(serving.thumbnails.plain),
          baseline: serving.thumbnails.baseline.length ? describe(serving.thumbnails.baseline) : null,
          nodeFloor: describe(serving.thumbnails.nodeFloor),
          nodeFloorProcesses: describe(serving.thumbnails.nodeFloorProcesses),
        },
        floorProcesses: FLOOR_PROCESSES,
      },
    };
    const servingRow = (label: string, t: ReturnType<typeof describe>) =>
      `| ${label} | ${t.pagesPerSecond} | ${t.megabytesPerSecond} | ${t.latencyMedianMs} ms | ${t.latencyP95Ms} ms | ${t.averagePageKiB} KiB | ${t.errors} |`;
    const markdown = [
      '# Server benchmarks',
      '',
      `Run ${summary.date} with \`${QUICK ? 'BENCH_QUICK=1 ' : ''}node bench/server.ts\` (medians of ${RUNS} run(s)). **Possibly shared 2-core machine:**`,
      `load average (1 / 5 / 15 min) at the end ${load} says how busy it was. Read the ratios, measured side by side.`,
      `The peer is ${serving.peer}, handing out the same bytes as files (one file per page served); the load generator is ${serving.driver}${serving.driver.startsWith('wrk') ? '' : ' (itself a bottleneck at high request rates: it limits both sides alike)'}.`,
      'Errors (failed or non-2xx requests) are summed over the runs. "Node floor" is bench/lib/node-floor-server.ts: node:http alone, one',
      'thread, each file opened once and read with one positional read into a reused buffer per request (the most one Node thread serves).',
      `"Node floor, ${FLOOR_PROCESSES} processes" is the same server in ${FLOOR_PROCESSES} processes sharing one port (node:cluster), one per core as nginx runs:`,
      'the most Node could serve on this machine if Folio were split into processes.',
      ...(serving.baseline ? [`"Folio before" is the baseline checkout measured in the same run: ${serving.baseline}.`] : []),
      '',
      `## Scan and analysis: ${summary.books} books × ${PAGES} pages`,
      '',
      '| measure | median | ÷ floor |',
      '| --- | --- | --- |',
      `| scan + analysis through the server (every book READY) | ${summary.scan.medianSeconds} s | ${summary.scan.ratioToFloor}× |`,
      `| … and all background work done (posters, file hashes, barcode search) | ${summary.scan.backgroundDoneMedianSeconds} s | ${summary.scan.backgroundRatioToFloor}× |`,
      `| floor: read every directory and image header, ${TASK_WORKERS} at a time | ${summary.scan.floorMedianSeconds} s | 1× |`,
      ...(baselineScanMs.length
        ? [
            `| baseline (${await describeCheckout(baselineRepo!)}): every book READY | ${round(median(baselineScanMs) / 1000)} s | ${round(median(baselineScanMs) / median(floorMs))}× |`,
            `| baseline: all background work done | ${round(median(baselineIdleMs) / 1000)} s | ${round(median(baselineIdleMs) / median(floorMs))}× |`,
          ]
        : []),
      '',
      `Task time by type (last run, summed over the ${TASK_WORKERS} workers): ${Object.entries(taskSeconds).map(([type, t]) => `${type} ${t.count}× ${t.seconds} s`).join(', ') || 'none'}.`,
      '',
      `## Page serving: ${SERVING_BOOKS} books × ${SERVING_PAGES} pages of 1200×1800 JPEG, ${SECONDS} s per run`,
      '',
      '| clients | server | pages/s | MB/s | latency median | latency p95 | average page | errors |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...summary.serving.pages.flatMap(({ clients, folio, plainFiles, baseline, nodeFloor, nodeFloorProcesses }) => [
        servingRow(`${clients} | Folio \`/pages/{n}\` (read from the archive)`, folio),
        ...(baseline
          ? [
              servingRow(`${clients} | Folio before (baseline)`, baseline),
              `| ${clients} | ratio before ÷ plain | ${round(baseline.pagesPerSecond / plainFiles.pagesPerSecond)}× | ${round(baseline.megabytesPerSecond / plainFiles.megabytesPerSecond)}× | | | | |`,
            ]
          : []),
        servingRow(`${clients} | plain files`, plainFiles),
        servingRow(`${clients} | Node floor`, nodeFloor),
        servingRow(`${clients} | Node floor, ${FLOOR_PROCESSES} processes`, nodeFloorProcesses),
        `| ${clients} | ratio Folio ÷ plain | ${round(folio.pagesPerSecond / plainFiles.pagesPerSecond)}× | ${round(folio.megabytesPerSecond / plainFiles.megabytesPerSecond)}× | | | | |`,
        `| ${clients} | ratio Node floor ÷ plain | ${round(nodeFloor.pagesPerSecond / plainFiles.pagesPerSecond)}× | ${round(nodeFloor.megabytesPerSecond / plainFiles.megabytesPerSecond)}× | | | | |`,
        `| ${clients} | ratio Node floor, ${FLOOR_PROCESSES} processes ÷ plain | ${round(nodeFloorProcesses.pagesPerSecond / plainFiles.pagesPerSecond)}× | ${round(nodeFloorProcesses.megabytesPerSecond / plainFiles.megabytesPerSecond)}× | | | | |`,
      ]),
      '',
      `## Book posters: \`GET /books/{id}/thumbnail\`, ${summary.serving.thumbnails.clients} clients`,
      '',
      '| server | requests/s | MB/s | latency median | latency p95 | average poster | errors |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      servingRow('Folio (access check, poster record, bytes from memory)', summary.serving.thumbnails.folio),
      ...(summary.serving.thumbnails.baseline ? [servingRow('Folio before (baseline)', summary.serving.thumbnails.baseline)] : []),
      servingRow('plain files', summary.serving.thumbnails.plainFiles),
      servingRow('Node floor', summary.serving.thumbnails.nodeFloor),
      servingRow(`Node floor, ${FLOOR_PROCESSES} processes`, summary.serving.thumbnails.nodeFloorProcesses),
      `| ratio Folio ÷ plain | ${round(summary.serving.thumbnails.folio.pagesPerSecond / summary.serving.thumbnails.plainFiles.pagesPerSecond)}× | | | | | |`,
      `| ratio Node floor ÷ plain | ${round(summary.serving.thumbnails.nodeFloor.pagesPerSecond / summary.serving.thumbnails.plainFiles.pagesPerSecond)}× | | | | | |`,
      `| ratio Node floor, ${FLOOR_PROCESSES} processes ÷ plain | ${round(summary.serving.thumbnails.nodeFloorProcesses.pagesPerSecond / summary.serving.thumbnails.plainFiles.pagesPerSecond)}× | | | | | |`,
      '',
    ].join('\n');
    if (!(SERVER_PARTS.has('scan') && SERVER_PARTS.has('serving'))) {
      console.log(markdown);
      return;
    }
    await mkdir('bench/results', { recursive: true });
    await writeFile('bench/results/server.json', `${JSON.stringify(summary, null, 2)}\n`);
    await writeFile('bench/results/server.md', markdown);
    console.log(markdown);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// Run directly (`node bench/server.ts`), or through bench/run.ts with the others.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolvePath(process.argv[1])) await runServerBench();
