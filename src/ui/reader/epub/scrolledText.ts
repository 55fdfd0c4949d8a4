/*
 * The scrolled layout: a chapter is one long column the reader scrolls. Readium's navigator turns
 * "forward" there by loading the next chapter, so Space, Page Down, the arrow keys and the tap zones
 * skipped whatever was left of the chapter below the screen. Here they scroll one screen (a few
 * lines of the last one stay in view), and move to the next or previous chapter only at the
 * chapter's end or start.
 */

/** The share of a screen one turn scrolls: the last lines stay in view, to read on from. */
const SCREEN_SHARE = 0.9;

/** Scrolls the frame's chapter one screen forward or back; false at the chapter's end or start. */
export function scrollScreen(frameWindow: Window, forward: boolean): boolean {
  const scroller = frameWindow.document.scrollingElement;
  if (!scroller) return false;
  const max = Math.max(0, scroller.scrollHeight - scroller.clientHeight);
  const before = scroller.scrollTop;
  const step = scroller.clientHeight * SCREEN_SHARE * (forward ? 1 : -1);
  scroller.scrollTop = Math.min(max, Math.max(0, before + step));
  return Math.abs(scroller.scrollTop - before) >= 1;
}

/** Shows the end of the frame's chapter (back from the next chapter's start). */
export function showChapterEnd(frameWindow: Window): void {
  const scroller = frameWindow.document.scrollingElement;
  if (scroller) scroller.scrollTop = Math.max(0, scroller.scrollHeight - scroller.clientHeight);
}
