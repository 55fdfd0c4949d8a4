import { describe, expect, it, vi } from 'vitest';
import { ReaderSession, type ReaderSessionOptions } from '../../../src/engine/ReaderSession.ts';
import type { Viewport } from '../../../src/engine/types.ts';
import { FakeDecoder, pages, pageUrl, settle, type FakeBitmap } from './fakes.ts';

const viewport: Viewport = { width: 1000, height: 800, devicePixelRatio: 1 };

function open(overrides: Partial<ReaderSessionOptions<FakeBitmap>> = {}) {
  const decoder = new FakeDecoder();
  const reported: number[] = [];
  const session = new ReaderSession<FakeBitmap>({
    pages: pages(10),
    decoder,
    pageUrl,
    viewport,
    progress: { report: (page) => reported.push(page) },
    ...overrides,
  });
  return { session, decoder, reported };
}

describe('ReaderSession navigation', () => {
  it('opens at the start page and reports it', () => {
    const { session, reported } = open({ startPage: 4 });
    expect(session.currentPage).toBe(4);
    expect(session.getSnapshot()).toMatchObject({ currentPage: 4, pageCount: 10, spreadIndex: 3 });
    expect(reported).toEqual([4]);
  });

  it('clamps an out-of-range start page', () => {
    expect(open({ startPage: 42 }).session.currentPage).toBe(10);
    expect(open({ startPage: -3 }).session.currentPage).toBe(1);
  });

  it('turns pages and says when it hits either end', () => {
    const { session, reported } = open({ startPage: 9, reportStartPage: false });
    expect(session.next()).toBe('moved');
    expect(session.currentPage).toBe(10);
    expect(session.next()).toBe('end');
    expect(session.currentPage).toBe(10);
    session.goToPage(2);
    expect(session.previous()).toBe('moved');
    expect(session.previous()).toBe('start');
    expect(session.currentPage).toBe(1);
    session.last();
    session.first();
    expect(reported).toEqual([10, 2, 1, 10, 1]);
  });

  it('notifies subscribers with a new snapshot on each change', () => {
    const { session } = open();
    const seen: number[] = [];
    const unsubscribe = session.subscribe(() => seen.push(session.getSnapshot().currentPage));
    const before = session.getSnapshot();
    session.next();
    session.next();
    expect(seen).toEqual([2, 3]);
    expect(session.getSnapshot()).not.toBe(before);
    expect(session.getSnapshot()).toBe(session.getSnapshot());
    unsubscribe();
    session.next();
    expect(seen).toEqual([2, 3]);
  });

  it('saves nothing in incognito, and can skip reporting the start page', () => {
    const incognito = open({ progress: null });
    incognito.session.next();
    expect(incognito.reported).toEqual([]);
    const reopened = open({ reportStartPage: false, startPage: 3 });
    expect(reopened.reported).toEqual([]);
    reopened.session.next();
    expect(reopened.reported).toEqual([4]);
  });

  it('double layout walks spreads and reports the higher page of each', () => {
    const { session, reported } = open({ layout: 'double', reportStartPage: false });
    expect(session.getSnapshot().spread).toEqual([null, 1]);
    session.next();
    expect(session.getSnapshot().spread).toEqual([2, 3]);
    expect(session.currentPage).toBe(3);
    session.setLayout('single');
    expect(session.currentPage).toBe(3);
    expect(reported).toEqual([3]);
  });
});

