import { BACKGROUND_COLOURS } from '../../engine/readerSettings.ts';
import type { OpeningScreen } from '../../engine/openingSpread.ts';
import type { PaintView } from '../../engine/ReaderSession.ts';
import type { Viewport } from '../../engine/types.ts';
import { CanvasPainter } from './CanvasPainter.ts';
import { asFirstFrameOverlay } from './firstFrameOverlay.ts';
import { sharedDecodePool } from './decodePool.ts';
import { removeOpeningImage } from './openingImage.ts';
import { readerPreferences } from './settingsStore.ts';

/**
 * The first frame of a cold load of a reader's address, painted before the app runs.
 *
 * On a cold load the first page's decode used to share the CPU with the evaluation of the whole app
 * and React's first renders, and its pixels then waited for the reader's view to mount: on two cores
 * the page came up some 250 ms after its bitmap could have. Here the boot module holds the app's start
 * (src/ui/boot.ts runs the main bundle once `appMayStart` settles) while the opening spread is
 * fetched and decoded, paints that spread on a canvas of its own laid over the page exactly where the
 * reader's view will paint it (the engine's own layout, the reader's settings, the same bitmap at the
 * same size), and then lets the app start. The reader's view takes over the same decode and, once it has painted, the first frame
 * goes (`dismissOpeningPaint`). The app never waits longer than APP_HOLD_LIMIT_MS after navigation:
 * a slow network shows the reader's own loading state instead of nothing.
 */

/** The latest the app starts on a cold load of a reader's address, in ms since navigation start. */
const APP_HOLD_LIMIT_MS = 700;

/** After the app has started, the first frame stays at most this long if no reader view paints over it. */
const FRAME_KEPT_MS = 3000;

/** What a cold load's first frame draws: the opening spread, where the reader's view will draw it. */
export interface OpeningPaint {
  screen: OpeningScreen;
  viewport: Viewport;
  /** The URL each page of the spread is decoded from (the reader's own URL for it). */
  urls: ReadonlyMap<number, string>;
}

let hold: { released: Promise<void>; release: () => void } | null = null;
let frame: HTMLCanvasElement | null = null;

/** The boot module, on a cold load of a reader's address: the app waits for the first frame (bounded). */
export function holdAppForOpeningPaint(): void {
  if (hold) return;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  hold = { released, release };
  setTimeout(releaseApp, Math.max(0, APP_HOLD_LIMIT_MS - performance.now()));
}

function releaseApp(): void {
  hold?.release();
}

/** The first frame is up by other means (the document's image, openingImage.ts), or will not come: the app may start. */
export function letAppStart(): void {
  releaseApp();
}

/** Settles when the app may start: at once, unless a cold load's first frame is on its way. */
export function appMayStart(): Promise<void> {
  return hold?.released ?? Promise.resolve();
}

let appStarted = false;

/** The app is starting: a first frame still up goes once a reader view painted, or after a while. */
export function appStarting(): void {
  appStarted = true;
  releaseApp();
  setTimeout(dismissOpeningPaint, FRAME_KEPT_MS);
}

/**
 * Paints the opening spread on the first frame once its decodes (started ahead, see
 * decodeOpeningSpread) are done, then lets the app start. Null (nothing to paint: a webtoon, a text
 * book, pages of unknown size) or any failure just lets the app start; the reader shows the failure.
 */
export async function paintOpeningSpread(opening: OpeningPaint | null): Promise<void> {
  try {
    if (!opening || appStarted || !hold) return;
    const { screen, viewport, urls } = opening;
    const pages = screen.layout.slots.map((slot) => slot.page);
    // Every page of the spread must be decoding ahead at its final size; anything else is the reader's job.
    const pending = pages.map((page) => (page === null ? null : sharedDecodePool().peekAhead(urls.get(page) ?? '')));
    if (pending.some((result, index) => pages[index] !== null && result === undefined)) return;
    const decoded = await Promise.all(pending);
    if (appStarted) return; // the reader's view is on its way with the same bitmaps
    const view: PaintView<ImageBitmap> = {
      layout: screen.layout,
      bitmaps: decoded.map((result) => result?.bitmap),
      previews: decoded.map(() => false),
      spreadIndex: 0,
      currentPage: screen.currentPage,
    };
    const canvas = asFirstFrameOverlay(document.createElement('canvas'), 'reader-opening-frame', viewport);
    new CanvasPainter(canvas).paint(view, viewport, BACKGROUND_COLOURS[readerPreferences.background]);
    // The document's body is there by now (the page's bytes took a round trip); the root element at worst.
    (document.body ?? document.documentElement).append(canvas);
    frame = canvas;
    performance.mark('folio:first-frame'); // for the tests: when the first frame went up
  } catch (error) {
    // A failed decode is the reader's to show (it decodes again and reports the page's error).
    console.warn('The first frame of the book could not be painted ahead of the reader', error);
  } finally {
    releaseApp();
  }
}

/** The reader's own view has painted (or the reader is gone): the first frame is no longer needed. */
export function dismissOpeningPaint(): void {
  const imageGone = removeOpeningImage();
  if (frame) {
    frame.remove();
    frame = null;
  } else if (!imageGone) return;
  performance.mark('folio:first-frame-gone'); // for the benchmark's waterfall: the reader took over
}
