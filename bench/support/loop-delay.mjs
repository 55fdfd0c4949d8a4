// Preloaded into the server by bench/load-wave.ts (NODE_OPTIONS=--import): samples the server's own
// event-loop delay (perf_hooks.monitorEventLoopDelay) and writes the running figures to
// FOLIO_BENCH_LOOP_FILE every second, so the bench reads the loop's delay, not its own. `window`
// holds the last second's figures and the server's heap (bench/load-soak.ts follows them over time).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { renameSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.FOLIO_BENCH_LOOP_FILE;
// --import runs in every worker thread too: only the main thread's loop serves requests.
if (file && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const window = monitorEventLoopDelay({ resolution: 10 });
  window.enable();
  const timer = setInterval(() => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    try {
      // Written aside and renamed, so the bench never reads half a file.
      writeFileSync(`${file}.tmp`, JSON.stringify({
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        count: histogram.count,
        window: { p99: ms(window.percentile(99)), max: ms(window.max), ...process.memoryUsage() },
      }));
      renameSync(`${file}.tmp`, file);
      window.reset();
    } catch (error) {
      // Out of descriptors is one of the states the bench drives the server into: skip this sample.
      process.stderr.write(`loop-delay sample not written: ${String(error)}\n`);
    }
  }, 1000);
  timer.unref();
}
