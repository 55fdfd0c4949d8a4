import type { PaintView } from '../../engine/ReaderSession.ts';
import type { Rect, Viewport } from '../../engine/types.ts';

export interface Offset {
  x: number;
  y: number;
}

const ORIGIN: Offset = { x: 0, y: 0 };

/** Every real page of the view has a bitmap to draw. */
export function viewIsComplete(view: PaintView<ImageBitmap>): boolean {
  return view.layout.slots.every(
    (slot, index) => slot.page === null || (view.bitmaps[index] !== undefined && !view.previews[index]),
  );
}

/**
 * Where a bitmap goes in its slot: the whole slot when they have the same shape (nearly always: the
 * slot comes from the page's listed size), else the largest rectangle of the bitmap's own shape,
 * centred in it. The slot's shape comes from the listed size, which may be wrong (a sideways photo
 * analysed before EXIF orientation counted, a page whose size was never measured): drawn into it
 * anyway, the page would be squashed until the view learned its real size.
 */
export function keepShape(bitmap: { width: number; height: number }, rect: Rect): Rect {
  if (bitmap.width <= 0 || bitmap.height <= 0 || rect.width <= 0 || rect.height <= 0) return rect;
  const heightAtWidth = (rect.width * bitmap.height) / bitmap.width;
  // Within a pixel or 1 %: rounding of the decode size, not another shape.
  if (Math.abs(heightAtWidth - rect.height) <= Math.max(1, rect.height * 0.01)) return rect;
  const factor = Math.min(rect.width / bitmap.width, rect.height / bitmap.height);
  const width = bitmap.width * factor;
  const height = bitmap.height * factor;
  return { x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width, height };
}

/**
 * Paints views onto the one reader canvas. The canvas backing store matches the viewport in device
 * pixels; a page turn is a clear plus one drawImage per page of an already-decoded bitmap.
 * `data-painted-page` tells tests (and the debug overlay) which page's pixels are really on screen.
 */
export class CanvasPainter {
  #canvas: HTMLCanvasElement;
  #context: CanvasRenderingContext2D;

  constructor(canvas: HTMLCanvasElement) {
    this.#canvas = canvas;
    const context = canvas.getContext('2d', { alpha: false });
    if (!context) throw new Error('Canvas 2D is not available');
    this.#context = context;
  }

  /**
   * The normal paint: the view at rest, scrolled by `scroll` (CSS px). A view with nothing to draw yet
   * (no bitmap, not even a preview, for any of its pages) leaves the last frame up instead of showing
   * an empty canvas, when `keepLastFrame` allows it and the canvas size is unchanged; the data marks
   * then keep naming the page whose pixels are still there. Returns whether it painted.
   */
  paint(view: PaintView<ImageBitmap>, viewport: Viewport, background: string, scroll: Offset = ORIGIN, keepLastFrame = false): boolean {
    const nothingToDraw = !view.bitmaps.some(Boolean);
    if (nothingToDraw && keepLastFrame && this.#canvas.dataset.shownPage !== undefined && this.#sameSize(viewport)) return false;
    this.#clear(viewport, background);
    const drawn = this.#drawView(view, viewport, scroll);
    const previewOnly = view.previews.some(Boolean);
    const dataset = this.#canvas.dataset;
    if (drawn && !previewOnly) dataset.paintedPage = String(view.currentPage);
    else delete dataset.paintedPage;
    // Something of the page is on screen, if only its enlarged preview (for the benchmark's
    // "first pixels" figure and for tests).
    if (drawn) dataset.shownPage = String(view.currentPage);
    else delete dataset.shownPage;
    return true;
  }

  #sameSize(viewport: Viewport): boolean {
    const dpr = viewport.devicePixelRatio;
    return (
      this.#canvas.width === Math.max(1, Math.round(viewport.width * dpr)) &&
      this.#canvas.height === Math.max(1, Math.round(viewport.height * dpr))
    );
  }

  /** One frame of a page-turn animation: both views, each shifted (CSS px). Does not mark anything painted. */
  paintTransition(
    from: PaintView<ImageBitmap>,
    fromShift: Offset,
    to: PaintView<ImageBitmap>,
    toShift: Offset,
    viewport: Viewport,
    background: string,
  ): void {
    // Mid-slide no page is in place: the mark comes back with the final paint.
    delete this.#canvas.dataset.paintedPage;
    delete this.#canvas.dataset.shownPage;
    this.#clear(viewport, background);
    this.#drawView(from, viewport, { x: -fromShift.x, y: -fromShift.y });
    this.#drawView(to, viewport, { x: -toShift.x, y: -toShift.y });
  }

  #clear(viewport: Viewport, background: string): void {
    const dpr = viewport.devicePixelRatio;
    const width = Math.max(1, Math.round(viewport.width * dpr));
    const height = Math.max(1, Math.round(viewport.height * dpr));
    const canvas = this.#canvas;
    // Resizing the backing store clears it and costs an allocation: only when the size really changed.
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const context = this.#context;
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.fillStyle = background;
    context.fillRect(0, 0, width, height);
  }

  #drawView(view: PaintView<ImageBitmap>, viewport: Viewport, scroll: Offset): boolean {
    const dpr = viewport.devicePixelRatio;
    let complete = true;
    view.layout.slots.forEach((slot, index) => {
      if (slot.page === null) return;
      const bitmap = view.bitmaps[index];
      if (!bitmap) {
        complete = false;
        return;
      }
      try {
        const { x, y, width, height } = keepShape(bitmap, slot.rect);
        this.#context.drawImage(
          bitmap,
          Math.round((x - scroll.x) * dpr),
          Math.round((y - scroll.y) * dpr),
          Math.round(width * dpr),
          Math.round(height * dpr),
        );
      } catch (error) {
        // The bitmap was closed (evicted) since the view was taken: leave that slot empty.
        if (!(error instanceof DOMException && error.name === 'InvalidStateError')) throw error;
        complete = false;
      }
    });
    return complete;
  }
}
