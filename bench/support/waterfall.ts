/**
 * The first-page waterfall: what starts (and ends) when, in ms since the document's time origin
 * while the reader's address loads cold, or since the navigation from the book screen. Requests
 * come from Playwright's request events (they include the decode workers' fetches, which the
 * page's own resource timing cannot see).
 */
import type { Page, Request } from 'playwright-core';
import { percentile } from '../lib/stats.ts';

export interface WaterfallStep {
  label: string;
  /** Median start and end over the runs, ms since navigation start; null when never seen. */
  start: number | null;
  end: number | null;
  /** Runs in which the step was seen. */
  seen: number;
}

export interface Timed {
  label: string;
  start: number;
  end: number;
}

/** What each request is, from its URL; null for requests the waterfall leaves out. */
function labelOf(url: string, bookId: string, startPage: number): string | null {
  const path = new URL(url).pathname;
  const book = `/api/v1/books/${bookId}`;
  if (path === `${book}/pages/${startPage}`) return `page ${startPage}`;
  if (path === `${book}/pages/${startPage}/thumbnail`) return `page ${startPage} thumbnail (preview)`;
  const other = new RegExp(`^${book}/pages/(\\d+)$`).exec(path);
  if (other) return `page ${other[1]} (preload)`;
  if (/\/pages\/\d+\/thumbnail$/.test(path)) return 'other page thumbnails';
  if (path === book) return 'book';
  if (path === `${book}/pages`) return 'page list';
  if (path === `${book}/next` || path === `${book}/previous`) return 'previous/next book';
  if (/^\/api\/v1\/series\/[^/]+$/.test(path)) return 'series';
  if (path === '/api/v2/users/me') return 'current user';
  if (/decode\.worker.*\.js$/.test(path)) return 'decode worker script';
  if (path === `/book/${bookId}/read`) return 'document';
  if (/\/assets\/boot-[^/]*\.js$/.test(path)) return 'boot module';
  if (/\/assets\/(main|index)-[^/]*\.js$/.test(path)) return 'main bundle';
  if (/ReaderScreen.*\.js$/.test(path)) return 'reader chunk';
  return null;
}

/** How long `finish` waits for a request still in flight; past that it is left out of the waterfall. */
const UNFINISHED_AFTER_MS = 10_000;

/** The values of `promises` that settle within `ms` (null for the others, which are reported), then no timer is left. */
async function settledWithin<T>(promises: { label: string; result: Promise<T | null> }[], ms: number): Promise<(T | null)[]> {
  let timer: NodeJS.Timeout | undefined;
  const tooLate = Symbol('too late');
  const late = new Promise<typeof tooLate>((resolve) => {
    timer = setTimeout(() => resolve(tooLate), ms);
  });
  try {
    const results = await Promise.all(promises.map(({ result }) => Promise.race([result, late])));
    const unfinished = promises.filter((_, index) => results[index] === tooLate).map(({ label }) => label);
    if (unfinished.length > 0) console.warn(`waterfall: still unfinished ${ms} ms on, left out: ${unfinished.join(', ')}`);
    return results.map((result) => (result === tooLate ? null : result));
  } finally {
    clearTimeout(timer);
  }
}

