import type { Db } from './database.ts';
import { BUSY_TIMEOUT_MS, databaseUnavailable } from './database-unavailable.ts';

/**
 * How long, after a write found the database locked by another process, writes are refused at once
 * instead of each waiting BUSY_TIMEOUT_MS for the lock (the 503's Retry-After says as much).
 */
export const LOCKED_REFUSAL_MS = 2_000;

const refusing = new WeakMap<Db, NodeJS.Timeout>();

/**
 * Told of a failure: when it is another process's lock, the next LOCKED_REFUSAL_MS of writes fail at
 * once (busy_timeout 0) rather than wait for it. better-sqlite3 waits on the server's only thread, so
 * with every write (a reader's progress save and its retries, a session's clock refresh, a task's
 * store) waiting its second in turn, the whole server, reads included, stood still for as long as
 * the lock was held. Now one write in a window waits; the others get their 503 or put-off at once.
 * Returns the failure's classification, as databaseUnavailable does.
 */
export function noteDatabaseFailure(db: Db, error: unknown): ReturnType<typeof databaseUnavailable> {
  const unavailable = databaseUnavailable(error);
  if (unavailable?.reason !== 'locked' || refusing.has(db) || !db.open) return unavailable;
  db.pragma('busy_timeout = 0');
  const timer = setTimeout(() => {
    refusing.delete(db);
    // Closed meanwhile (shutdown): nothing to restore, and a throw from a timer would end the process.
    if (db.open) db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }, LOCKED_REFUSAL_MS);
  timer.unref();
  refusing.set(db, timer);
  return unavailable;
}
