/**
 * ComicRack reading-list benchmark (issue 16 item 10): a 4.9 MB .cbl is matched against a small
 * library by the real server (its own process), and the time of each match and the server's
 * resident memory (before, and its high-water mark after) are reported.
 *
 * The list is the shape ComicRack writes: one <Book Series Number Volume Year> with an <Id> child
 * per book, ~40,000 books. Three uploads in a row; written to bench/results/cbl.{json,md}.
 * Usage: node bench/cbl.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addLibraryAndWait, claimSession, spawnServer } from '../tests/unit/server/support/spawned-server.ts';
import { createCbz } from '../tests/fixtures/comics.ts';
import { round } from './lib/stats.ts';

const TARGET_BYTES = 4.9 * 1024 * 1024;
const RUNS = 3;
const MiB = 1024 * 1024;

function readingList(): Buffer {
  const books: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < TARGET_BYTES - 200; i++) {
    const series = ['Batman', 'Robin', 'Nightwing', 'Unknown Series'][i % 4];
    const id = `${(i * 2654435761) % 4294967296}`.padStart(10, '0');
    const book = `    <Book Series="${series}" Number="${(i % 60) + 1}" Volume="2016" Year="2016">\n      <Id>${id.slice(0, 8)}-0000-4000-8000-${id}00</Id>\n    </Book>\n`;
    books.push(book);
    bytes += Buffer.byteLength(book);
  }
  return Buffer.from(`<?xml version="1.0"?>\n<ReadingList xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n  <Name>Bench</Name>\n  <Books>\n${books.join('')}  </Books>\n</ReadingList>\n`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-cbl-'));
  const server = await spawnServer(join(dir, 'data'));
  try {
    const root = join(dir, 'library');
    const page = { width: 10, height: 10, color: [200, 0, 0] as [number, number, number], format: 'png' as const };
    for (const [series, count] of [['Batman (2016)', 30], ['Robin', 20], ['Nightwing', 10]] as const) {
      for (let n = 1; n <= count; n++) {
        await createCbz(join(root, series, `${series} ${n}.cbz`), [page], { comicInfo: { series, number: String(n) } });
      }
    }
    const cookie = await claimSession(server.url);
    await addLibraryAndWait(server.url, cookie, root, 60, 120_000);
    const list = readingList();
    const before = await server.memory();
    const runs: { ms: number; requests: number; responseBytes: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(list)], { type: 'application/xml' }), 'bench.cbl');
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/readlists/match/comicrack`, {
        method: 'POST',
        headers: { cookie, 'X-Requested-With': 'XMLHttpRequest' },
        body: form,
        signal: AbortSignal.timeout(120_000),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (!response.ok) throw new Error(`match: HTTP ${response.status} ${text.slice(0, 200)}`);
      runs.push({ ms: round(ms, 0), requests: (JSON.parse(text) as { requests: unknown[] }).requests.length, responseBytes: text.length });
    }
    const after = await server.memory();
    const result = {
      date: new Date().toISOString(),
      loadAverage: loadavg().map((l) => round(l, 2)),
      listBytes: list.length,
      runs,
      rssBeforeMiB: round(before.rss / MiB, 1),
      peakRssMiB: round(after.peak / MiB, 1),
      peakGrowthMiB: round((after.peak - before.rss) / MiB, 1),
    };
    const outDir = resolvePath(fileURLToPath(new URL('.', import.meta.url)), 'results');
    await writeFile(join(outDir, 'cbl.json'), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(
      join(outDir, 'cbl.md'),
      [
        '# ComicRack .cbl matching (`node bench/cbl.ts`)',
        '',
        `${result.date}, load average ${result.loadAverage.join(' / ')} (shared 2-core machine).`,
        `List: ${(list.length / MiB).toFixed(2)} MiB, ${runs[0]!.requests} books; library of 60 books in 3 series.`,
        '',
        '| run | time (ms) | books matched | response (MiB) |',
        '| --- | ---: | ---: | ---: |',
        ...runs.map((r, i) => `| ${i + 1} | ${r.ms} | ${r.requests} | ${(r.responseBytes / MiB).toFixed(2)} |`),
        '',
        `Server RSS before: ${result.rssBeforeMiB} MiB; high-water mark after the ${RUNS} uploads: ${result.peakRssMiB} MiB (+${result.peakGrowthMiB} MiB).`,
        '',
      ].join('\n'),
    );
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
