import { describe, expect, it } from 'vitest';
import { openingScreen } from '../../src/engine/openingSpread.ts';
import { DEFAULT_READER_SETTINGS, type ReaderSettings } from '../../src/engine/readerSettings.ts';
import type { PageInfo, Viewport } from '../../src/engine/types.ts';
import { openingImagePlacement } from '../../src/ui/reader/openingImage.ts';
import type { StartHint } from '../../src/ui/reader/startHint.ts';

/**
 * A cold load's first frame from the document's image (src/ui/reader/openingImage.ts) goes exactly
 * where the reader's canvas will paint the page: the engine's layout of the opening spread from the
 * whole page list, with CanvasPainter's rounding to device pixels. Anything the one page the server
 * describes cannot place (a two-page layout, a webtoon, an unknown size or direction) gets no image.
 */
const pages: PageInfo[] = [
  { number: 1, width: 4000, height: 6000, mediaType: 'image/jpeg' },
  { number: 2, width: 1987, height: 3011, mediaType: 'image/jpeg' },
  { number: 3, width: 6000, height: 4000, mediaType: 'image/jpeg' },
];
const hintFor = (page: PageInfo, seriesDirection: StartHint['seriesDirection'] = ''): StartHint => ({
  page: page.number,
  seriesId: 's',
  seriesDirection,
  version: '1.2026',
  size: { width: page.width, height: page.height },
});
const settings = (changes: Partial<ReaderSettings>): ReaderSettings => ({ ...DEFAULT_READER_SETTINGS, ...changes });

/** Where CanvasPainter draws the page of the reader's opening spread, in device pixels. */
function painted(page: PageInfo, reader: ReaderSettings, viewport: Viewport) {
  const screen = openingScreen(
    { pages, startPage: page.number, viewport, scale: reader.pagedScale, layout: reader.pageLayout, offset: reader.pageOffset },
    reader.readingDirection === 'RIGHT_TO_LEFT',
  );
  const slot = screen.layout.slots.find((candidate) => candidate.page === page.number)!;
  const dpr = viewport.devicePixelRatio;
  return { x: Math.round(slot.rect.x * dpr), y: Math.round(slot.rect.y * dpr), width: Math.round(slot.rect.width * dpr), height: Math.round(slot.rect.height * dpr) };
}

describe('the opening image is placed where the reader paints the page', () => {
  const viewports: Viewport[] = [
    { width: 1280, height: 800, devicePixelRatio: 2 },
    { width: 390, height: 844, devicePixelRatio: 3 },
    { width: 1366, height: 768, devicePixelRatio: 1.25 },
  ];
  const cases: Partial<ReaderSettings>[] = [
    {},
    { pagedScale: 'width' },
    { pagedScale: 'height' },
    { pagedScale: 'original' },
    { pagedScale: 'width_shrink_only', background: 'white' },
    { readingDirection: 'RIGHT_TO_LEFT' },
    { readingDirection: 'VERTICAL', pageOffset: true },
  ];
  for (const viewport of viewports) {
    for (const changes of cases) {
      for (const page of pages) {
        it(`${JSON.stringify(changes)}, page ${page.number}, ${viewport.width}×${viewport.height} at ${viewport.devicePixelRatio}`, () => {
          const reader = settings(changes);
          const placement = openingImagePlacement(hintFor(page), reader, viewport);
          expect(placement).not.toBeNull();
          const dpr = viewport.devicePixelRatio;
          const { rect } = placement!;
          const device = { x: rect.x * dpr, y: rect.y * dpr, width: rect.width * dpr, height: rect.height * dpr };
          for (const [key, value] of Object.entries(painted(page, reader, viewport))) {
            expect(device[key as keyof typeof device]).toBeCloseTo(value, 6);
          }
          expect(placement!.background).toBe({ black: '#000000', gray: '#212121', white: '#ffffff' }[reader.background]);
        });
      }
    }
  }
});

describe('no opening image where the reader does not show the page alone, or cannot be told where', () => {
  const viewport: Viewport = { width: 1280, height: 800, devicePixelRatio: 2 };
  it('two pages a screen: the pairing depends on the pages around it', () => {
    expect(openingImagePlacement(hintFor(pages[1]!), settings({ pageLayout: 'double' }), viewport)).toBeNull();
    expect(openingImagePlacement(hintFor(pages[1]!), settings({ pageLayout: 'double_no_cover' }), viewport)).toBeNull();
  });
  it('a webtoon, by the reader\'s preference or by the series', () => {
    expect(openingImagePlacement(hintFor(pages[0]!), settings({ readingDirection: 'WEBTOON' }), viewport)).toBeNull();
    expect(openingImagePlacement(hintFor(pages[0]!, 'WEBTOON'), settings({}), viewport)).toBeNull();
    // A paged series direction over a webtoon preference: the reader shows pages, and the image is placed.
    expect(openingImagePlacement(hintFor(pages[0]!, 'LEFT_TO_RIGHT'), settings({ readingDirection: 'WEBTOON' }), viewport)).not.toBeNull();
  });
  it('a page of unknown size, or a series whose direction the server did not say', () => {
    expect(openingImagePlacement({ ...hintFor(pages[0]!), size: undefined }, settings({}), viewport)).toBeNull();
    expect(openingImagePlacement({ ...hintFor(pages[0]!), seriesDirection: undefined }, settings({}), viewport)).toBeNull();
  });
});
