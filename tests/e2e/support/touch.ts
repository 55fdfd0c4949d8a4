import type { Page } from '@playwright/test';

export interface Point {
  x: number;
  y: number;
}

/** How far apart the finger's moves are, in the events' own time (one frame at 60 Hz). */
const MOVE_INTERVAL_MS = 16;
/** The finger lifts right after its last move, as it does at the end of a flick. */
const LIFT_AFTER_MS = 4;

/**
 * A one-finger swipe from `from` to `to` as a touch screen sends it: touchstart, `steps` moves,
 * touchend, through the DevTools protocol. Each event carries its own time stamp (the protocol's
 * `timestamp`, which becomes the DOM event's `timeStamp`), so the page sees a quick flick of
 * `steps × 16 ms` however long the protocol round trips take on a loaded machine. Gesture code
 * measures speed and duration from those time stamps: without them, a machine busy enough to space
 * the round trips 60 ms apart turns the same flick into a slow drag that is no swipe at all.
 */
export async function swipe(page: Page, from: Point, to: Point, steps = 5): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now();
  const at = (ms: number) => (start + ms) / 1000;
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from], timestamp: at(0) });
    for (let step = 1; step <= steps; step++) {
      const point = { x: from.x + ((to.x - from.x) * step) / steps, y: from.y + ((to.y - from.y) * step) / steps };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point], timestamp: at(step * MOVE_INTERVAL_MS) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: at(steps * MOVE_INTERVAL_MS + LIFT_AFTER_MS) });
  } finally {
    await cdp.detach();
  }
}
