/**
 * What the EPUB reader waits for before its first text on a very large book: the WebPub manifest
 * and the position list of a generated 1,000-chapter (~5 MB of text) EPUB, asked of the real
 * server together, as the reader asks. The first pair is cold (nothing known about the book yet);
 * the others show what a reopening costs. Next to them, the book's own JSON (GET /api/v1/books/{id})
 * measured in the same run is the floor: a request that reads one row.
 * Environment: BENCH_RUNS (20). Prints a table and the load average; writes nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReflowableEpub, prose } from '../tests/fixtures/epub.ts';
import { startFolio } from '../tests/e2e/support/folio-server.ts';
import { median, percentile, round } from './lib/stats.ts';
import { waitUntil } from './lib/wait.ts';
import { claimWithLibrary } from './support/claimed-server.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const root = await mkdtemp(join(tmpdir(), 'folio-bench-epub-'));
await createReflowableEpub(
  join(root, 'Long', 'Long.epub'),
  Array.from({ length: 1000 }, (_, i) => ({ title: `Part ${i + 1}`, body: `<h1>Part ${i + 1}</h1>${prose(5000)}` })),
  { title: 'Long' },
);
const folio = await startFolio();
try {
  const { call } = await claimWithLibrary(folio.url, root);
  let bookId = '';
  await waitUntil('the long book analysed', async () => {
    const page = (await (await call('/api/v1/books?media_status=READY&size=1')).json()) as { content: { id: string }[] };
    bookId = page.content[0]?.id ?? '';
    return bookId !== '';
  }, 200, 120_000);

  const timed = async (path: string) => {
    const started = performance.now();
    const body = await (await call(path)).arrayBuffer();
    return { ms: performance.now() - started, bytes: body.byteLength };
  };
  // As the reader asks: manifest and positions together; the pair is ready when both are.
  const pair = async () => {
    const started = performance.now();
    const [manifest, positions] = await Promise.all([timed(`/api/v1/books/${bookId}/manifest/epub`), timed(`/api/v1/books/${bookId}/positions`)]);
    return { pair: performance.now() - started, manifest: manifest.ms, positions: positions.ms, bytes: manifest.bytes + positions.bytes };
  };
  const cold = await pair();
  const samples = { pair: [] as number[], manifest: [] as number[], positions: [] as number[], book: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    const warm = await pair();
    samples.pair.push(warm.pair);
    samples.manifest.push(warm.manifest);
    samples.positions.push(warm.positions);
    samples.book.push((await timed(`/api/v1/books/${bookId}`)).ms);
  }
  const floor = median(samples.book);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} warm runs; ${cold.bytes} bytes a pair`);
  console.log('| request | first open ms | reopen median ms | reopen p95 ms | reopen median / floor |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const name of ['pair', 'manifest', 'positions'] as const) {
    console.log(`| ${name === 'pair' ? 'manifest + positions together' : name} | ${round(cold[name], 1)} | ${round(median(samples[name]), 1)} | ${round(percentile(samples[name], 95), 1)} | ${round(median(samples[name]) / floor, 1)} |`);
  }
  console.log(`| book JSON (floor) | | ${round(floor, 1)} | ${round(percentile(samples.book, 95), 1)} | 1 |`);
} finally {
  await folio.stop();
  await rm(root, { recursive: true, force: true });
}
