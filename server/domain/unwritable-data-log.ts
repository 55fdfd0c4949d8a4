import type { FolioContext } from './context.ts';

/** While the data folder cannot be written, one line per message a minute, counting the failures between. */
const LOG_EVERY_MS = 60_000;
const lastLines = new Map<string, { at: number; unlogged: number }>();

/**
 * Logs that something drawn was served without being stored (a full disk, a read-only data folder):
 * that fails for every poster of a library page and every page a reader turns, so one line a
 * minute per `message`, with the context of the first failure and how many failed since the last
 * line, rather than one line per image.
 */
export function warnNotStored(ctx: FolioContext, message: string, error: unknown, context: Record<string, unknown>): void {
  const now = performance.now();
  const last = lastLines.get(message);
  if (last && now - last.at < LOG_EVERY_MS) {
    last.unlogged++;
    return;
  }
  ctx.logger.warn({ err: error, ...context, ...(last?.unlogged ? { notStoredSinceLastLine: last.unlogged } : {}) }, message);
  lastLines.set(message, { at: now, unlogged: 0 });
}
