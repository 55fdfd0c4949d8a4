/**
 * Times the analysis of two RAR book shapes (stored members: tests/fixtures/rar.ts cannot
 * compress): `few` is 12 pages of 3 MiB, `big` 16 of 16 MiB, `many` 1,500 of 65 KiB. Prints
 * the median of 3 analyses (after one that starts the worker), and per analysis the unrar calls and
 * bytes unrar unpacked (when the worker reports them). Run it from two trees, alternating, to
 * compare them. Usage: node bench/rar-analysis.ts few|big|many
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseContainer } from '../server/media/analyse-container.ts';
import { rarWorker } from '../server/media/rar-client.ts';
import { renderPage } from '../tests/fixtures/index.ts';
import { writeRar5 } from '../tests/fixtures/rar.ts';

const shapes: Record<string, { count: number; size: number }> = {
  few: { count: 12, size: 3 * 1024 * 1024 },
  big: { count: 16, size: 16 * 1024 * 1024 },
  many: { count: 1_500, size: 65 * 1024 },
};
const shape = shapes[process.argv[2] ?? 'few']!;
const RUNS = 3;
const dir = await mkdtemp(join(tmpdir(), 'folio-rar-analysis-'));
try {
  const png = await renderPage({ width: 60, height: 90, color: [200, 30, 30], format: 'png' });
  const path = await writeRar5(
    join(dir, 'book.cbr'),
    Array.from({ length: shape.count }, (_, i) => ({ name: `${String(i).padStart(4, '0')}.png`, data: Buffer.concat([png, Buffer.alloc(shape.size - png.length, i)]) })),
  );
  await analyseContainer(path);
  const counters = () => ({ calls: rarWorker.calls, unpacked: (rarWorker as { unpacked?: number }).unpacked });
  const before = counters();
  const times: number[] = [];
  let pages = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    pages = (await analyseContainer(path)).pages.length;
    times.push(performance.now() - started);
  }
  const after = counters();
  const unpacked = after.unpacked === undefined ? 'unpacked not reported' : `${((after.unpacked - before.unpacked!) / RUNS / 1024 / 1024).toFixed(2)} MiB unpacked`;
  const median = times.sort((a, b) => a - b)[1]!;
  console.log(`${process.argv[2]}: ${pages} pages in ${median.toFixed(0)} ms (median of ${RUNS}), ${(after.calls - before.calls) / RUNS} calls, ${unpacked}; load ${loadavg()[0]!.toFixed(2)}`);
} finally {
  await rarWorker.stop();
  await rm(dir, { recursive: true, force: true });
}
