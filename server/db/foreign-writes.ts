import type Database from 'better-sqlite3';
import { moveWriteGeneration } from './write-generation.ts';

// Not database.ts's Db: database.ts imports this file (a cycle otherwise).
type Db = Database.Database;

/**
 * Writes made by another connection (the primary process, when this one is a serving process:
 * README "Serving processes"). A serving process never writes, so its write generation
 * (write-generation.ts) would never move and its caches would keep rows the primary has since
 * changed. SQLite's `PRAGMA data_version` changes on this connection whenever another connection
 * commits; `noticeForeignWrites` compares it (one statement, a few µs) and, when it changed, moves
 * the write generation and tells every cache that remembers rows by itself (sessions, users, API
 * keys) to forget them. Called once per request before anything is looked up, so a logout, a
 * password change, a deleted key or book committed before the request arrived is seen by it.
 */
interface Follower {
  read: () => number;
  last: number;
  forgetters: (() => void)[];
}

const followers = new WeakMap<Db, Follower>();

/** Starts following another connection's commits on `db` (a read-only connection of a serving process). */
export function followForeignWrites(db: Db): void {
  if (followers.has(db)) return;
  const statement = db.prepare('PRAGMA data_version').pluck();
  const read = () => statement.get() as number;
  followers.set(db, { read, last: read(), forgetters: [] });
}

/** Whether `db` follows another connection's commits (a serving process's connection). */
export function followsForeignWrites(db: Db): boolean {
  return followers.has(db);
}

/** `forget` is called whenever another connection committed since the last check (nothing happens on a writer's connection). */
export function onForeignWrites(db: Db, forget: () => void): void {
  followers.get(db)?.forgetters.push(forget);
}

/** Compares the data version; after another connection's commit, caches forget what they hold. */
export function noticeForeignWrites(db: Db): void {
  const follower = followers.get(db);
  if (!follower) return;
  const now = follower.read();
  if (now === follower.last) return;
  follower.last = now;
  moveWriteGeneration(db);
  for (const forget of follower.forgetters) forget();
}
