import { pageUrl } from '../../api/books.ts';
import { measureCorrects } from '../../engine/layout.ts';
import { openingScreen } from '../../engine/openingSpread.ts';
import { BACKGROUND_COLOURS, resolveDirection, type ReaderSettings } from '../../engine/readerSettings.ts';
import type { Viewport } from '../../engine/types.ts';
import { asFirstFrameOverlay } from './firstFrameOverlay.ts';
import { readerPreferences } from './settingsStore.ts';
import type { StartHint } from './startHint.ts';

/**
 * The first frame of a cold load of a reader's address, from the document's own image of the start
 * page (server/http/reader-hints.ts writes it, hidden, at the top of the body).
 *
 * The browser asks for that image while it parses the document, tens of ms before any script runs,
 * and decodes it itself, at the size it is drawn (a JPEG at a reduced DCT scale), on its own threads,
 * with nothing of the app's to wait for. The boot module only places it: exactly where the reader's
 * view will paint the page (the engine's layout of the opening spread, from the reader's settings in
 * this browser and the page size the server listed), over the reader's background, and shows it once
 * it is whole. `decoding="sync"` keeps the browser from showing a frame with the page's place empty
 * while it decodes: the first frame that shows the image shows all of it. The reader's view later
 * decodes the same address (the versioned one: the HTTP cache serves it), paints its canvas, and
 * the image goes (dismissOpeningPaint), in the same frame.
 *
 * Only a page alone on its screen: a two-page layout pairs pages whose sizes only the page list
 * tells, and a webtoon scrolls a strip. Those, a page of unknown size, an image that fails or turns
 * out to have another shape than listed, take the path without it (openingPaint.ts).
 */

/** The id the server gives the image (reader-hints.ts OPENING_IMAGE_ID). */
const IMAGE_ID = 'folio-opening-page';

/** The image, placed on its backdrop, while it is the first frame (shown or still loading). */
let shown: { backdrop: HTMLDivElement; image: HTMLImageElement } | null = null;

/**
 * Takes the document's image of the start page as the first frame when the reader will show that
 * page alone, where the image can be placed exactly. Returns a promise that settles once it was
 * painted (true) or given up (false), or null when it cannot be the first frame (it is then dropped).
 */
export function showOpeningImage(bookId: string, hint: StartHint): Promise<boolean> | null {
  const image = globalThis.document?.getElementById(IMAGE_ID);
  if (!(image instanceof HTMLImageElement)) return null;
  const placed = place(image, bookId, hint);
  if (!placed) {
    // The reader's own download of the same address takes over the bytes already on their way.
    image.remove();
    return null;
  }
  shown = placed;
  return whenWhole(image).then((whole) => {
    if (shown !== placed) return false; // the reader's view came first
    if (!whole || measureCorrects(hint.size!, image.naturalWidth, image.naturalHeight)) {
      removeOpeningImage();
      return false;
    }
    performance.mark('folio:opening-image-shown'); // for the benchmark's waterfall
    image.hidden = false;
    placed.backdrop.append(image);
    (document.body ?? document.documentElement).append(placed.backdrop);
    return painted(image).then((at) => {
      if (shown !== placed) return false;
      placed.backdrop.dataset.paintedPage = String(hint.page);
      performance.mark('folio:first-frame', { startTime: at }); // for the tests: when the first frame went up
      return true;
    });
  });
}

/** The reader's view has painted (or will never need it): the image goes, shown or not. True if it was on screen. */
export function removeOpeningImage(): boolean {
  const image = shown?.image ?? globalThis.document?.getElementById(IMAGE_ID);
  const onScreen = shown?.backdrop.isConnected ?? false;
  shown?.backdrop.remove();
  image?.remove();
  shown = null;
  return onScreen;
}

/** Where the reader will paint the start page, in CSS px on the window, each edge on a device pixel. */
export interface OpeningImagePlacement {
  rect: { x: number; y: number; width: number; height: number };
  background: string;
}

