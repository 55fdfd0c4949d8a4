import { useGesture } from '@use-gesture/react';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { ReadingDirection } from '../../api/types.ts';
import { dragTurn, swipeAction, type ReaderAction } from '../../engine/readerInput.ts';
import type { Viewport } from '../../engine/types.ts';
import { DOUBLE_TAP_ZOOM, NO_ZOOM, ZOOM_STEP, panBy, zoomAt, zoomedPixelRatio, type Zoom } from '../../engine/zoom.ts';
import { measureViewport } from './viewport.ts';

/** How long a zoom must rest before the page is redrawn sharp at its new size. */
const SETTLE_MS = 200;

interface PageZoomOptions {
  scrollerRef: RefObject<HTMLDivElement | null>;
  swipe: boolean;
  direction: ReadingDirection;
  onAction: (action: ReaderAction) => void;
  /** Hands the settled viewport (device-pixel ratio raised by the zoom) to the reader session. */
  onViewport: (viewport: Viewport) => void;
}

/**
 * Zoom and pan of the paged view, in the gesture layer: pinch, ctrl+wheel (a trackpad pinch arrives
 * as one), double tap / double click and the `+` `-` `0` keys change a CSS transform of the canvas at
 * once; when the zoom rests, the session gets a viewport whose device-pixel ratio is multiplied by
 * the zoom, so the worker pool decodes the page at the zoomed size and the canvas is redrawn sharp.
 * Zoomed, a drag pans; unzoomed, a drag is a swipe (when swipes are on). `reset` runs on page turns.
 */
export function usePageZoom({ scrollerRef, swipe, direction, onAction, onViewport }: PageZoomOptions) {
  const [zoom, setZoomState] = useState<Zoom>(NO_ZOOM);
  const zoomRef = useRef(zoom);
  const settled = useRef(1);

  const setZoom = useCallback((next: Zoom) => {
    zoomRef.current = next;
    setZoomState(next);
  }, []);

  /** The scroller's viewport at the settled zoom's pixel ratio. */
  const measure = useCallback((element: HTMLElement): Viewport => {
    const viewport = measureViewport(element);
    return { ...viewport, devicePixelRatio: zoomedPixelRatio(viewport.devicePixelRatio, settled.current, viewport) };
  }, []);

  useEffect(() => {
    const element = scrollerRef.current;
    if (!element || zoom.scale === settled.current) return;
    const apply = () => {
      settled.current = zoom.scale;
      onViewport(measure(element));
    };
    // Back to 1: the plain page at once. Otherwise wait until pinching or wheeling stops.
    if (zoom.scale === 1) {
      apply();
      return;
    }
    const timer = setTimeout(apply, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [zoom.scale, scrollerRef, measure, onViewport]);

  const size = () => {
    const element = scrollerRef.current;
    return { width: element?.clientWidth ?? 1, height: element?.clientHeight ?? 1 };
  };

  const zoomAround = useCallback((scale: number, px?: number, py?: number) => {
    const { width, height } = size();
    setZoom(zoomAt(zoomRef.current, scale, px ?? width / 2, py ?? height / 2, { width, height }));
  }, [setZoom]);

  const reset = useCallback(() => {
    if (zoomRef.current.scale !== 1) setZoom(NO_ZOOM);
  }, [setZoom]);

  const perform = useCallback(
    (action: 'zoom-in' | 'zoom-out' | 'zoom-reset') => {
      if (action === 'zoom-reset') reset();
      else zoomAround(zoomRef.current.scale * (action === 'zoom-in' ? ZOOM_STEP : 1 / ZOOM_STEP));
    },
    [reset, zoomAround],
  );

  // Wheel: with Ctrl (or a trackpad pinch) it zooms around the pointer instead of zooming the whole
  // page; without, it pans a zoomed page. Native and not passive, to keep the browser out of it.
  useEffect(() => {
    const element = scrollerRef.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      const box = element.getBoundingClientRect();
      if (event.ctrlKey) {
        event.preventDefault();
        zoomAround(zoomRef.current.scale * Math.exp(-event.deltaY / 200), event.clientX - box.left, event.clientY - box.top);
      } else if (zoomRef.current.scale > 1) {
        event.preventDefault();
        setZoom(panBy(zoomRef.current, -event.deltaX, -event.deltaY, size()));
      }
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [scrollerRef, zoomAround, setZoom]);

  // A drag with the mouse ends in a click on the same element: that click must not turn again.
  const lastDragEnd = useRef(0);
  const bind = useGesture(
    {
      onDrag: ({ delta: [dx, dy], movement: [mx, my], swipe: [sx, sy], tap, last, pinching, cancel }) => {
        if (tap) return;
        if (pinching) return cancel();
        if (last) lastDragEnd.current = performance.now();
        if (zoomRef.current.scale > 1) {
          setZoom(panBy(zoomRef.current, dx, dy, size()));
          return;
        }
        if (!swipe || !last) return;
        // A flick is a swipe; a slower drag most of the way across turns as well.
        const [tx, ty] = sx !== 0 || sy !== 0 ? [sx, sy] : dragTurn(mx, my, size(), direction);
        const action = swipeAction(tx, ty, direction);
        if (action) onAction(action);
      },
      onPinch: ({ da: [distance], origin: [ox, oy], first, memo }) => {
        const start = first || !memo ? { scale: zoomRef.current.scale, distance: Math.max(1, distance) } : (memo as { scale: number; distance: number });
        const box = scrollerRef.current?.getBoundingClientRect();
        zoomAround(start.scale * (distance / start.distance), ox - (box?.left ?? 0), oy - (box?.top ?? 0));
        return start;
      },
    },
    // Ctrl+wheel is handled above (zoom around the pointer), so the pinch gesture is touch only.
    { drag: { filterTaps: true, pointer: { touch: true } }, pinch: { pointer: { touch: true }, pinchOnWheel: false } },
  );

  const onDoubleClick = useCallback(
    (event: { clientX: number; clientY: number }) => {
      const box = scrollerRef.current?.getBoundingClientRect();
      if (zoomRef.current.scale > 1) reset();
      else zoomAround(DOUBLE_TAP_ZOOM, event.clientX - (box?.left ?? 0), event.clientY - (box?.top ?? 0));
    },
    [scrollerRef, reset, zoomAround],
  );

  /**
   * Touch: the browser keeps only what the reader does not handle. Zoomed, nothing (drags pan).
   * Swipes on: scrolling across the turn axis only, so a horizontal swipe is never the browser's
   * back gesture. Otherwise native scrolling both ways, never the browser's own pinch zoom.
   */
  const touchAction = zoom.scale > 1 ? 'none' : swipe ? (direction === 'VERTICAL' ? 'pan-x' : 'pan-y') : 'pan-x pan-y';

  return { zoom, measure, reset, perform, bind, onDoubleClick, touchAction, lastDragEnd };
}
