import { pageVersion } from '../../api/books.ts';
import { openingScreen } from '../../engine/openingSpread.ts';
import { resolveDirection } from '../../engine/readerSettings.ts';
import type { BookDto, PageDto, ReadingDirection } from '../../api/types.ts';
import { isTextEpub } from './bookKind.ts';
import type { OpeningPaint } from './openingPaint.ts';
import { sharedDecodePool } from './decodePool.ts';
import { readerPageUrl } from './readerPageUrl.ts';
import { readerPreferences } from './settingsStore.ts';
import { toPageInfo } from './viewport.ts';

/**
 * Starts decoding the spread a book opens at, the moment its page list is known and while the reader's
 * view is still being built: at the size the paged view will ask for (same settings, the whole window
 * as the reader uses it, the same layout computation), so the view's request takes this decode
 * instead of starting its own once it has mounted. Webtoon and text books are left to their views;
 * a size that turns out different costs a second decode of the same bytes, never a second download.
 */
export function decodeOpeningSpread(
  { book, pages, seriesDirection }: { book: BookDto; pages: PageDto[]; seriesDirection: ReadingDirection | '' | null },
  startPage: number,
): OpeningPaint | null {
  if (isTextEpub(book) || pages.length === 0) return null;
  const direction = resolveDirection(readerPreferences.readingDirection, seriesDirection).direction;
  if (direction === 'WEBTOON') return null;
  const infos = toPageInfo(pages);
  // The reader's page area fills the window (position: fixed, inset 0).
  const viewport = { width: window.innerWidth, height: window.innerHeight, devicePixelRatio: window.devicePixelRatio || 1 };
  const screen = openingScreen(
    {
      pages: infos,
      startPage,
      viewport,
      scale: readerPreferences.pagedScale,
      layout: readerPreferences.pageLayout,
      offset: readerPreferences.pageOffset,
    },
    direction === 'RIGHT_TO_LEFT',
  );
  const version = pageVersion(book);
  const urls = new Map<number, string>();
  for (const { page, size } of screen.decodes) {
    const info = infos.find((candidate) => candidate.number === page);
    if (!info) continue;
    const url = readerPageUrl(book.id, info, version);
    urls.set(page, url);
    sharedDecodePool().decodeAhead({ url, size, natural: { width: info.width, height: info.height } });
  }
  return { screen, viewport, urls };
}
