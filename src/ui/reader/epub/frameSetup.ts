import { GROUP_STYLE, groupBodyChildren } from './blockGroups.ts';
import { WIDE_TABLE_ATTRIBUTE } from './wideTables.ts';

/*
 * What a chapter's frame needs from its first layout, written into the document before the
 * navigator attaches it. In a chapter of megabytes (novels that keep the whole book in one file)
 * every change after the first layout that touches the root element or the style sheets restyles
 * every element of the chapter, at a few hundred milliseconds each time on a phone or a busy machine:
 *   - a <style> added to the head (a new sheet is matched against the whole document);
 *   - any change to the root's style attribute (Readium CSS selects on `:root[style*=…]`).
 */

/**
 * The style element the navigator's column pagination adds to a frame it paginates (and removes when
 * the frame scrolls instead). Scrolled frames, vertical writing included, keep the browser's vertical panning.
 */
export const PAGINATED_MARK = 'readium-column-snapper-style';

/** Marks the reader's own style in a frame's document, so it is added once. */
export const FRAME_STYLE_ID = 'folio-frame-style';

/** On the root once the navigator has set the frame up (or the reader heard from it): the text may render. */
export const FRAME_SHOWN_ATTRIBUTE = 'data-folio-shown';

/**
 * A large chapter is not laid out before the navigator has set its frame up: the browser renders a
 * loaded document at once, and the helper script's style sheets (one of them matches every element)
 * then restyle and lay the whole chapter out a second time. Kept from rendering until they are in
 * (revealFrames marks the root then), the chapter is laid out once. Over this size only; small
 * chapters render as they always did. The rule names an attribute, not `:has()`: Readium CSS has
 * sibling `:has()` rules, and with them any element added to the chapter (the navigator's blank
 * page after an odd column) would restyle every element through a `:has()` rule on the root.
 */
export const DEFER_RENDERING_BYTES = 256 * 1024;

const DEFERRED_RENDERING = `html:not([${FRAME_SHOWN_ATTRIBUTE}]) > body { content-visibility: hidden; }`;

/** On the root's style attribute (`--USER__view`) of a frame the navigator lays out scrolled. */
const SCROLLED_ROOT = 'html[style*="readium-scroll-on"]';

/**
 * Code listings and tables wider than the screen in a scrolled frame scroll sideways in their own
 * box: the root's pan-y (below) left them unreachable by touch. A block that scrolls is where the
 * browser looks for the pans a touch allows, so pan-x there works whatever the root says, and the
 * swipe does not go on to the page (overscroll contained) even at the block's edge, where it would
 * again reach the browser's history gesture. A table box does not clip, so a wide table (marked by
 * wideTables.ts) becomes a block to scroll, as wide as its content up to the text's width; other
 * tables keep the book's table layout.
 */
const WIDE_TABLE = `${SCROLLED_ROOT} table[${WIDE_TABLE_ATTRIBUTE}]`;
const WIDE_BLOCKS = `${SCROLLED_ROOT} pre, ${WIDE_TABLE} { max-inline-size: 100%; overflow-x: auto; overscroll-behavior-x: contain; touch-action: pan-x pan-y pinch-zoom; }
${WIDE_TABLE} { display: block; inline-size: fit-content; }`;

/**
 * Paginated frames allow vertical panning and zoom only: the reader takes horizontal swipes itself
 * (see frameInput.ts), and a browser pan would cancel them. Scrolled frames (the Scrolling layout)
 * pan vertically and zoom only too: their text fits the width, so nothing there pans sideways, and a
 * sideways swipe went on to the browser, whose history gesture left the reader (back to the page
 * before it). There a sideways swipe does nothing; the swipes paginated frames turn by keep working.
 */
const FRAME_STYLE = `html:has(#${PAGINATED_MARK}), ${SCROLLED_ROOT} { touch-action: pan-y pinch-zoom; }\n${WIDE_BLOCKS}\n${GROUP_STYLE}`;

export interface FrameSetup {
  /**
   * The width the frame will have, in CSS pixels, when known: the navigator's helper script sets
   * `--RS__viewportWidth` to it on the root as soon as the frame has loaded. Set beforehand to the
   * same value, that write changes nothing and costs nothing.
   */
  viewportWidth?: number;
  /**
   * A large chapter: rendered only once its frame is set up (see DEFER_RENDERING_BYTES), and its
   * body's children grouped if there are many (blockGroups.ts).
   */
  deferRendering?: boolean;
}

/** Adds the reader's style and the frame's first root properties to a (cleaned) chapter document. */
export function prepareFrameDocument(doc: Document, setup: FrameSetup = {}): void {
  const root = doc.documentElement;
  if (setup.viewportWidth !== undefined && setup.viewportWidth > 0 && root instanceof HTMLElement) {
    root.style.setProperty('--RS__viewportWidth', `${Math.round(setup.viewportWidth)}px`);
  }
  addFrameStyle(doc);
  if (setup.deferRendering) {
    groupBodyChildren(doc);
    const style = doc.createElementNS(root.namespaceURI, 'style');
    style.textContent = DEFERRED_RENDERING;
    doc.getElementById(FRAME_STYLE_ID)?.after(style);
  }
}

/** The frame is set up: its text may render. */
export function frameShown(doc: Document): void {
  if (!doc.documentElement.hasAttribute(FRAME_SHOWN_ATTRIBUTE)) doc.documentElement.setAttribute(FRAME_SHOWN_ATTRIBUTE, '');
}

/**
 * Marks each frame the navigator adds to `host` as set up when its document has loaded. The
 * navigator sets a frame up in the frame's `onload` handler, which it assigns before the frame
 * loads; a listener added on seeing the frame runs after it, in the same task, so the chapter is
 * first styled with the navigator's sheets already in. Returns the disconnect.
 */
export function revealFrames(host: HTMLElement): () => void {
  const watch = (frame: HTMLIFrameElement) =>
    frame.addEventListener('load', () => {
      const doc = frame.contentDocument;
      if (doc?.documentElement) frameShown(doc);
    });
  // Fixed-layout pages sit in spread containers inside the host: frames are looked for at any depth.
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof HTMLIFrameElement) watch(node);
        else if (node instanceof Element) node.querySelectorAll('iframe').forEach(watch);
      }
    }
  });
  observer.observe(host, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** The reader's style in a frame's document, unless it is there already (a document not built by prepareFrameDocument). */
export function addFrameStyle(doc: Document): void {
  if (doc.getElementById(FRAME_STYLE_ID)) return;
  const style = doc.createElementNS(doc.documentElement.namespaceURI, 'style');
  style.setAttribute('id', FRAME_STYLE_ID);
  style.textContent = FRAME_STYLE;
  (doc.head ?? doc.getElementsByTagName('head')[0] ?? doc.documentElement).append(style);
}
