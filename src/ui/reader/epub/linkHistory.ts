/*
 * Following a link of the book (a note reference, "see chapter 3") is a step a reader expects to
 * take back with the browser's Back (Alt+Left, a phone's back gesture). The navigator moves inside
 * the same page, so Back left the reader altogether, to the page before it. Each link followed now
 * adds a history entry at the same address, and going back to an entry shows the place the link
 * was followed from.
 */

/** The entry's depth in the reader's link history, kept in the entry's state beside the router's. */
const DEPTH_KEY = 'folioEpubLinkDepth';

function depthOf(state: unknown): number {
  if (typeof state !== 'object' || state === null) return 0;
  const depth = (state as Record<string, unknown>)[DEPTH_KEY];
  return typeof depth === 'number' ? depth : 0;
}

export interface LinkHistory<T> {
  /** A link was followed from `place`: Back returns there. */
  followed(place: T): void;
  dispose(): void;
}

/** `show` takes the reader to a place it left by a link, when Back reaches that place's entry. */
export function linkHistory<T>(show: (place: T) => void): LinkHistory<T> {
  // The reader may open on an entry of an earlier visit (Forward into it): count from there.
  const base = depthOf(window.history.state);
  const places: T[] = [];
  const onPop = (event: PopStateEvent) => {
    const depth = depthOf(event.state) - base;
    let place: T | undefined;
    while (places.length > Math.max(0, depth)) place = places.pop();
    if (place !== undefined) show(place);
  };
  window.addEventListener('popstate', onPop);
  return {
    followed(place) {
      places.push(place);
      const state: unknown = window.history.state;
      const kept = typeof state === 'object' && state !== null ? state : {};
      window.history.pushState({ ...kept, [DEPTH_KEY]: base + places.length }, '');
    },
    dispose() {
      window.removeEventListener('popstate', onPop);
    },
  };
}
