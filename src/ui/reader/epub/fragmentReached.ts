import { verticalMode } from './verticalText.ts';

/**
 * Whether the element a fragment names, in the document a frame shows, starts at or before the
 * screen being read (on it or on an earlier one): paginated text pages sideways, scrolled text
 * downwards, vertical text sideways from the right (or left). Null when the document has no such id.
 */
export function fragmentReached(frameWindow: Window, fragment: string): boolean | null {
  const element = frameWindow.document.getElementById(fragment);
  if (!element) return null;
  const box = element.getBoundingClientRect();
  const mode = verticalMode(frameWindow);
  if (mode === 'vertical-rl') return box.right > 0;
  if (mode === 'vertical-lr') return box.left < frameWindow.innerWidth;
  const paginated = frameWindow.document.documentElement.scrollWidth > frameWindow.innerWidth + 1;
  return paginated ? box.left < frameWindow.innerWidth : box.top < frameWindow.innerHeight;
}
