import type { ScanInterval } from '../../db/stored-values.ts';
import type { FolioContext } from '../context.ts';
import { submitLibraryScan } from './library-tasks.ts';

const HOUR = 3600_000;
const INTERVALS: Record<ScanInterval, number | null> = {
  DISABLED: null,
  HOURLY: HOUR,
  EVERY_6H: 6 * HOUR,
  EVERY_12H: 12 * HOUR,
  DAILY: 24 * HOUR,
  WEEKLY: 7 * 24 * HOUR,
};

/**
 * Library scans without anyone asking: once at start for libraries with `scanOnStartup`, then
 * each library again when its `scanInterval` has passed since its last scan (the recorded one,
 * so restarts do not put it off; any scan counts) or since it was queued here. Returns a stop function.
 */
export function startScanScheduler(ctx: FolioContext, checkEveryMs = 60_000): () => void {
  const started = Date.now();
  const lastScan = new Map<string, number>();
  for (const library of ctx.repos.libraries.findAll()) {
    if (library.scanOnStartup) {
      submitLibraryScan(ctx, library.id);
      lastScan.set(library.id, started);
    }
  }
  const timer = setInterval(() => {
    const now = Date.now();
    const scanned = ctx.repos.libraries.lastScanDates();
    for (const library of ctx.repos.libraries.findAll()) {
      const every = INTERVALS[library.scanInterval];
      if (every === null) continue;
      const since = Math.max(lastScan.get(library.id) ?? 0, scanned.get(library.id) ?? 0) || Math.max(started, library.created);
      if (now - since >= every) {
        lastScan.set(library.id, now);
        submitLibraryScan(ctx, library.id);
      }
    }
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
