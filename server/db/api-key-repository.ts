import type { Db } from './database.ts';
import { LruMap } from '../lru-map.ts';
import { onForeignWrites } from './foreign-writes.ts';
import { cachedStatement } from './statement-cache.ts';

export interface ApiKey {
  id: string;
  userId: string;
  /** sha256 of the key; the key itself is shown once at creation and never stored. */
  keyHash: string;
  comment: string;
  created: number;
  lastModified: number;
}

const SELECT = `SELECT id, user_id AS userId, key_hash AS keyHash, comment, created, last_modified AS lastModified FROM api_key`;

/** How long a looked-up key is remembered in memory; every change made here forgets it at once. */
const REMEMBER_MS = 10_000;
/** Keys remembered at most (a flood of distinct keys must not grow memory; unknown keys are never kept). */
const REMEMBER_MAX = 10_000;

/**
 * API keys of users (REFERENCE §1.6); the table comes from migration 001. A key authenticates
 * every request of the client holding it (a reader streaming pages, a poster per book card), so a
 * key found by its hash is remembered for a few seconds instead of being read again each time.
 * Only this repository changes the table, and each of its writes forgets what it remembers, so a
 * deleted key fails on the very next request. (A user's keys also go when the user is deleted, by
 * a cascade in the database; the user lookup that follows every key lookup then finds nobody, so
 * a remembered key of a deleted user lets nobody in.)
 */
export class ApiKeyRepository {
  private readonly db: Db;
  private readonly remembered = new LruMap<string, { key: ApiKey; until: number }>(REMEMBER_MAX);
  constructor(db: Db) {
    this.db = db;
    // In a serving process the primary writes the table: its commits make everything remembered go.
    onForeignWrites(db, () => this.remembered.clear());
  }

  insert(key: ApiKey): void {
    cachedStatement(this.db, 'INSERT INTO api_key (id, user_id, key_hash, comment, created, last_modified) VALUES (?, ?, ?, ?, ?, ?)')
      .run(key.id, key.userId, key.keyHash, key.comment, key.created, key.lastModified);
    this.remembered.delete(key.keyHash);
  }

  findByHash(keyHash: string, now = Date.now()): ApiKey | undefined {
    const hit = this.remembered.get(keyHash);
    if (hit && hit.until > now) return { ...hit.key };
    const key = cachedStatement(this.db, `${SELECT} WHERE key_hash = ?`).get(keyHash) as ApiKey | undefined;
    if (!key) {
      this.remembered.delete(keyHash);
      return undefined;
    }
    if (!this.db.inTransaction) {
      this.remembered.set(keyHash, { key: { ...key }, until: now + REMEMBER_MS });
    }
    return key;
  }

  /** Asked by every open event stream of an API key on every event it is offered: a cached statement. */
  exists(id: string): boolean {
    return cachedStatement(this.db, 'SELECT 1 FROM api_key WHERE id = ?').get(id) !== undefined;
  }

  findByUser(userId: string): ApiKey[] {
    return cachedStatement(this.db, `${SELECT} WHERE user_id = ? ORDER BY created, id`).all(userId) as ApiKey[];
  }

  /** Comments are unique per user, compared without regard to case. */
  commentExists(userId: string, comment: string): boolean {
    return cachedStatement(this.db, 'SELECT 1 FROM api_key WHERE user_id = ? AND lower(comment) = lower(?)').get(userId, comment) !== undefined;
  }

  /** Deletes one of the user's keys; false when the user has no such key. */
  delete(userId: string, id: string): boolean {
    const gone = cachedStatement(this.db, 'DELETE FROM api_key WHERE id = ? AND user_id = ? RETURNING key_hash AS keyHash').all(id, userId) as { keyHash: string }[];
    for (const { keyHash } of gone) this.remembered.delete(keyHash);
    return gone.length > 0;
  }
}
