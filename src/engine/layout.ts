import type { PageInfo, Rect, ScaleType, Size, Viewport } from './types.ts';

/** Komga's stand-in size for a page whose dimensions were never measured (keeps a 2:3 portrait shape). */
export const UNKNOWN_PAGE_SIZE: Size = { width: 20, height: 30 };

export function knownSize(page: Pick<PageInfo, 'width' | 'height'>): Size {
  return page.width > 0 && page.height > 0 ? { width: page.width, height: page.height } : UNKNOWN_PAGE_SIZE;
}

export function hasKnownSize(page: Pick<PageInfo, 'width' | 'height'>): boolean {
  return page.width > 0 && page.height > 0;
}

/**
 * Whether a decoder's measure of a page (`natural`) says something new about its size: the page had
 * no known size, or its listed one has another shape (a photo stored sideways, listed before EXIF
 * orientation counted). The view then lays the page out at the measured size.
 */
export function measureCorrects(page: Pick<PageInfo, 'width' | 'height'>, naturalWidth: number | null, naturalHeight: number | null): boolean {
  if (!naturalWidth || !naturalHeight) return false;
  if (!hasKnownSize(page)) return true;
  return Math.abs(naturalHeight / naturalWidth - page.height / page.width) > 0.02 * (page.height / page.width);
}

/**
 * The CSS size at which a page is shown inside a slot (the whole viewport, or half of it in a
 * two-page spread), for each scale type of the paged reader.
 */
export function fitPage(page: Size, slot: Size, scale: ScaleType): Size {
  const widthRatio = slot.width / page.width;
  const heightRatio = slot.height / page.height;
  let factor: number;
  switch (scale) {
    case 'screen':
      factor = Math.min(widthRatio, heightRatio);
      break;
    case 'width':
      factor = widthRatio;
      break;
    case 'width_shrink_only':
      factor = Math.min(1, widthRatio);
      break;
    case 'height':
      factor = heightRatio;
      break;
    case 'original':
      factor = 1;
      break;
  }
  return { width: page.width * factor, height: page.height * factor };
}

export interface SlotLayout {
  /** null for the blank that pads a spread. */
  page: number | null;
  /** Position in content coordinates (CSS px); content is at least the viewport's size. */
  rect: Rect;
}

export interface ViewLayout {
  contentWidth: number;
  contentHeight: number;
  slots: SlotLayout[];
}

/**
 * Places the pages of one view (a single page or a two-page spread, in left-to-right screen order)
 * in the viewport. Pages of a spread meet in the middle like an open book; content smaller than the
 * viewport is centred (fit width: top-aligned), larger content starts at the top-left and scrolls.
 */
export function layoutView(
  entries: readonly (PageInfo | null)[],
  viewport: Viewport,
  scale: ScaleType,
): ViewLayout {
  const slot: Size = { width: viewport.width / Math.max(1, entries.length), height: viewport.height };
  const sizes = entries.map((entry, index) => {
    // A blank borrows its neighbour's shape so the real page sits where it would in a printed book.
    const source = entry ?? entries[index === 0 ? 1 : 0] ?? null;
    return fitPage(source ? knownSize(source) : UNKNOWN_PAGE_SIZE, slot, scale);
  });
  const totalWidth = sizes.reduce((sum, size) => sum + size.width, 0);
  const tallest = sizes.reduce((max, size) => Math.max(max, size.height), 0);
  const contentWidth = Math.max(viewport.width, totalWidth);
  const contentHeight = Math.max(viewport.height, tallest);
  let x = (contentWidth - totalWidth) / 2;
  // Fit width reads from the top of the page (REFERENCE §5.4: top-aligned); the others are centred.
  const topAligned = scale === 'width';
  const slots = sizes.map((size, index) => {
    const y = topAligned ? 0 : (contentHeight - size.height) / 2;
    const rect: Rect = { x, y, width: size.width, height: size.height };
    x += size.width;
    return { page: entries[index]?.number ?? null, rect };
  });
  return { contentWidth, contentHeight, slots };
}

/**
 * The device-pixel size to decode a page at so it is drawn 1:1 at `displayed` CSS px, never bigger
 * than the image itself (enlarging is left to drawImage, which costs no memory).
 */
export function decodeSize(page: Pick<PageInfo, 'width' | 'height'>, displayed: Size, devicePixelRatio: number): Size {
  let width = Math.max(1, Math.round(displayed.width * devicePixelRatio));
  let height = Math.max(1, Math.round(displayed.height * devicePixelRatio));
  if (hasKnownSize(page) && (width > page.width || height > page.height)) {
    width = page.width;
    height = page.height;
  }
  return { width, height };
}
