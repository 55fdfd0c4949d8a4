import type { Db } from './database.ts';
import { LruMap } from '../lru-map.ts';
import { onForeignWrites } from './foreign-writes.ts';
import { cachedStatement } from './statement-cache.ts';
import { noteDatabaseFailure } from './lock-refusal.ts';

export interface SessionRow {
  idHash: string;
  userId: string;
  created: number;
  lastAccess: number;
  /** How the session was opened: 'Password', 'RememberMe' or 'OAuth2:<registration id>'. */
  source: string;
}

/** How long a looked-up session is remembered in memory; every change made here forgets it at once. */
const REMEMBER_MS = 10_000;
/** Sessions remembered at most (a flood of distinct ids must not grow memory); past it the least recently used goes. */
const REMEMBER_MAX = 10_000;

/**
 * Login sessions, keyed by a hash of the session id so a leaked database holds no usable ids.
 * Every authenticated request looks its session up, so found sessions are remembered for a few
 * seconds. Only this repository changes the table, and each of its writes updates or forgets what
 * it remembers, so a logout or a revocation takes effect on the very next request. (A user's
 * sessions also go when the user is deleted, by a cascade in the database; the user lookup that
 * follows every session lookup then finds nobody, so nothing stale is ever let in.)
 */
export class SessionRepository {
  private readonly db: Db;
  private readonly remembered = new LruMap<string, { row: SessionRow; until: number }>(REMEMBER_MAX);
  constructor(db: Db) {
    this.db = db;
    // In a serving process the primary writes the table: its commits make everything remembered go.
    onForeignWrites(db, () => this.remembered.clear());
  }

  /**
   * Opens a session; when the user then has more than `maxPerUser`, their least recently used ones
   * end (the new one is the most recent), so no user can grow the table without bound. With
   * `ifAbsent` a session already open under that id is kept as it is (derived ids, basic-session.ts).
   */
  insert(idHash: string, userId: string, now: number, source: string, maxPerUser: number, ifAbsent = false): void {
    this.db.transaction(() => {
      const verb = ifAbsent ? 'INSERT OR IGNORE' : 'INSERT';
      const added = cachedStatement(this.db, `${verb} INTO session (id_hash, user_id, created, last_access, source) VALUES (?, ?, ?, ?, ?)`)
        .run(idHash, userId, now, now, source);
      if (added.changes === 0) return;
      const ended = cachedStatement(
        this.db,
        `DELETE FROM session WHERE user_id = ? AND id_hash NOT IN (
           SELECT id_hash FROM session WHERE user_id = ? ORDER BY id_hash = ? DESC, last_access DESC, created DESC LIMIT ?
         ) RETURNING id_hash AS idHash`,
      ).all(userId, userId, idHash, maxPerUser) as { idHash: string }[];
      for (const { idHash: gone } of ended) this.remembered.delete(gone);
    })();
    this.remembered.delete(idHash);
  }

  find(idHash: string, now = Date.now()): SessionRow | undefined {
    const hit = this.remembered.get(idHash);
    if (hit && hit.until > now) return { ...hit.row };
    const row = cachedStatement(this.db, 'SELECT id_hash AS idHash, user_id AS userId, created, last_access AS lastAccess, source FROM session WHERE id_hash = ?')
      .get(idHash) as SessionRow | undefined;
    if (!row) {
      this.remembered.delete(idHash);
      return undefined;
    }
    this.remembered.set(idHash, { row, until: now + REMEMBER_MS });
    return { ...row };
  }

  touch(idHash: string, now: number): void {
    try {
      cachedStatement(this.db, 'UPDATE session SET last_access = ? WHERE id_hash = ?').run(now, idHash);
    } catch (error) {
      // Every signed-in request refreshes the clock again until it is stored: each must not wait for a lock.
      noteDatabaseFailure(this.db, error);
      throw error;
    }
    const hit = this.remembered.get(idHash);
    if (hit) hit.row.lastAccess = now;
  }

  delete(idHash: string): void {
    cachedStatement(this.db, 'DELETE FROM session WHERE id_hash = ?').run(idHash);
    this.remembered.delete(idHash);
  }

  deleteForUser(userId: string): void {
    cachedStatement(this.db, 'DELETE FROM session WHERE user_id = ?').run(userId);
    for (const [idHash, { row }] of this.remembered) {
      if (row.userId === userId) this.remembered.delete(idHash);
    }
  }

  /** Ends every session of the user but one (the caller's own, when it has one). */
  deleteForUserExcept(userId: string, keepIdHash: string | null): void {
    cachedStatement(this.db, 'DELETE FROM session WHERE user_id = ? AND id_hash IS NOT ?').run(userId, keepIdHash);
    // Forgotten too, or a session used in the last seconds would outlive its user's password change.
    for (const [idHash, { row }] of this.remembered) {
      if (row.userId === userId && idHash !== keepIdHash) this.remembered.delete(idHash);
    }
  }

  deleteInactiveSince(cutoff: number): number {
    const removed = cachedStatement(this.db, 'DELETE FROM session WHERE last_access < ?').run(cutoff).changes;
    for (const [idHash, { row }] of this.remembered) {
      if (row.lastAccess < cutoff) this.remembered.delete(idHash);
    }
    return removed;
  }
}
