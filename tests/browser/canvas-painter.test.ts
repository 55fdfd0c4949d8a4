import { afterEach, describe, expect, it } from 'vitest';
import { layoutView } from '../../src/engine/layout.ts';
import type { PaintView } from '../../src/engine/ReaderSession.ts';
import type { Viewport } from '../../src/engine/types.ts';
import { CanvasPainter } from '../../src/ui/reader/CanvasPainter.ts';

const viewport: Viewport = { width: 100, height: 100, devicePixelRatio: 1 };
const page = (number: number) => ({ number, width: 100, height: 100, mediaType: 'image/jpeg' });

async function solid(colour: string): Promise<ImageBitmap> {
  const canvas = new OffscreenCanvas(100, 100);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.fillStyle = colour;
  context.fillRect(0, 0, 100, 100);
  return createImageBitmap(canvas);
}

function view(number: number, bitmap: ImageBitmap | undefined, preview = false): PaintView<ImageBitmap> {
  return {
    layout: layoutView([page(number)], viewport, 'screen'),
    bitmaps: [bitmap],
    previews: [preview],
    spreadIndex: number - 1,
    currentPage: number,
  };
}

function centre(canvas: HTMLCanvasElement): number[] {
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  return [...context.getImageData(50, 50, 1, 1).data.slice(0, 3)];
}

let canvas: HTMLCanvasElement;
afterEach(() => canvas?.remove());

describe('CanvasPainter never shows an empty canvas while reading', () => {
  it('keeps the last page up when the page turned to has nothing to draw yet', async () => {
    canvas = document.createElement('canvas');
    document.body.append(canvas);
    const painter = new CanvasPainter(canvas);
    expect(painter.paint(view(1, await solid('rgb(255, 0, 0)')), viewport, 'rgb(0, 0, 0)', undefined, true)).toBe(true);
    expect(centre(canvas)).toEqual([255, 0, 0]);
    expect(canvas.dataset.paintedPage).toBe('1');

    // Page 2: no bitmap, no preview. The red page stays, and the marks still say page 1.
    expect(painter.paint(view(2, undefined), viewport, 'rgb(0, 0, 0)', undefined, true)).toBe(false);
    expect(centre(canvas)).toEqual([255, 0, 0]);
    expect(canvas.dataset.shownPage).toBe('1');

    // Its preview arrives: drawn at once, marked shown but not painted (not final quality).
    expect(painter.paint(view(2, await solid('rgb(0, 0, 255)'), true), viewport, 'rgb(0, 0, 0)', undefined, true)).toBe(true);
    expect(centre(canvas)).toEqual([0, 0, 255]);
    expect(canvas.dataset.shownPage).toBe('2');
    expect(canvas.dataset.paintedPage).toBeUndefined();
  });

  it('clears when told not to keep the frame (a page that failed) or when the size changed', async () => {
    canvas = document.createElement('canvas');
    document.body.append(canvas);
    const painter = new CanvasPainter(canvas);
    painter.paint(view(1, await solid('rgb(255, 0, 0)')), viewport, 'rgb(0, 0, 0)', undefined, true);
    expect(painter.paint(view(2, undefined), viewport, 'rgb(0, 0, 0)', undefined, false)).toBe(true);
    expect(centre(canvas)).toEqual([0, 0, 0]);
    expect(canvas.dataset.shownPage).toBeUndefined();

    painter.paint(view(1, await solid('rgb(255, 0, 0)')), viewport, 'rgb(0, 0, 0)', undefined, true);
    const bigger = { ...viewport, width: 120 };
    expect(painter.paint(view(2, undefined), bigger, 'rgb(0, 0, 0)', undefined, true)).toBe(true);
    expect(canvas.width).toBe(120);
  });
});

describe('CanvasPainter keeps a page in its own shape', () => {
  it('draws a bitmap of another shape than its slot centred in it, not stretched over it', async () => {
    // The slot is square (the page listed 100 × 100); the decoded page is twice as tall as wide
    // (a sideways photo listed at its stored size): it takes the middle half, background beside it.
    canvas = document.createElement('canvas');
    document.body.append(canvas);
    const painter = new CanvasPainter(canvas);
    const tall = new OffscreenCanvas(50, 100);
    const context = tall.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.fillStyle = 'rgb(0, 0, 255)';
    context.fillRect(0, 0, 50, 100);
    painter.paint(view(1, await createImageBitmap(tall)), viewport, 'rgb(0, 0, 0)');
    const at = (x: number) => [...canvas.getContext('2d')!.getImageData(x, 50, 1, 1).data.slice(0, 3)];
    expect([at(10), at(50), at(90)]).toEqual([[0, 0, 0], [0, 0, 255], [0, 0, 0]]);
  });
});
