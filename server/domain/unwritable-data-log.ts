import type { FolioContext } from './context.ts';

/** While the data folder cannot be written, one line per message a minute, counting the failures between. */
const LOG_EVERY_MS = 60_000;
const lastLines = new Map<string, { at: number; unlogged: number }>();

/**
 * Logs that something drawn was served without being stored (a full disk, a read-only data folder):
 * that fails for every poster of a library page and every page a reader turns, so one line a
 * minute per `message`, with the context of the first failure and how many failed since the last
 * line, rather than one line per image. `place` tells apart folders that fail on their own (each
 * cache under the data folder): each gets its line.
 */
export function warnNotStored(ctx: FolioContext, message: string, error: unknown, context: Record<string, unknown>, place = ''): void {
  const now = performance.now();
  const key = `${message}\0${place}`;
  const last = lastLines.get(key);
  if (last && now - last.at < LOG_EVERY_MS) {
    last.unlogged++;
    return;
  }
  ctx.logger.warn({ err: error, ...context, ...(last?.unlogged ? { notStoredSinceLastLine: last.unlogged } : {}) }, message);
  lastLines.set(key, { at: now, unlogged: 0 });
}
