import { describe, expect, it } from 'vitest';
import { openingDecodes, openingScreen } from '../../../src/engine/openingSpread.ts';
import { ReaderSession, type PagedDirection } from '../../../src/engine/ReaderSession.ts';
import type { PageInfo, PageLayout, ScaleType, Viewport } from '../../../src/engine/types.ts';
import { FakeDecoder, pages, pageUrl } from './fakes.ts';

/** A book of portrait pages with a landscape spread at page 4 and one page of unknown size. */
function book(): PageInfo[] {
  const list = pages(9, 4000, 6000);
  list[3] = { ...list[3]!, width: 8000, height: 6000 };
  list[7] = { ...list[7]!, width: 0, height: 0 };
  return list;
}

const viewports: Viewport[] = [
  { width: 1280, height: 800, devicePixelRatio: 2 },
  { width: 390, height: 844, devicePixelRatio: 3 },
  { width: 1920, height: 1080, devicePixelRatio: 1.25 },
];
const scales: ScaleType[] = ['screen', 'width', 'width_shrink_only', 'height', 'original'];
const layouts: PageLayout[] = ['single', 'double', 'double_no_cover'];
const directions: PagedDirection[] = ['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL'];

/** Every combination of the paged reader's settings and a few start pages (540 in all). */
interface Settings {
  viewport: Viewport;
  scale: ScaleType;
  layout: PageLayout;
  offset: boolean;
  direction: PagedDirection;
  startPage: number;
}

function eachSetting(check: (settings: Settings) => void): number {
  let compared = 0;
  for (const viewport of viewports) {
    for (const scale of scales) {
      for (const layout of layouts) {
        for (const offset of [false, true]) {
          for (const direction of directions) {
            for (const startPage of [1, 2, 4, 5, 8, 9]) {
              check({ viewport, scale, layout, offset, direction, startPage });
              compared++;
            }
          }
        }
      }
    }
  }
  return compared;
}

const EVERY_SETTING = 3 * 5 * 3 * 2 * 3 * 6;

describe('openingDecodes', () => {
  it('asks for exactly what the paged reader asks for first, whatever the settings', () => {
    const compared = eachSetting(({ viewport, scale, layout, offset, direction, startPage }) => {
      const decoder = new FakeDecoder();
      const session = new ReaderSession({
        pages: book(), decoder, pageUrl, viewport, startPage, scale, layout, offset, direction,
      });
      // Until the pages on screen are decoded, the session asks for those alone.
      const asked = decoder.calls
        .filter((call) => call.request.size)
        .map((call) => ({ page: Number(call.request.url.slice(1)), size: call.request.size }))
        .sort((a, b) => a.page - b.page);
      const predicted = openingDecodes({ pages: book(), startPage, viewport, scale, layout, offset })
        .sort((a, b) => a.page - b.page);
      expect(predicted, JSON.stringify({ viewport, scale, layout, offset, direction, startPage })).toEqual(asked);
      session.dispose();
    });
    expect(compared).toBe(EVERY_SETTING);
  });

  it('leaves out a page of unknown size (the reader asks for it with a box to fit in)', () => {
    const viewport = viewports[0]!;
    expect(openingDecodes({ pages: book(), startPage: 8, viewport, scale: 'screen', layout: 'single', offset: false })).toEqual([]);
  });

  it('decodes the opening page of a 4000×6000 book at the size the screen draws it', () => {
    const viewport = viewports[0]!;
    expect(openingDecodes({ pages: book(), startPage: 1, viewport, scale: 'screen', layout: 'single', offset: false })).toEqual([
      { page: 1, size: { width: 1067, height: 1600 } },
    ]);
  });
});

describe('openingScreen', () => {
  it('places the opening spread where the paged reader places it, and counts it as the same page', () => {
    const compared = eachSetting(({ viewport, scale, layout, offset, direction, startPage }) => {
      const session = new ReaderSession({
        pages: book(), decoder: new FakeDecoder(), pageUrl, viewport, startPage, scale, layout, offset, direction,
      });
      const screen = openingScreen({ pages: book(), startPage, viewport, scale, layout, offset }, direction === 'RIGHT_TO_LEFT');
      const context = JSON.stringify({ viewport, scale, layout, offset, direction, startPage });
      expect(screen.layout, context).toEqual(session.getView().layout);
      expect(screen.currentPage, context).toBe(session.currentPage);
      session.dispose();
    });
    expect(compared).toBe(EVERY_SETTING);
  });
});