/** Records one cold load's requests; call `finish` once the page was painted. */
export function watchRequests(page: Page, bookId: string, startPage: number) {
  const done: { label: string; result: Promise<Timed | null> }[] = [];
  const listener = (request: Request) => {
    const label = labelOf(request.url(), bookId, startPage);
    if (!label) return;
    done.push({
      label,
      result: request.response().then(async (response) => {
        await response?.finished().catch(() => null);
        const timing = request.timing();
        return { label, start: timing.startTime, end: timing.startTime + Math.max(0, timing.responseEnd) };
      }, () => null),
    });
  };
  page.on('request', listener);
  return {
    /** `since` (ms since the time origin) is the zero of the times: the navigation start by default. */
    async finish(paintedAt: number, since = 0): Promise<Timed[]> {
      page.off('request', listener);
      const origin = (await page.evaluate(() => performance.timeOrigin)) + since;
      // A request whose timing the browser never reported (startTime -1: served from memory, or cut
      // short) says nothing about when it started. Nor does one still unfinished a while after the
      // paint: Playwright may never settle response()/finished() for a request the page cut short,
      // and waiting for it hung the whole bench (no timer, no call in flight: seen twice).
      const seen = (await settledWithin(done, UNFINISHED_AFTER_MS)).filter((entry): entry is Timed => entry !== null && entry.start > 0);
      // For a label seen several times (preloads), keep the earliest start.
      const byLabel = new Map<string, Timed>();
      for (const entry of seen) {
        const relative = { label: entry.label, start: entry.start - origin, end: entry.end - origin };
        const known = byLabel.get(entry.label);
        if (!known || relative.start < known.start) byLabel.set(entry.label, relative);
      }
      // The decode pool's User Timing measures (DecodePool's DECODE_MEASURE) say when the page was decoded.
      const decodes = await page.evaluate(
        ({ name, path }) =>
          performance
            .getEntriesByName(name)
            .filter((entry) => new URL((entry as PerformanceMeasure).detail?.url ?? '', location.href).pathname === path)
            .map((entry) => ({ start: entry.startTime, end: entry.startTime + entry.duration, mainThread: (entry as PerformanceMeasure).detail?.mainThread === true })),
        { name: 'folio:decode', path: `/api/v1/books/${bookId}/pages/${startPage}` },
      );
      // When the boot module, the main bundle and the app ran, and when a cold load's first frame went (User Timing marks).
      const marks = [
        ['folio:boot', 'boot module ran'],
        ['folio:main', 'main bundle ran'],
        ['folio:app', 'app ran'],
        ['folio:opening-image-shown', "page 1's image in the document whole, placed and shown"],
        ['folio:first-frame-gone', "first frame gave way to the reader's"],
      ] as const;
      for (const [mark, label] of marks) {
        const at = await page.evaluate((name) => performance.getEntriesByName(name)[0]?.startTime ?? null, mark);
        if (at !== null && at >= since) byLabel.set(label, { label, start: at - since, end: at - since });
      }
      const sinceDecodes = decodes.filter((decode) => decode.end >= since);
      for (const [index, decode] of sinceDecodes.entries()) {
        const label = `page ${startPage} decode${sinceDecodes.length > 1 ? ` #${index + 1}` : ''} (${decode.mainThread ? 'main thread' : 'worker'})`;
        byLabel.set(label, { label, start: decode.start - since, end: decode.end - since });
      }
      const painted = paintedAt - since;
      return [...byLabel.values(), { label: `page ${startPage} painted (+1 frame)`, start: painted, end: painted }];
    },
  };
}

/** Medians per step over several cold loads, in order of their median start. */
export function medianWaterfall(runs: Timed[][]): WaterfallStep[] {
  const labels = new Set(runs.flatMap((run) => run.map((entry) => entry.label)));
  const steps = [...labels].map((label) => {
    const entries = runs.flatMap((run) => run.filter((entry) => entry.label === label));
    return {
      label,
      start: entries.length ? percentile(entries.map((entry) => entry.start), 50) : null,
      end: entries.length ? percentile(entries.map((entry) => entry.end), 50) : null,
      seen: entries.length,
    };
  });
  return steps.sort((a, b) => (a.start ?? Infinity) - (b.start ?? Infinity));
}

export function waterfallTable(steps: WaterfallStep[], runs: number): string[] {
  const ms = (value: number | null) => (value === null ? '–' : `${value.toFixed(0)} ms`);
  return [
    '| step | starts (median) | ends (median) | seen in runs |',
    '| --- | --- | --- | --- |',
    ...steps.map((step) => `| ${step.label} | ${ms(step.start)} | ${ms(step.end)} | ${step.seen} of ${runs} |`),
  ];
}