describe('ReaderSession preloading', () => {
  it('asks for the page on screen alone first, then once it is decoded ahead, then behind, at the drawn size', async () => {
    const { decoder } = open({ startPage: 5 });
    // Nothing competes with the page being waited for.
    expect(decoder.live).toEqual(['p5']);
    // 1000×1500 fitted into 1000×800: 533×800 device pixels at DPR 1.
    expect(decoder.calls[0]?.request.size).toEqual({ width: 533, height: 800 });
    decoder.find('p5').resolve();
    await settle();
    expect(decoder.live).toEqual(['p5', 'p6', 'p7', 'p8', 'p4']);
    expect(decoder.calls.map((call) => call.request.priority)).toEqual([0, 1, 2, 3, 4]);
  });

  it('preloads already running go on while a page turned to is decoded', async () => {
    const { session, decoder } = open({ startPage: 5 });
    decoder.find('p5').resolve();
    await settle();
    session.goToPage(7);
    // p7 was preloading and is now on screen; p6 and p8 stay wanted and keep running (p4 is left
    // behind); p9 and p10 wait until p7 is decoded.
    expect(decoder.pending.map((call) => call.request.url)).toEqual(['p6', 'p7', 'p8']);
    expect(decoder.calls.length).toBe(5);
    decoder.find('p7').resolve();
    await settle();
    expect(decoder.live).toContain('p9');
  });

  it('a turn to a decoded page is shown before the preloads it makes due are asked for (afterPaint)', async () => {
    const deferred: (() => void)[] = [];
    const { session, decoder } = open({ startPage: 5, afterPaint: (work) => deferred.push(work) });
    decoder.find('p5').resolve();
    await settle();
    decoder.find('p6').resolve();
    decoder.find('p7').resolve();
    await settle();
    const asked = decoder.calls.length;
    const shown: number[] = [];
    session.subscribe(() => shown.push(session.getSnapshot().currentPage));
    session.next();
    session.next();
    // Both turns were shown at once; p9 and p10 (now due) wait for the frame: one schedule is pending.
    expect(shown).toEqual([6, 7]);
    expect(decoder.calls.length).toBe(asked);
    expect(deferred).toHaveLength(1);
    deferred.shift()?.();
    expect(decoder.live).toContain('p9');
    expect(decoder.live).toContain('p10');
  });

  it('a turn to a page not decoded yet asks for it at once, whatever afterPaint does', async () => {
    const deferred: (() => void)[] = [];
    const { session, decoder } = open({ startPage: 1, afterPaint: (work) => deferred.push(work) });
    session.goToPage(8);
    expect(decoder.live).toContain('p8');
    expect(deferred).toHaveLength(0);
  });

  it('cancels requests nobody wants any more and keeps the ones still wanted', async () => {
    const { session, decoder } = open({ startPage: 5 });
    decoder.find('p5').resolve();
    await settle();
    const before = Object.fromEntries(decoder.calls.map((call) => [call.request.url, call]));
    session.goToPage(1);
    expect(before.p6?.aborted && before.p7?.aborted && before.p8?.aborted).toBe(true);
    expect(before.p4?.aborted).toBe(false);
    // p4 (still wanted: three ahead of page 1) keeps running; p2 and p3 wait until p1 is decoded.
    expect(decoder.pending.map((call) => call.request.url)).toEqual(['p4', 'p1']);
    decoder.find('p1').resolve();
    await settle();
    expect(decoder.pending.map((call) => call.request.url)).toEqual(['p4', 'p2', 'p3']);
    expect(decoder.find('p1').request.priority).toBe(0);
  });

  it('draws a page once its bitmap arrives and never asks twice for a cached page', async () => {
    const { session, decoder } = open({ startPage: 5 });
    let notified = 0;
    session.subscribe(() => notified++);
    expect(session.getSnapshot().ready).toBe(false);
    const bitmap = decoder.find('p5').resolve();
    await settle();
    decoder.find('p6').resolve();
    await settle();
    expect(notified).toBeGreaterThan(0);
    expect(session.getSnapshot().ready).toBe(true);
    expect(session.getView().bitmaps).toEqual([bitmap]);
    const requestsBefore = decoder.calls.length;
    session.next();
    expect(session.getSnapshot().ready).toBe(true);
    expect(decoder.calls.slice(requestsBefore).map((call) => call.request.url)).toEqual(['p9']);
  });

  it('closes a bitmap that arrives after its request was cancelled', async () => {
    const { session, decoder } = open({ startPage: 5 });
    decoder.find('p5').resolve();
    await settle();
    decoder.ignoreAbort = true;
    const late = decoder.find('p8');
    session.goToPage(1);
    const bitmap = late.resolve();
    await settle();
    expect(bitmap.closed).toBe(true);
    expect(session.cache.has(8)).toBe(false);
  });

  it('re-decodes at the new size when the viewport changes, drawing the old bitmap meanwhile', async () => {
    const { session, decoder } = open({ startPage: 1, preloadAhead: 0, preloadBehind: 0 });
    const small = decoder.find('p1').resolve();
    await settle();
    session.setViewport({ width: 1000, height: 800, devicePixelRatio: 2 });
    const sharp = decoder.find('p1');
    expect(sharp.request.size).toEqual({ width: 1000, height: 1500 });
    expect(session.getView().bitmaps).toEqual([small]);
    const big = sharp.resolve();
    await settle();
    expect(session.getView().bitmaps).toEqual([big]);
    expect(small.closed).toBe(true);
  });

  it('preloads no more than the cache budget can hold, but always the current page', () => {
    // One 533×800 page is ~1.7 MB; a 2 MB budget leaves no room to preload.
    const { decoder } = open({ startPage: 5, budgetBytes: 2_000_000 });
    expect(decoder.live).toEqual(['p5']);
    const tiny = open({ startPage: 5, budgetBytes: 1000 });
    expect(tiny.decoder.live).toEqual(['p5']);
  });

  it('evicts pages the reader left behind but never the page on screen', async () => {
    const { session, decoder } = open({ startPage: 1, preloadAhead: 1, preloadBehind: 0, budgetBytes: 4_500_000 });
    const first = decoder.find('p1').resolve();
    await settle();
    decoder.find('p2').resolve();
    await settle();
    session.next();
    decoder.find('p3').resolve();
    await settle();
    session.next();
    decoder.find('p4').resolve();
    await settle();
    expect(first.closed).toBe(true);
    expect(session.cache.has(3)).toBe(true);
    expect(session.cache.bytes).toBeLessThanOrEqual(4_500_000);
  });

  it('asks for pages of unknown size to fit a box, then learns their size', async () => {
    const { session, decoder } = open({ pages: pages(3, 0, 0), preloadAhead: 0, preloadBehind: 0 });
    const call = decoder.find('p1');
    expect(call.request.size).toBeUndefined();
    expect(call.request.fitWithin).toEqual({ width: 1000, height: 800 });
    call.resolve({ width: 400, height: 600 });
    await settle();
    expect(session.getSnapshot().ready).toBe(true);
    const rect = session.getView().layout.slots[0]?.rect;
    expect(rect?.height).toBe(800);
    expect(rect?.width).toBeCloseTo(1600 / 3);
  });

  it('reports a failed decode of the page on screen and retries on demand', async () => {
    const { session, decoder } = open({ preloadAhead: 0, preloadBehind: 0 });
    decoder.find('p1').fail(Object.assign(new Error('Fetching p1 failed with HTTP 500'), { reason: 'http', status: 500 }));
    await settle();
    expect(session.getSnapshot().error).toEqual({ reason: 'http', status: 500, message: 'Fetching p1 failed with HTTP 500' });
    expect(decoder.calls).toHaveLength(1);
    session.retry();
    expect(decoder.calls.map((call) => call.request.url)).toEqual(['p1', 'p1']);
    expect(session.getSnapshot().error).toBeNull();
  });

  it('right-to-left shows the spread in reverse screen order', async () => {
    const { session, decoder } = open({ layout: 'double', direction: 'RIGHT_TO_LEFT', startPage: 2 });
    expect(session.getSnapshot().spread).toEqual([2, 3]);
    expect(session.getView().layout.slots.map((slot) => slot.page)).toEqual([3, 2]);
    decoder.find('p2').resolve();
    await settle();
    const view = session.getView();
    expect(view.bitmaps[0]).toBeUndefined();
    expect(view.bitmaps[1]?.label).toBe('p2');
  });

  it('dispose aborts every request and closes every bitmap', async () => {
    const { session, decoder } = open({ startPage: 5 });
    const bitmap = decoder.find('p5').resolve();
    await settle();
    session.dispose();
    expect(decoder.calls.filter((call) => call.request.url !== 'p5').every((call) => call.aborted)).toBe(true);
    expect(bitmap.closed).toBe(true);
    expect(session.cache.size).toBe(0);
  });

  it('a decoder that returns another size than asked does not cause a request loop', async () => {
    const { session, decoder } = open({ preloadAhead: 0, preloadBehind: 0 });
    // Like a browser that ignores createImageBitmap's resize options: the natural size comes back.
    decoder.find('p1').resolveAs(1000, 1500);
    await settle();
    expect(session.getSnapshot().ready).toBe(true);
    expect(decoder.calls).toHaveLength(1);
  });

  it('shows a page\'s preview until its real bitmap arrives, asking for previews first', async () => {
    const { session, decoder } = open({
      preloadAhead: 1,
      preloadBehind: 0,
      previewAhead: 0,
      openingPreviewDelayMs: 0,
      previewUrl: (page) => `thumb${page.number}`,
    });
    await vi.waitFor(() => expect(decoder.live).toContain('thumb1'));
    const preview = decoder.find('thumb1');
    expect(preview.request.fitWithin).toEqual({ width: 400, height: 400 });
    expect(preview.request.priority).toBeLessThan(decoder.find('p1').request.priority ?? 0);
    expect(decoder.live.filter((url) => url.startsWith('thumb'))).toEqual(['thumb1']);

    const small = preview.resolve({ width: 200, height: 300 });
    await settle();
    expect(session.getView().bitmaps).toEqual([small]);
    expect(session.getView().previews).toEqual([true]);
    expect(session.getSnapshot().ready).toBe(false);

    const sharp = decoder.find('p1').resolve();
    await settle();
    expect(session.getView().bitmaps).toEqual([sharp]);
    expect(session.getView().previews).toEqual([false]);
    // Turning to a page that is not decoded yet asks for its preview; its real bitmap arriving first
    // drops that request.
    session.next();
    const nextPreview = decoder.find('thumb2');
    decoder.find('p2').resolve();
    await settle();
    expect(nextPreview.aborted).toBe(true);
    session.dispose();
  });

  it('asks for no preview of the page the book opens at unless that page is slow', async () => {
    vi.useFakeTimers();
    try {
      const { session, decoder } = open({ previewUrl: (page) => `thumb${page.number}`, openingPreviewDelayMs: 400 });
      // The server is sending page 1 itself: drawing its thumbnail now would only compete with it.
      expect(decoder.live).toEqual(['p1']);
      await vi.advanceTimersByTimeAsync(399);
      expect(decoder.live).toEqual(['p1']);
      await vi.advanceTimersByTimeAsync(1);
      expect(decoder.live).toEqual(['p1', 'thumb1']);
      session.dispose();

      // Decoded in time: no preview of it, ever.
      const quick = open({ previewUrl: (page) => `thumb${page.number}`, previewAhead: 0, openingPreviewDelayMs: 400 });
      quick.decoder.find('p1').resolve();
      await vi.advanceTimersByTimeAsync(1000);
      expect(quick.decoder.calls.some((call) => call.request.url === 'thumb1')).toBe(false);
      quick.session.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('once the page on screen is decoded, fetches previews of the spreads ahead, not of decoded pages', async () => {
    const { session, decoder } = open({ preloadAhead: 1, preloadBehind: 0, previewAhead: 3, previewUrl: (page) => `thumb${page.number}` });
    expect(decoder.live.filter((url) => url.startsWith('thumb'))).toEqual([]);
    decoder.find('p1').resolve();
    await settle();
    expect(decoder.live.filter((url) => url.startsWith('thumb'))).toEqual(['thumb2', 'thumb3', 'thumb4']);
    decoder.find('p2').resolve();
    await settle();
    // Page 2 is decoded now: its preview is no longer worth fetching.
    expect(decoder.live.filter((url) => url.startsWith('thumb'))).toEqual(['thumb3', 'thumb4']);
    // Fast turns past the preloads: page 4 shows its preview while its real bitmap decodes.
    const thumb4 = decoder.find('thumb4').resolve({ width: 200, height: 300 });
    await settle();
    session.goToPage(4);
    expect(session.getView().bitmaps).toEqual([thumb4]);
    expect(session.getView().previews).toEqual([true]);
    session.dispose();
  });
});
