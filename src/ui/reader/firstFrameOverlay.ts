import type { Viewport } from '../../engine/types.ts';

/**
 * Lays `element` over the whole window as a cold load's first frame (the boot module's canvas or
 * the document's image on its backdrop): above everything, hidden from assistive technology and
 * from the pointer, so the reader's view mounting beneath it is what users reach.
 */
export function asFirstFrameOverlay<E extends HTMLElement>(element: E, testId: string, viewport: Pick<Viewport, 'width' | 'height'>): E {
  element.dataset.testid = testId;
  element.setAttribute('aria-hidden', 'true');
  Object.assign(element.style, {
    position: 'fixed',
    left: '0',
    top: '0',
    width: `${viewport.width}px`,
    height: `${viewport.height}px`,
    zIndex: '2147483647',
    pointerEvents: 'none',
  });
  return element;
}
