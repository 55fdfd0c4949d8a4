import type { Db } from './database.ts';
import { cachedStatement } from './statement-cache.ts';

/** Server settings as stored: text values by key in server_setting (absent = default). */
export class ServerSettingRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  get(key: string): string | undefined {
    return (cachedStatement(this.db, 'SELECT value FROM server_setting WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  /** Stores a value unless the key already has one (of two writers racing, the first one wins). */
  setIfAbsent(key: string, value: string): void {
    cachedStatement(this.db, 'INSERT OR IGNORE INTO server_setting (key, value) VALUES (?, ?)').run(key, value);
  }

  /** Stores several values (null removes a key) in one transaction. */
  setAll(values: [key: string, value: string | null][]): void {
    this.db.transaction(() => {
      for (const [key, value] of values) this.set(key, value);
    })();
  }

  /** Stores a value, or removes the key when `value` is null (back to the default). */
  set(key: string, value: string | null): void {
    if (value === null) cachedStatement(this.db, 'DELETE FROM server_setting WHERE key = ?').run(key);
    else cachedStatement(this.db, 'INSERT INTO server_setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}
