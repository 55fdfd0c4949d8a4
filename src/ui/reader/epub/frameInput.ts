import { addFrameStyle, PAGINATED_MARK } from './frameSetup.ts';
import { verticalMode } from './verticalText.ts';

/*
 * Input from inside the book's frames (focus and fingers are often in the text): keys, double
 * clicks on images, links followed, and horizontal swipes.
 */

export interface FrameInput {
  key(event: KeyboardEvent): void;
  /** An image of the text was double-clicked; its absolute address. */
  image(src: string): void;
  /** A horizontal swipe over paginated or vertical text: dx > 0 when the finger moved to the right. */
  swipe(dx: number): void;
  /** A link of the text was clicked or tapped (before the navigator follows it); its href as written. */
  link(href: string): void;
  /**
   * A link the navigator does not follow was clicked or tapped: an image map's area, an SVG anchor
   * (see linkTheNavigatorSkips); its href as written. The reader follows it (or opens it outside).
   */
  otherLink(href: string): void;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/**
 * The href of the link at `target` that the navigator does not follow, if any. The navigator
 * follows HTML anchors only (it reads a clicked link back through the HTML parser and wants an `A`
 * with an `href`): an SVG anchor (`xlink:href` or `href`) and an image map's `<area href>` were
 * dead, an area click even taken for a tap on a turn zone.
 */
function linkTheNavigatorSkips(target: EventTarget | null): string | null {
  // The frame's own Element class: nodes of another window are not instances of this one's.
  for (let node = target as Element | null; node && typeof node.getAttribute === 'function'; node = node.parentElement) {
    if (node.localName === 'area' && node.namespaceURI !== SVG_NS) return node.getAttribute('href');
    if (node.localName === 'a') return node.namespaceURI === SVG_NS ? (node.getAttribute('href') ?? node.getAttributeNS(XLINK_NS, 'href')) : null;
  }
  return null;
}

/** Shorter moves are taps or wobbles; steeper ones are vertical drags. */
const MIN_SWIPE_PX = 40;
const MAX_SLOPE = 0.7;
/** A finger that moved farther did not tap. */
const MAX_TAP_MOVE_PX = 10;
export function listenToFrame(frameWindow: Window, input: FrameInput): void {
  const doc = frameWindow.document;
  frameWindow.addEventListener('keydown', (event) => input.key(event));
  doc.addEventListener('dblclick', (event) => {
    const target = event.target as Element | null;
    const source =
      target?.localName === 'img'
        ? (target as HTMLImageElement).currentSrc
        : target?.localName === 'image'
          ? (target.getAttribute('href') ?? target.getAttribute('xlink:href'))
          : null;
    if (source) input.image(new URL(source, doc.baseURI).href);
  });
  // Capture: seen before the navigator's own handling moves to the link's target.
  doc.addEventListener('click', (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    // The frame's own Element class (instanceof Element of this window is false for its nodes).
    const target = event.target as Element | null;
    const anchor = typeof target?.closest === 'function' ? target.closest('a[href]') : null;
    const href = anchor?.getAttribute('href');
    if (href) input.link(href);
    const other = linkTheNavigatorSkips(event.target);
    if (other) {
      // Not followed by the frame itself (an area would load its page inside the reader's frame).
      event.preventDefault();
      input.otherLink(other);
    }
  }, { capture: true });
  // The navigator takes a pointer-up that is no anchor's for a tap on a turn zone: one on such a link is kept from it.
  frameWindow.addEventListener('pointerup', (event) => {
    if (linkTheNavigatorSkips(event.target)) event.stopPropagation();
  }, { capture: true });
  listenToSwipes(frameWindow, input);
}

/**
 * Swipes over paginated text are the reader's, as key presses are: past the book's edge they lead
 * to the next book, and in a right-to-left book a swipe to the right goes forward. They are caught
 * before the navigator's own touch handlers (window, capture phase), which turn left to right only
 * and end a swipe past the edge in a bounce nobody hears of. The browser must not pan horizontally
 * meanwhile (it would cancel the gesture), so paginated frames allow vertical panning and zoom only.
 * Taps still reach the navigator as pointer events, except the pointer-up ending a swipe (it would
 * be taken for a tap on a turn zone).
 */
function listenToSwipes(frameWindow: Window, input: FrameInput): void {
  const doc = frameWindow.document;
  // Chapters come with it (frameSetup.ts: added now, it would restyle a whole large chapter).
  addFrameStyle(doc);
  const paginated = () => doc.getElementById(PAGINATED_MARK) !== null;
  // Vertical text (Japanese, Chinese) is shown scrolled and turned sideways by the reader, its body
  // clipped: nothing pans natively, so a swipe went on to the browser, whose history gesture left
  // the reader (a swipe forward through a vertical book on a phone went back a page). Its swipes are
  // the reader's too, and the browser keeps out of the way.
  const vertical = verticalMode(frameWindow) !== 'horizontal';
  if (vertical) {
    doc.documentElement.style.setProperty('touch-action', 'pan-y pinch-zoom');
    doc.documentElement.style.setProperty('overscroll-behavior', 'none');
  }
  const turnsBySwipe = () => vertical || paginated();
  const options = { capture: true, passive: true } as const;

  let pointerStart: { x: number; y: number } | null = null;
  frameWindow.addEventListener('pointerdown', (event) => {
    pointerStart = event.pointerType === 'touch' ? { x: event.clientX, y: event.clientY } : null;
  }, options);
  frameWindow.addEventListener('pointerup', (event) => {
    const from = pointerStart;
    pointerStart = null;
    if (from && turnsBySwipe() && Math.hypot(event.clientX - from.x, event.clientY - from.y) > MAX_TAP_MOVE_PX) event.stopPropagation();
  }, options);

  let start: { x: number; y: number } | null = null;
  const owned = (event: TouchEvent) => {
    if (!turnsBySwipe()) return false;
    event.stopPropagation();
    return true;
  };
  frameWindow.addEventListener('touchstart', (event) => {
    if (!owned(event)) return;
    const touch = event.touches.length === 1 ? event.touches[0] : undefined;
    start = touch ? { x: touch.clientX, y: touch.clientY } : null;
  }, options);
  frameWindow.addEventListener('touchmove', (event) => void owned(event), options);
  frameWindow.addEventListener('touchend', (event) => {
    if (!owned(event)) return;
    const touch = event.changedTouches[0];
    const from = start;
    start = null;
    // A second finger (pinch) ends the gesture without a turn.
    if (!from || !touch || event.touches.length > 0) return;
    const dx = touch.clientX - from.x;
    const dy = touch.clientY - from.y;
    if (Math.abs(dx) >= MIN_SWIPE_PX && Math.abs(dy) <= Math.abs(dx) * MAX_SLOPE) input.swipe(dx);
  }, options);
  frameWindow.addEventListener('touchcancel', (event) => {
    if (owned(event)) start = null;
  }, options);
}
