import { describe, expect, it } from 'vitest';
import { WebtoonSession } from '../../../src/engine/WebtoonSession.ts';
import { currentWebtoonPage, itemIndexAt, webtoonLayout } from '../../../src/engine/webtoonLayout.ts';
import { FakeDecoder, pages, pageUrl, settle, type FakeBitmap } from './fakes.ts';

describe('webtoonLayout', () => {
  it('continuous_width: every page as wide as the viewport minus padding, heights from the aspect ratio', () => {
    const layout = webtoonLayout(pages(3, 800, 2400), 1000, 'continuous_width', 10, 0);
    expect(layout.items.map((item) => [item.top, item.size, item.imageWidth, item.imageLeft])).toEqual([
      [0, 2400, 800, 100],
      [2400, 2400, 800, 100],
      [4800, 2400, 800, 100],
    ]);
    expect(layout.totalHeight).toBe(7200);
  });

  it('margins go above and below every page but the first', () => {
    const layout = webtoonLayout(pages(3, 1000, 1000), 1000, 'continuous_width', 0, 10);
    expect(layout.items.map((item) => [item.top, item.size, item.imageTop])).toEqual([
      [0, 1000, 0],
      [1000, 1020, 10],
      [2020, 1020, 10],
    ]);
  });

  it('continuous_original keeps the natural size', () => {
    const layout = webtoonLayout(pages(2, 600, 900), 1000, 'continuous_original', 0, 0);
    expect(layout.items[1]).toMatchObject({ top: 900, imageWidth: 600, imageHeight: 900, imageLeft: 200 });
  });

  it('finds the page under a position and the current page', () => {
    const layout = webtoonLayout(pages(5, 1000, 1000), 1000, 'continuous_width', 0, 0);
    expect(itemIndexAt(layout.items, 0)).toBe(0);
    expect(itemIndexAt(layout.items, 2500)).toBe(2);
    expect(currentWebtoonPage(layout, 0, 800)).toBe(1);
    expect(currentWebtoonPage(layout, 700, 800)).toBe(2);
    // Scrolled to the very end: the last page, even if it never reached the middle.
    expect(currentWebtoonPage(layout, 4200, 800)).toBe(5);
  });
});

describe('WebtoonSession', () => {
  const viewport = { width: 500, height: 800, devicePixelRatio: 2 };

  function open(count = 50) {
    const decoder = new FakeDecoder();
    const reported: number[] = [];
    const session = new WebtoonSession<FakeBitmap>({
      pages: pages(count, 1000, 3000),
      decoder,
      pageUrl,
      viewport,
      overscan: 2,
      progress: { report: (page) => reported.push(page) },
    });
    return { session, decoder, reported };
  }

  it('decodes the visible pages first, then overscan ahead, then behind, at device-pixel width', () => {
    const { session, decoder } = open();
    session.setVisibleRange(10, 11);
    expect(decoder.live).toEqual(['p10', 'p11', 'p12', 'p13', 'p9', 'p8']);
    // 500 CSS px wide at DPR 2 → 1000 × 3000 device pixels, no more than the image has.
    expect(decoder.find('p10').request.size).toEqual({ width: 1000, height: 3000 });
  });

  it('only the visible window holds bitmaps while scrolling a long strip', async () => {
    const { session, decoder } = open(1000);
    const decoded: FakeBitmap[] = [];
    let lastFirst = 1;
    for (let first = 1; first <= 990; first += 7) {
      lastFirst = first;
      session.setVisibleRange(first, first + 1);
      for (const call of decoder.pending) decoded.push(call.resolve());
      await settle();
      expect(session.cache.size).toBeLessThanOrEqual(6);
    }
    const held = session.getSnapshot().decodedPages;
    expect(held).toEqual([lastFirst - 2, lastFirst - 1, lastFirst, lastFirst + 1, lastFirst + 2, lastFirst + 3]);
    // Every bitmap that left the window was closed: the open ones are exactly those held.
    expect(decoded.filter((bitmap) => !bitmap.closed)).toHaveLength(held.length);
  });

  it('decodes a page again when its pixels went with a canvas (redecode), and only while it is wanted', async () => {
    const { session, decoder } = open();
    session.setVisibleRange(10, 10);
    for (const call of decoder.pending) call.resolve();
    await settle();
    const asked = decoder.calls.length;
    session.redecode(10);
    expect(decoder.calls.length).toBe(asked + 1);
    expect(decoder.pending.map((call) => call.request.url)).toEqual(['p10']);
    // A page not held (never decoded, or out of the window) asks for nothing.
    session.redecode(40);
    expect(decoder.calls.length).toBe(asked + 1);
  });

  it('reports the page under the middle of the viewport as the reader scrolls', () => {
    const { session, reported, decoder } = open(10);
    // Each page is 500 × 1500 CSS px.
    session.setScroll(0);
    session.setScroll(1200);
    session.setScroll(1300);
    session.setScroll(15_000 - 800);
    expect(reported).toEqual([1, 2, 10]);
    // The decode window followed the scroll: only page 10 is visible, 8 and 9 are the overscan behind it.
    expect(decoder.live).toEqual(['p10', 'p9', 'p8']);
    expect(session.getSnapshot().currentPage).toBe(10);
    expect(session.offsetOf(3)).toBe(3000);
  });

  it('re-lays out the strip and re-decodes at the new width when padding or the viewport changes', () => {
    const { session, decoder } = open(10);
    session.setVisibleRange(1, 1);
    expect(decoder.find('p1').request.size).toEqual({ width: 1000, height: 3000 });
    session.setPresentation('continuous_width', 25, 10);
    // 500 px minus 25 % each side = 250 CSS px wide, 750 tall; margins around every page but the first.
    expect(session.layout.items[1]).toMatchObject({ top: 750, size: 770, imageWidth: 250 });
    expect(decoder.find('p1').request.size).toEqual({ width: 500, height: 1500 });
    session.setViewport({ width: 1000, height: 800, devicePixelRatio: 1 });
    expect(session.layout.items[0]?.imageWidth).toBe(500);
    expect(decoder.find('p1').request.size).toEqual({ width: 500, height: 1500 });
    expect(session.getSnapshot().layout).toBe(session.layout);
  });
});
