import type { Page } from '@playwright/test';

const EVENTS = /\/sse\/v1\/events(\?|$)/;

/** The page's event stream, down for a while: its reconnection waits until `release`. */
export interface HeldReconnection {
  /** Settles once the page asked to reconnect (the request is being held). */
  held: Promise<void>;
  /** Lets the held reconnection through to the server. */
  release(): void;
}

/**
 * Routes the page's live event stream so the first one opens and ends at once (as when the server
 * restarts) and the reconnection is held until released: what the server sends in between is what
 * the page misses. Call before the page opens the stream.
 */
export async function holdEventStreamReconnection(page: Page): Promise<HeldReconnection> {
  let streams = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reconnecting!: () => void;
  const held = new Promise<void>((resolve) => (reconnecting = resolve));
  await page.route(EVENTS, async (route) => {
    streams += 1;
    if (streams === 1) return route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 200\n\n:\n\n' });
    reconnecting();
    await released;
    await route.continue();
  });
  return { held, release };
}
