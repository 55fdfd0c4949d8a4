import type { SpawnedServer } from '../../tests/unit/server/support/spawned-server.ts';

/** The most descriptors and resident memory a spawned server held while sampled. */
export interface PeakSampler {
  readonly descriptors: number;
  readonly rss: number;
  stop(): void;
}

/**
 * Samples `server`'s open descriptors and RSS every `everyMs` and keeps the highest. A sample that
 * fails (the server exiting, /proc read mid-change) is skipped: the peak is of the samples taken.
 */
export function samplePeaks(server: SpawnedServer, everyMs = 250): PeakSampler {
  let descriptors = 0;
  let rss = 0;
  const skip = () => undefined;
  const timer = setInterval(() => {
    server.openDescriptors().then((n) => (descriptors = Math.max(descriptors, n)), skip);
    server.memory().then((m) => (rss = Math.max(rss, m.rss)), skip);
  }, everyMs);
  return {
    get descriptors() {
      return descriptors;
    },
    get rss() {
      return rss;
    },
    stop: () => clearInterval(timer),
  };
}
