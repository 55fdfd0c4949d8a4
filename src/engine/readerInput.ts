import type { ReadingDirection } from '../api/types.ts';

/** What a key or a tap asks the reader to do; the UI carries it out. */
export type ReaderAction =
  | 'next'
  | 'previous'
  | 'first'
  | 'last'
  | 'toggle-toolbar'
  | 'toggle-settings'
  | 'toggle-thumbnails'
  | 'toggle-help'
  | 'toggle-fullscreen'
  | 'cycle-scale'
  | 'cycle-layout'
  | 'cycle-padding'
  | 'cycle-margin'
  | 'direction-ltr'
  | 'direction-rtl'
  | 'direction-vertical'
  | 'direction-webtoon'
  | 'escape'
  | 'scroll-down'
  | 'scroll-up'
  /** Webtoon ↓/↑: a little, as the browser scrolls a page with the arrow keys. */
  | 'nudge-down'
  | 'nudge-up'
  | 'zoom-in'
  | 'zoom-out'
  | 'zoom-reset';

export interface KeyInput {
  key: string;
  ctrlKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  metaKey?: boolean;
}

const SETTING_KEYS: Record<string, ReaderAction> = {
  l: 'direction-ltr',
  r: 'direction-rtl',
  v: 'direction-vertical',
  w: 'direction-webtoon',
  f: 'toggle-fullscreen',
  m: 'toggle-toolbar',
  s: 'toggle-settings',
  t: 'toggle-thumbnails',
  h: 'toggle-help',
  Escape: 'escape',
};

const ZOOM_KEYS: Record<string, ReaderAction> = {
  '+': 'zoom-in',
  '=': 'zoom-in',
  '-': 'zoom-out',
  '0': 'zoom-reset',
};

/**
 * REFERENCE §5.7. Arrows follow the reading direction: ← is "previous" left to right and "next"
 * right to left; ↑/↓ only page in vertical mode, and in a webtoon they scroll a line's worth
 * (REFERENCE §5.5: native scrolling but at either end). Keys held with a modifier belong to the browser.
 */
export function keyAction(input: KeyInput, direction: ReadingDirection): ReaderAction | null {
  if (input.ctrlKey || input.altKey || input.metaKey) return null;
  const { key } = input;
  const webtoon = direction === 'WEBTOON';
  // Zoom keys (paged view): `+` needs Shift on many keyboards, so Shift is allowed for these alone.
  const zoom = ZOOM_KEYS[key];
  if (zoom) return webtoon ? null : zoom;
  if (input.shiftKey) return null;
  switch (key) {
    case 'ArrowLeft':
      if (direction === 'LEFT_TO_RIGHT') return 'previous';
      if (direction === 'RIGHT_TO_LEFT') return 'next';
      return null;
    case 'ArrowRight':
      if (direction === 'LEFT_TO_RIGHT') return 'next';
      if (direction === 'RIGHT_TO_LEFT') return 'previous';
      return null;
    case 'ArrowDown':
      if (direction === 'VERTICAL') return 'next';
      return webtoon ? 'nudge-down' : null;
    case 'ArrowUp':
      if (direction === 'VERTICAL') return 'previous';
      return webtoon ? 'nudge-up' : null;
    case ' ':
    case 'PageDown':
      return webtoon ? 'scroll-down' : null;
    case 'PageUp':
      return webtoon ? 'scroll-up' : null;
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'c':
      return 'cycle-scale';
    case 'd':
      return webtoon ? null : 'cycle-layout';
    case 'p':
      return webtoon ? 'cycle-padding' : null;
    case 'n':
      return webtoon ? 'cycle-margin' : null;
    default:
      return SETTING_KEYS[key] ?? null;
  }
}

/**
 * REFERENCE §5.4 click zones, from the tap position as fractions of the reader's width and height:
 * a quarter at each end turns the page (left/right, or top/bottom in vertical mode), the middle
 * toggles the toolbars. "Turn right" is next left to right and previous right to left.
 */
export function clickZoneAction(x: number, y: number, direction: ReadingDirection): ReaderAction {
  if (direction === 'VERTICAL' || direction === 'WEBTOON') {
    if (y < 0.25) return direction === 'WEBTOON' ? 'scroll-up' : 'previous';
    if (y > 0.75) return direction === 'WEBTOON' ? 'scroll-down' : 'next';
    return 'toggle-toolbar';
  }
  const rtl = direction === 'RIGHT_TO_LEFT';
  if (x < 0.25) return rtl ? 'next' : 'previous';
  if (x > 0.75) return rtl ? 'previous' : 'next';
  return 'toggle-toolbar';
}

/**
 * Swipes (when the Gestures setting is on): swiping left turns right, swiping right turns left;
 * up and down page only in vertical mode. `sx`/`sy` are -1, 0 or 1 as the gesture library reports.
 */
export function swipeAction(sx: number, sy: number, direction: ReadingDirection): ReaderAction | null {
  if (direction === 'WEBTOON') return null;
  if (direction === 'VERTICAL') {
    if (sy < 0) return 'next';
    if (sy > 0) return 'previous';
    return null;
  }
  const rtl = direction === 'RIGHT_TO_LEFT';
  if (sx < 0) return rtl ? 'previous' : 'next';
  if (sx > 0) return rtl ? 'next' : 'previous';
  return null;
}

/** How far a slow drag must travel, as a share of the page's width (height in vertical mode), to turn. */
export const DRAG_TURN_SHARE = 0.25;

/**
 * A drag that was too slow to count as a swipe still turns the page when it ends a good way across
 * it and mostly along the turn axis: a reader moving a finger deliberately (or a busy phone
 * reporting the moves late) expects the same turn as a flick. `mx`/`my` are the drag's total
 * movement in CSS pixels; the answer is in the same -1/0/1 form as a swipe, for `swipeAction`.
 */
export function dragTurn(
  mx: number,
  my: number,
  page: { width: number; height: number },
  direction: ReadingDirection,
): [number, number] {
  if (direction === 'VERTICAL') {
    return Math.abs(my) >= page.height * DRAG_TURN_SHARE && Math.abs(my) > 2 * Math.abs(mx) ? [0, Math.sign(my)] : [0, 0];
  }
  return Math.abs(mx) >= page.width * DRAG_TURN_SHARE && Math.abs(mx) > 2 * Math.abs(my) ? [Math.sign(mx), 0] : [0, 0];
}