/**
 * Where the start page goes when the reader opens at it alone on the screen, from the reader's
 * settings in this browser and what the server said of the page; null when the reader will not show
 * it alone (a two-page layout, a webtoon), or the page's size or the series' direction is unknown.
 * The engine's own layout of the opening spread (the paged view's), rounded as CanvasPainter rounds.
 */
export function openingImagePlacement(hint: StartHint, settings: ReaderSettings, viewport: Viewport): OpeningImagePlacement | null {
  if (!hint.size || hint.seriesDirection === undefined) return null;
  if (settings.pageLayout !== 'single') return null;
  const direction = resolveDirection(settings.readingDirection, hint.seriesDirection).direction;
  if (direction === 'WEBTOON') return null;
  const screen = openingScreen(
    {
      pages: [{ number: hint.page, width: hint.size.width, height: hint.size.height, mediaType: '' }],
      startPage: hint.page,
      viewport,
      scale: settings.pagedScale,
      layout: 'single',
      offset: settings.pageOffset,
    },
    direction === 'RIGHT_TO_LEFT',
  );
  const slot = screen.layout.slots.length === 1 ? screen.layout.slots[0] : undefined;
  if (!slot || slot.page !== hint.page) return null;
  const dpr = viewport.devicePixelRatio;
  const snap = (css: number) => Math.round(css * dpr) / dpr;
  const { x, y, width, height } = slot.rect;
  return { rect: { x: snap(x), y: snap(y), width: snap(width), height: snap(height) }, background: BACKGROUND_COLOURS[settings.background] };
}

/** The image on a backdrop the size of the window, where the reader paints the page; null where it cannot be placed. */
function place(image: HTMLImageElement, bookId: string, hint: StartHint): { backdrop: HTMLDivElement; image: HTMLImageElement } | null {
  if (!hint.version) return null;
  // The reader decodes and caches the page under this address: the image must be that very response.
  if (image.src !== new URL(pageUrl(bookId, hint.page, undefined, hint.version), location.href).href) return null;
  // The reader's page area fills the window (as in openingDecode.ts).
  const viewport = { width: window.innerWidth, height: window.innerHeight, devicePixelRatio: window.devicePixelRatio || 1 };
  const placement = openingImagePlacement(hint, readerPreferences, viewport);
  if (!placement) return null;
  const { rect, background } = placement;
  const backdrop = asFirstFrameOverlay(document.createElement('div'), 'reader-opening-image', viewport);
  Object.assign(backdrop.style, { overflow: 'hidden', background });
  Object.assign(image.style, {
    position: 'absolute',
    left: `${rect.x}px`,
    top: `${rect.y}px`,
    width: `${rect.width}px`,
    height: `${rect.height}px`,
    maxWidth: 'none',
    maxHeight: 'none',
    margin: '0',
  });
  return { backdrop, image };
}

/** Settles once every byte of the image is in (true), or it failed (false). */
function whenWhole(image: HTMLImageElement): Promise<boolean> {
  if (image.complete) return Promise.resolve(image.naturalWidth > 0);
  return new Promise((resolve) => {
    image.addEventListener('load', () => resolve(true), { once: true });
    image.addEventListener('error', () => resolve(false), { once: true });
  });
}

/**
 * When the image was first on screen (ms since the time origin): its Element Timing entry's render
 * time, the frame that showed it decoded. Without Element Timing (not Chromium): two frames after it
 * was shown, the frame that drew it and one more.
 */
function painted(image: HTMLImageElement): Promise<number> {
  if (!PerformanceObserver.supportedEntryTypes?.includes('element')) {
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))));
  }
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { identifier?: string; element?: Element | null; renderTime?: number; loadTime?: number })[]) {
        if (entry.identifier !== IMAGE_ID || entry.element !== image) continue;
        observer.disconnect();
        // renderTime is 0 only for another origin's image without Timing-Allow-Origin; this one is ours.
        resolve(entry.renderTime || performance.now());
        return;
      }
    });
    observer.observe({ type: 'element', buffered: true });
  });
}
