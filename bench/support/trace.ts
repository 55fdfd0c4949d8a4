/**
 * Where a page turn's main-thread time goes: a DevTools-protocol trace (the Performance panel's
 * categories) around some work, summed by event name on the renderer's main thread.
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export interface TraceShare {
  name: string;
  /** Total time of the event, ms, over the traced work (nested events count in their parents too). */
  totalMs: number;
  count: number;
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', ...(process.env.BENCH_TRACE_INVALIDATIONS === '1' ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : [])].join(',');

/**
 * With `rawFile` (the turns pass BENCH_TRACE_FILE, the webtoon scrolls a name derived from it) the raw
 * events are kept too, JS samples included, to open in the DevTools Performance panel.
 */
export async function traceMainThread(page: Page, work: () => Promise<void>, rawFile = process.env.BENCH_TRACE_FILE): Promise<TraceShare[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  const categories = rawFile ? `${CATEGORIES},disabled-by-default-v8.cpu_profiler` : CATEGORIES;
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  try {
    await work();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  if (rawFile) await writeFile(rawFile, JSON.stringify({ traceEvents: events }));
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const totals = new Map<string, TraceShare>();
  for (const event of events) {
    if (!main || event.pid !== main.pid || event.tid !== main.tid || event.ph !== 'X' || !event.dur) continue;
    const share = totals.get(event.name) ?? { name: event.name, totalMs: 0, count: 0 };
    share.totalMs += event.dur / 1000;
    share.count++;
    totals.set(event.name, share);
  }
  return [...totals.values()].sort((a, b) => b.totalMs - a.totalMs);
}
