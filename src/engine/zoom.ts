/**
 * Zoom and pan of the paged reader, as plain numbers (no DOM): the page area is drawn scaled by
 * `scale` from its top-left corner and shifted by (`x`, `y`) CSS pixels, and always covers the
 * viewport (no empty band can be panned into view).
 */
export interface Zoom {
  scale: number;
  x: number;
  y: number;
}

export const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };
export const MAX_ZOOM = 4;
/** One key press or wheel notch of zoom. */
export const ZOOM_STEP = 1.25;
/** Where a double tap zooms to. */
export const DOUBLE_TAP_ZOOM = 2.5;
/** Largest canvas backing store the zoomed redraw may ask for (device pixels): about 64 MB. */
const MAX_BACKING_PIXELS = 16_000_000;

interface Size {
  width: number;
  height: number;
}

function clampPan(zoom: Zoom, size: Size): Zoom {
  const minX = size.width * (1 - zoom.scale);
  const minY = size.height * (1 - zoom.scale);
  return { scale: zoom.scale, x: Math.min(0, Math.max(minX, zoom.x)), y: Math.min(0, Math.max(minY, zoom.y)) };
}

/** Zooms to `scale` (clamped to 1…MAX_ZOOM) keeping the point (px, py) of the viewport where it is. */
export function zoomAt(zoom: Zoom, scale: number, px: number, py: number, size: Size): Zoom {
  const next = Math.min(MAX_ZOOM, Math.max(1, scale));
  if (next === 1) return NO_ZOOM;
  const ratio = next / zoom.scale;
  return clampPan({ scale: next, x: px - (px - zoom.x) * ratio, y: py - (py - zoom.y) * ratio }, size);
}

/** Moves a zoomed page by (dx, dy) CSS pixels, never past its edges. */
export function panBy(zoom: Zoom, dx: number, dy: number, size: Size): Zoom {
  if (zoom.scale === 1) return zoom;
  return clampPan({ scale: zoom.scale, x: zoom.x + dx, y: zoom.y + dy }, size);
}

/**
 * The device-pixel ratio to redraw at once a zoom settles, so each canvas pixel lands on one screen
 * pixel again: the screen's ratio times the zoom, lowered when the backing store would pass the cap.
 */
export function zoomedPixelRatio(devicePixelRatio: number, scale: number, size: Size): number {
  const wanted = devicePixelRatio * scale;
  const area = size.width * size.height;
  const limit = area > 0 ? Math.sqrt(MAX_BACKING_PIXELS / area) : wanted;
  return Math.max(devicePixelRatio, Math.min(wanted, limit));
}
