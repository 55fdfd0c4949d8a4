import type { R2Locator } from '../../../api/types.ts';
import { restorePoint } from '../../../engine/epubProgression.ts';

/*
 * Vertical writing (Japanese, Chinese): lines run top to bottom and follow each other right to left
 * (vertical-rl) or left to right (vertical-lr). The library's column pagination is made for
 * horizontal text and cuts such a chapter after its first screen, so the reader shows vertical
 * chapters scrolled and turns them one screen sideways itself.
 */

/** The writing mode of the document shown in a frame, 'horizontal' for ordinary text. */
export function verticalMode(frameWindow: Window): 'vertical-rl' | 'vertical-lr' | 'horizontal' {
  const { documentElement, body } = frameWindow.document;
  const mode = frameWindow.getComputedStyle(body ?? documentElement).writingMode;
  if (mode.startsWith('vertical-rl') || mode === 'tb-rl' || mode === 'sideways-rl') return 'vertical-rl';
  if (mode.startsWith('vertical-lr') || mode === 'sideways-lr') return 'vertical-lr';
  return 'horizontal';
}

/** The frame's body as a sideways scroller, with its writing mode and how far it scrolls; null for horizontal text. */
function sideways(frameWindow: Window): { body: HTMLElement; rl: boolean; extent: number } | null {
  const mode = verticalMode(frameWindow);
  const { body } = frameWindow.document;
  if (mode === 'horizontal' || !body) return null;
  // Readium CSS keeps body to a line length and clips it; a vertical body overflows sideways, and
  // only a scroll container (not a clipping one) can be moved along it.
  if (frameWindow.getComputedStyle(body).overflowX !== 'hidden') body.style.setProperty('overflow-x', 'hidden', 'important');
  return { body, rl: mode === 'vertical-rl', extent: Math.max(0, body.scrollWidth - body.clientWidth) };
}

/**
 * One screen forward or back in a vertical chapter (a sliver of the last screen stays in view).
 * False at the chapter's start or end, so the caller moves to the neighbouring chapter.
 */
export function turnVertical(frameWindow: Window, forward: boolean): boolean {
  const frame = sideways(frameWindow);
  if (!frame) return false;
  const { body, rl, extent } = frame;
  // vertical-rl starts at the right edge: scrollLeft runs from 0 down to -extent.
  const [low, high] = rl ? [-extent, 0] : [0, extent];
  const step = body.clientWidth * 0.92 * (rl ? -1 : 1) * (forward ? 1 : -1);
  const before = body.scrollLeft;
  body.scrollLeft = Math.min(high, Math.max(low, before + step));
  return Math.abs(body.scrollLeft - before) >= 1;
}

/** How far into its chapter a vertical frame is shown (0 to 1, the Readium progression); null for horizontal text. */
export function verticalProgression(frameWindow: Window): number | null {
  const frame = sideways(frameWindow);
  if (!frame) return null;
  if (frame.extent === 0) return 0;
  const offset = frame.rl ? -frame.body.scrollLeft : frame.body.scrollLeft;
  return Math.min(1, Math.max(0, offset / frame.extent));
}

/** Shows a vertical chapter from `progression` (0 to 1) on: the way back to a saved place. */
export function showVerticalAt(frameWindow: Window, progression: number): void {
  const frame = sideways(frameWindow);
  if (frame) frame.body.scrollLeft = (frame.rl ? -1 : 1) * Math.min(1, Math.max(0, progression)) * frame.extent;
}

/**
 * What a vertical frame shows, as a locator: its chapter at the progression of its sideways scroll,
 * on the book's position there (the navigator only knows the chapter). Null for horizontal text.
 */
export function verticalPlace(frameWindow: Window, shown: R2Locator, positions: readonly R2Locator[]): R2Locator | null {
  const progression = verticalProgression(frameWindow);
  if (progression === null) return null;
  const point = restorePoint({ href: shown.href, type: shown.type, locations: { progression } }, positions);
  if (!point) return null;
  return { ...point.target, locations: { ...point.target.locations, totalProgression: point.position.locations?.totalProgression } };
}
