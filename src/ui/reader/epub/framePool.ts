import type { EpubNavigator } from '@readium/navigator';
import type { Locator } from '@readium/shared';
import { documentsToKeep } from '../../../engine/epubFrameWindow.ts';

/**
 * What this reads of the navigator's pool of frames for flowing text (FramePoolManager of
 * @readium/navigator 2.2.5, pinned): private fields, checked before use. A shape that differs (a
 * fixed-layout book's pool, another version of the library) is left alone.
 */
interface FramePool {
  pool: Map<string, { destroy(): Promise<void> }>;
  inprogress: Map<string, Promise<void>>;
  pendingUpdates: Map<string, { inPool: boolean }>;
  _currentFrame?: unknown;
}

let warned = false;

function framePoolOf(navigator: EpubNavigator): FramePool | null {
  const candidate = (navigator as unknown as { framePool?: Partial<FramePool> & { delayedShow?: unknown } }).framePool;
  if (!candidate) return null;
  const fits =
    candidate.pool instanceof Map && candidate.inprogress instanceof Map && candidate.pendingUpdates instanceof Map && candidate.delayedShow === undefined;
  if (!fits) {
    if (!warned && candidate.delayedShow === undefined) console.warn('The EPUB frame pool is not the one expected; its frames are not bounded');
    warned = true;
    return null;
  }
  return candidate as FramePool;
}

/**
 * Drops the frames of documents farther than the library's loading window from where the reader is,
 * as the library drops its own (the blob stays, so a way back reloads it cheaply). Waits for the
 * library's updates in flight (a page turn's own one often still is), never drops the frame on
 * screen. Resolves to how many frames went.
 */
export async function boundFramePool(navigator: EpubNavigator, positions: readonly Locator[]): Promise<number> {
  const framePool = framePoolOf(navigator);
  if (!framePool) return 0;
  // Another update may start while one is awaited: a few rounds, then the next move tries again.
  for (let round = 0; round < 4 && framePool.inprogress.size > 0; round++) await Promise.allSettled([...framePool.inprogress.values()]);
  if (framePool.inprogress.size > 0) return 0;
  const current = navigator.currentLocator;
  const index = positions.findIndex((p) => p.locations.position === current.locations.position);
  if (index < 0) return 0;
  const keep = documentsToKeep(positions.map((p) => p.href), index);
  let dropped = 0;
  for (const [href, frame] of [...framePool.pool]) {
    if (keep.has(href) || frame === framePool._currentFrame) continue;
    framePool.pool.delete(href);
    if (framePool.pendingUpdates.has(href)) framePool.pendingUpdates.set(href, { inPool: false });
    dropped += 1;
    frame.destroy().catch((error: unknown) => console.warn('A frame of the EPUB reader could not be closed', href, error));
  }
  return dropped;
}
