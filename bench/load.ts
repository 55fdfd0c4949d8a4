/**
 * Load benchmark (issue 16): the server under a 1,024-descriptor limit (`prlimit --nofile=1024`)
 * serving many readers at once while a scan and a deep analysis run.
 *
 * - a generated library of BENCH_LOAD_BOOKS books (2,000; 200 under BENCH_QUICK=1);
 * - BENCH_LOAD_READERS readers (200; 40 quick), each on its own book, fetching its pages in order at
 *   a brisk reading speed (one page every BENCH_LOAD_PAGE_MS, default 3,000 ms) and saving progress after
 *   each page, for BENCH_LOAD_SECONDS (60; 10 quick);
 * - BENCH_LOAD_SSE clients (50; 10 quick) holding /sse/v1/events open;
 * - a library scan and a deep analysis of every book started with the readers.
 *
 * Reported: requests/s, p50/p99 latency, errors (must be 0), peak open descriptors and RSS of the
 * server, and books whose media status changed (must be 0). Written to bench/results/load.{json,md}.
 * Every wait has a time limit; the run fails loudly rather than hanging.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from '../tests/unit/server/support/spawned-server.ts';
import { generateLibrary } from './lib/generate-library.ts';
import { runReadersScenario } from './load-readers.ts';
import { runWaveScenario } from './load-wave.ts';
import { runSoakScenario } from './load-soak.ts';
import { percentile, round } from './lib/stats.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const env = (name: string, full: number, quick: number) => Number(process.env[name] ?? (QUICK ? quick : full));
const BOOKS = env('BENCH_LOAD_BOOKS', 2000, 200);
const READERS = env('BENCH_LOAD_READERS', 200, 40);
const SSE_CLIENTS = env('BENCH_LOAD_SSE', 50, 10);
const SECONDS = env('BENCH_LOAD_SECONDS', 60, 10);
const PAGE_MS = env('BENCH_LOAD_PAGE_MS', 3000, 3000);
const PAGES = 12;
const NOFILE = 1024;
const SETUP_TIMEOUT_MS = 15 * 60_000;

interface BookRow {
  id: string;
  media: { status: string; pagesCount: number };
}

async function statuses(url: string, cookie: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let page = 0; ; page++) {
    const result = await apiCall<{ content: BookRow[]; last: boolean }>(url, cookie, `/api/v1/books?size=500&page=${page}&sort=name,asc`);
    for (const book of result.content) out.set(book.id, book.media.status);
    if (result.last || result.content.length === 0) return out;
  }
}

/** Resolves after `ms`, or at once when the run was stopped. */
function pause(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    stop.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function runLoadBench(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-load-'));
  if (process.env.BENCH_LOAD_SCENARIO === 'wave') {
    // Readers, aborted and slow clients, an admin's scan and regeneration; minutes long (load-wave.ts).
    try {
      if (!(await runWaveScenario(work))) process.exitCode = 1;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    return;
  }
  if (process.env.BENCH_LOAD_SCENARIO === 'soak') {
    // Readers for many minutes while the library changes: what grows and does not come back (load-soak.ts).
    try {
      if (!(await runSoakScenario(work))) process.exitCode = 1;
    } finally {
      if (!process.env.BENCH_LOAD_KEEP) await rm(work, { recursive: true, force: true });
    }
    return;
  }
  if (process.env.BENCH_LOAD_SCENARIO === 'readers') {
    // Hundreds of web-client and Mihon readers on a mixed library (load-readers.ts); minutes long,
    // so never part of `npm run bench`.
    try {
      if (!(await runReadersScenario(work))) process.exitCode = 1;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    return;
  }
  let server: SpawnedServer | undefined;
  try {
    const booksPerSeries = 10;
    const seriesCount = Math.ceil(BOOKS / booksPerSeries);
    console.log(`load: generating ${seriesCount * booksPerSeries} books of ${PAGES} pages…`);
    await generateLibrary({ root: join(work, 'library'), seriesCount, booksPerSeries, pagesPerBook: PAGES, pageWidth: 640, pageHeight: 960, noise: true });
    server = await spawnServer(join(work, 'data'), { nofile: NOFILE });
    const url = server.url;
    const cookie = await claimSession(url);
    const started = Date.now();
    const libraryId = await addLibraryAndWait(url, cookie, join(work, 'library'), seriesCount * booksPerSeries, SETUP_TIMEOUT_MS);
    console.log(`load: library analysed in ${round((Date.now() - started) / 1000, 1)} s`);
    // Let the background work of the first scan (posters, hashes) settle before measuring.
    const before = await statuses(url, cookie);
    const books = [...before.keys()];
    if (books.length < READERS) throw new Error(`only ${books.length} books for ${READERS} readers`);

    const latencies: number[] = [];
    const errors: string[] = [];
    let requests = 0;
    let peakDescriptors = 0;
    const stop = new AbortController();
    const sampler = setInterval(() => {
      server!.openDescriptors().then(
        (n) => (peakDescriptors = Math.max(peakDescriptors, n)),
        (error: unknown) => errors.push(`descriptor sample failed: ${String(error)}`),
      );
    }, 250);

    const timed = async (path: string, init: RequestInit = {}): Promise<void> => {
      const t0 = performance.now();
      try {
        const response = await fetch(`${url}${path}`, {
          ...init,
          signal: AbortSignal.timeout(30_000),
          headers: { cookie, 'X-Requested-With': 'XMLHttpRequest', ...(init.body ? { 'content-type': 'application/json' } : {}) },
        });
        await response.arrayBuffer();
        if (!response.ok) errors.push(`${response.status} ${path}`);
      } catch (error) {
        errors.push(`${path}: ${String(error)}`);
      }
      latencies.push(performance.now() - t0);
      requests++;
    };

    const reader = async (index: number) => {
      const bookId = books[index]!;
      // Readers do not all start on the same tick.
      await pause(Math.random() * PAGE_MS, stop.signal);
      for (let page = 1; !stop.signal.aborted; page = (page % PAGES) + 1) {
        await timed(`/api/v1/books/${bookId}/pages/${page}`);
        await timed(`/api/v1/books/${bookId}/read-progress`, { method: 'PATCH', body: JSON.stringify({ page }) });
        await pause(PAGE_MS, stop.signal);
      }
    };

    const sse = async () => {
      try {
        const response = await fetch(`${url}/sse/v1/events`, { headers: { cookie }, signal: stop.signal });
        if (!response.ok) errors.push(`SSE ${response.status}`);
        for await (const chunk of response.body!) void chunk;
      } catch (error) {
        if (!stop.signal.aborted) errors.push(`SSE: ${String(error)}`);
      }
    };

    const sseClients = Array.from({ length: SSE_CLIENTS }, () => sse());
    const t0 = Date.now();
    await apiCall(url, cookie, `/api/v1/libraries/${libraryId}/scan`, { method: 'POST' });
    await apiCall(url, cookie, `/api/v1/libraries/${libraryId}/analyze`, { method: 'POST' });
    const readers = Array.from({ length: READERS }, (_, i) => reader(i));
    setTimeout(() => stop.abort(), SECONDS * 1000);
    await Promise.all(readers);
    const elapsed = (Date.now() - t0) / 1000;
    await Promise.all(sseClients);
    clearInterval(sampler);
    const { peak } = await server.memory();
    const after = await statuses(url, cookie);
    const changed = [...before].filter(([id, status]) => after.get(id) !== status).length;
    const alive = server.exited() === null;

    const results = {
      date: new Date().toISOString(),
      loadAverage: loadavg().map((l) => round(l, 2)),
      descriptorLimit: NOFILE,
      books: books.length,
      readers: READERS,
      sseClients: SSE_CLIENTS,
      seconds: round(elapsed, 1),
      pageIntervalMs: PAGE_MS,
      requests,
      requestsPerSecond: round(requests / elapsed, 1),
      p50Ms: round(percentile(latencies, 50), 1),
      p99Ms: round(percentile(latencies, 99), 1),
      errors: errors.length,
      firstErrors: errors.slice(0, 5),
      peakOpenDescriptors: peakDescriptors,
      peakRssMiB: round(peak / 1024 / 1024, 1),
      booksWhoseStatusChanged: changed,
      serverAlive: alive,
    };
    console.table(results);
    const dir = join(import.meta.dirname, 'results');
    await writeFile(join(dir, QUICK ? 'load-quick.json' : 'load.json'), `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(
      join(dir, QUICK ? 'load-quick.md' : 'load.md'),
      [
        `# Load benchmark (${QUICK ? 'quick' : 'full'})`,
        '',
        `\`${QUICK ? 'BENCH_QUICK=1 ' : ''}node bench/load.ts\` on ${results.date}, load average ${results.loadAverage.join(' / ')} (shared 2-core machine).`,
        '',
        `Server under \`prlimit --nofile=${NOFILE}\`; ${results.books} books; ${READERS} readers (one page every ${PAGE_MS} ms plus a progress save each), ${SSE_CLIENTS} event-stream clients, a scan and a deep analysis running; ${results.seconds} s.`,
        '',
        '| figure | value |',
        '| --- | --- |',
        `| requests | ${requests} |`,
        `| requests/s | ${results.requestsPerSecond} |`,
        `| latency p50 / p99 | ${results.p50Ms} ms / ${results.p99Ms} ms |`,
        `| errors | ${results.errors} |`,
        `| peak open descriptors | ${peakDescriptors} of ${NOFILE} |`,
        `| peak RSS | ${results.peakRssMiB} MiB |`,
        `| books whose status changed | ${changed} |`,
        `| server alive at the end | ${alive} |`,
        '',
      ].join('\n'),
    );
    if (errors.length > 0 || changed > 0 || !alive) {
      console.error('load: FAILED', results.firstErrors);
      process.exitCode = 1;
    }
  } finally {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolvePath(process.argv[1])) await runLoadBench();
