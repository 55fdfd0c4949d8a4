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

/**
 * One screen forward or back in a vertical chapter (a sliver of the last screen stays in view).
 * False at the chapter's start or end, so the caller moves to the neighbouring chapter.
 */
export function turnVertical(frameWindow: Window, forward: boolean): boolean {
  const mode = verticalMode(frameWindow);
  const { body } = frameWindow.document;
  if (mode === 'horizontal' || !body) return false;
  // Readium CSS keeps body to a line length and clips it; a vertical body overflows sideways, and
  // only a scroll container (not a clipping one) can be moved along it.
  if (frameWindow.getComputedStyle(body).overflowX !== 'hidden') body.style.setProperty('overflow-x', 'hidden', 'important');
  const extent = Math.max(0, body.scrollWidth - body.clientWidth);
  // vertical-rl starts at the right edge: scrollLeft runs from 0 down to -extent.
  const [low, high] = mode === 'vertical-rl' ? [-extent, 0] : [0, extent];
  const towardsEnd = mode === 'vertical-rl' ? -1 : 1;
  const step = body.clientWidth * 0.92 * towardsEnd * (forward ? 1 : -1);
  const before = body.scrollLeft;
  body.scrollLeft = Math.min(high, Math.max(low, before + step));
  return Math.abs(body.scrollLeft - before) >= 1;
}
