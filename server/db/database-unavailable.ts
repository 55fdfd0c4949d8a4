/**
 * SQLite failures that say "the database cannot take this write now", not "this request is wrong":
 * another process holds the write lock past the busy wait (an administrator's sqlite3 shell left
 * inside a transaction, a backup or replication tool), or the disk is full. Nothing of the failed
 * statement's transaction was stored, so the caller may try again later unchanged.
 */
export interface DatabaseUnavailable {
  reason: 'locked' | 'full';
  /** Seconds worth waiting before trying again. */
  retryAfterSeconds: number;
}

/** How long a statement waits for another process's write lock, blocking the server's only thread meanwhile. */
export const BUSY_TIMEOUT_MS = 1_000;

/** What kind of unavailability `error` is (looking through its causes), or undefined for any other failure. */
export function databaseUnavailable(error: unknown): DatabaseUnavailable | undefined {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('SQLITE_')) continue;
    // Extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_SHAREDCACHE…) share their primary code's meaning.
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return { reason: 'locked', retryAfterSeconds: 2 };
    if (code === 'SQLITE_FULL') return { reason: 'full', retryAfterSeconds: 60 };
  }
  return undefined;
}
