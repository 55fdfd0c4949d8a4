import type { Db } from './database.ts';

/** Scope of the global (server-wide) client settings; user settings use the user's id as scope. */
export const GLOBAL_SCOPE = 'global';

export interface ClientSetting {
  value: string;
  allowUnauthorized: boolean;
}

/**
 * Settings the web clients keep on the server (REFERENCE §2.8): opaque string values under keys
 * the clients choose, either global or per user.
 */
export class ClientSettingRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Settings of a scope by key, in key order; `onlyAllowUnauthorized` keeps the anonymous-readable ones. */
  findAll(scope: string, onlyAllowUnauthorized = false): Map<string, ClientSetting> {
    const rows = this.db
      .prepare(
        `SELECT key, value, allow_unauthorized FROM client_setting
         WHERE scope = ?${onlyAllowUnauthorized ? ' AND allow_unauthorized = 1' : ''} ORDER BY key`,
      )
      .all(scope) as { key: string; value: string; allow_unauthorized: number }[];
    return new Map(rows.map((r) => [r.key, { value: r.value, allowUnauthorized: r.allow_unauthorized === 1 }]));
  }

  /** Writes several settings at once (all or none). */
  save(scope: string, settings: [key: string, setting: ClientSetting][]): void {
    const upsert = this.db.prepare(
      `INSERT INTO client_setting (scope, key, value, allow_unauthorized) VALUES (?, ?, ?, ?)
       ON CONFLICT(scope, key) DO UPDATE SET value = excluded.value, allow_unauthorized = excluded.allow_unauthorized`,
    );
    this.db.transaction(() => {
      for (const [key, setting] of settings) upsert.run(scope, key, setting.value, setting.allowUnauthorized ? 1 : 0);
    })();
  }

  /** Bytes of keys and values stored in every scope together (for the store limits). */
  totalBytes(): number {
    return this.db.prepare('SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))), 0) FROM client_setting').pluck().get() as number;
  }

  delete(scope: string, keys: string[]): void {
    const remove = this.db.prepare('DELETE FROM client_setting WHERE scope = ? AND key = ?');
    this.db.transaction(() => {
      for (const key of keys) remove.run(scope, key);
    })();
  }
}
