import { describe, expect, it } from 'vitest';
import { keyAction } from '../../../src/engine/readerInput.ts';
import { MAX_ZOOM, NO_ZOOM, panBy, zoomAt, zoomedPixelRatio } from '../../../src/engine/zoom.ts';

const size = { width: 1000, height: 800 };

describe('paged zoom', () => {
  it('keeps the point under the pointer in place and clamps to 1…MAX_ZOOM', () => {
    const zoomed = zoomAt(NO_ZOOM, 2, 500, 400, size);
    expect(zoomed).toEqual({ scale: 2, x: -500, y: -400 });
    expect(zoomAt(zoomed, 10, 0, 0, size).scale).toBe(MAX_ZOOM);
    expect(zoomAt(zoomed, 0.5, 0, 0, size)).toEqual(NO_ZOOM);
  });

  it('never pans past the page edges, and does not pan an unzoomed page', () => {
    const zoomed = zoomAt(NO_ZOOM, 2, 0, 0, size);
    expect(panBy(zoomed, 300, 300, size)).toEqual({ scale: 2, x: 0, y: 0 });
    expect(panBy(zoomed, -5000, -5000, size)).toEqual({ scale: 2, x: -1000, y: -800 });
    expect(panBy(NO_ZOOM, 50, 50, size)).toBe(NO_ZOOM);
  });

  it('redraws at the zoomed pixel ratio, within the backing-store cap', () => {
    expect(zoomedPixelRatio(1, 2, size)).toBe(2);
    expect(zoomedPixelRatio(2, 4, size)).toBeCloseTo(Math.sqrt(16_000_000 / 800_000));
    expect(zoomedPixelRatio(2, 1, size)).toBe(2);
  });

  it('maps + (with or without Shift), = , - and 0 to zoom in the paged modes only', () => {
    expect(keyAction({ key: '+', shiftKey: true }, 'LEFT_TO_RIGHT')).toBe('zoom-in');
    expect(keyAction({ key: '=' }, 'RIGHT_TO_LEFT')).toBe('zoom-in');
    expect(keyAction({ key: '-' }, 'VERTICAL')).toBe('zoom-out');
    expect(keyAction({ key: '0' }, 'LEFT_TO_RIGHT')).toBe('zoom-reset');
    expect(keyAction({ key: '+' }, 'WEBTOON')).toBeNull();
    expect(keyAction({ key: '+', ctrlKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
    expect(keyAction({ key: 'ArrowRight', shiftKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
  });
});
