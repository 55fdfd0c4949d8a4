import Database from 'better-sqlite3';
import type { Db } from './database.ts';

/** What a health check found: the database answers, or why it does not. */
export type DatabaseProbe = { up: true } | { up: false; error: string };

/**
 * Whether the database can be used now, checked cheaply. The server's own connection keeps
 * answering from its page cache and its open descriptor even once folio.sqlite is deleted,
 * replaced or overwritten (everything written from then on would be lost at the next start), so
 * the check also opens the file afresh, read-only, and reads its schema version: a missing file, a
 * file that is no longer a database, or one another process holds locked fails it. Neither
 * connection waits for a lock (a probe must never hold up the server: better-sqlite3 is
 * synchronous); the fresh one is closed at once. Costs a fraction of a millisecond.
 */
export function probeDatabase(db: Db): DatabaseProbe {
  try {
    if (!db.open) return { up: false, error: 'the database connection is closed' };
    // The server's connection: closed, or a schema it cannot read.
    db.prepare('SELECT 1 FROM schema_version LIMIT 1').get();
    const fresh = new Database(db.name, { readonly: true, fileMustExist: true, timeout: 0 });
    try {
      fresh.prepare('SELECT MAX(version) FROM schema_version').get();
    } finally {
      fresh.close();
    }
    return { up: true };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    return { up: false, error: typeof code === 'string' ? `${code}: ${message}` : message };
  }
}
