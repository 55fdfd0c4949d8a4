/*
 * The reader's place across a change of the frames' size: a window resized, a phone turned, full
 * screen entered. Readium's navigator keeps the paginated frame's scroll offset in pixels and snaps
 * it to a page, so after the text reflows the reader is elsewhere (a phone turned to landscape went
 * from page 5 of a chapter back to page 2). The keeper notes the place shown before the size began
 * to change, holds the places reported while the text reflows (they are the wrong ones), and once
 * the size has settled shows the noted place again. Settings that reflow the text (a bigger font
 * also narrows the frames to keep lines readable) are the reader's own move: it shows the place
 * read before them and tells the keeper (placed), whose place from the old layout would be wrong.
 */

import { Locator, LocatorLocations } from '@readium/shared';

/** The size is taken as settled when it has not changed for this long (a rotation or a drag resizes in bursts). */
const SETTLE_MS = 250;

export interface PlaceKeeper<Place> {
  /** True while the frames change size: reported places are the reflow's, not the reader's. */
  holding(): boolean;
  /** The reader is now at `place` (ignored while holding). */
  shown(place: Place): void;
  /**
   * The reader is about to reflow the text itself (new settings, whose line length may also resize
   * the frames) and show its place again: until placed, a resize restores nothing.
   */
  pause(): void;
  /**
   * The reader was put at `place` on purpose after a reflow it caused itself (null: left where it
   * was): a restore pending from before is dropped, and resizes are watched again.
   */
  placed(place: Place | null): void;
  dispose(): void;
}

/**
 * Watches `host` (the box the frames fill); `restore` is asked to show the noted place again once
 * the size has settled.
 */
export function keepPlace<Place>(host: HTMLElement, restore: (place: Place) => Promise<void> | void): PlaceKeeper<Place> {
  let place: Place | null = null;
  let noted: Place | null = null;
  let size: { width: number; height: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let paused = false;

  // Marked on the host while the frames change size (tests wait for the end of a reflow by it).
  const hold = (holding: boolean) => {
    if (holding) host.dataset.resizing = 'true';
    else delete host.dataset.resizing;
  };

  const settle = () => {
    timer = undefined;
    const back = noted;
    noted = null;
    // Held until the place is shown again, unless the size changes anew meanwhile.
    void Promise.resolve(back !== null && !paused ? restore(back) : undefined).finally(() => {
      if (timer === undefined) hold(false);
    });
  };

  const observer = new ResizeObserver((entries) => {
    const box = entries.at(-1)?.contentRect;
    if (!box) return;
    const changed = size !== null && (size.width !== box.width || size.height !== box.height);
    size = { width: box.width, height: box.height };
    if (!changed) return;
    if (timer === undefined) noted = place;
    clearTimeout(timer);
    timer = setTimeout(settle, SETTLE_MS);
    hold(true);
  });
  observer.observe(host);

  return {
    holding: () => timer !== undefined,
    shown: (next) => {
      if (timer === undefined) place = next;
    },
    pause: () => {
      paused = true;
    },
    placed: (next) => {
      paused = false;
      clearTimeout(timer);
      timer = undefined;
      hold(false);
      noted = null;
      if (next !== null) place = next;
    },
    dispose: () => {
      observer.disconnect();
      clearTimeout(timer);
      hold(false);
    },
  };
}

/**
 * What to show again after the reflow, for a frame showing `shown`: by progression only (the text
 * and element the navigator also names repeat in many books, and an element that began on the page
 * before would move the reader back a page each time). A paginated frame is kept by the middle of
 * its screen: the page that then holds it shows what was read, and turning back and forth (a phone
 * rotated twice) comes back to the same page instead of drifting a page back each time. A scrolled
 * frame is kept by its top line.
 */
export function placeToKeep(shown: Locator, frameWindow: Window | null | undefined, scrolled: boolean): Locator {
  const start = shown.locations.progression ?? 0;
  const width = frameWindow?.document.scrollingElement?.scrollWidth ?? 0;
  const screen = !scrolled && frameWindow && width > 0 ? frameWindow.innerWidth / width : 0;
  const progression = Math.min(1, Math.max(0, start + screen / 2));
  return new Locator({ href: shown.href, type: shown.type, locations: new LocatorLocations({ progression }) });
}
