import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { applyMigrations } from './migrate.ts';
import { trackWrites } from './write-generation.ts';
import { followForeignWrites } from './foreign-writes.ts';
import { BUSY_TIMEOUT_MS } from './database-unavailable.ts';
import { refoldMissingTitles } from './folded-titles.ts';
import { refreshSearchText } from './search-text.ts';
import { foldText } from './search/fold-text.ts';
import { labelKey } from './search/label-key.ts';
import { MAX_SUBJECT, unsafeTitleRegex } from './search/title-regex.ts';

export type Db = Database.Database;

/** Opens (creating if needed) the Folio database in the data dir and brings its schema up to date. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'folio.sqlite'));
  // Before anything writes: the serving caches must see every write (write-generation.ts).
  trackWrites(db);
  // WAL lets page/API reads proceed while the scanner writes.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Only another process (a sqlite3 shell, a backup tool) can hold the write lock: this server has one
  // connection. better-sqlite3 waits for it synchronously, holding every request meanwhile, so the
  // wait is short; past it the write fails as "unavailable" (a 503, database-unavailable.ts).
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  registerFunctions(db);
  applyMigrations(db);
  // Titles another tool wrote (or a migration unfolded) are folded before the first search.
  refoldMissingTitles(db);
  // Search text of rows written since (all of them after migration 010), before the first search.
  refreshSearchText(db);
  // The schema upgrade and the rebuilds above can leave a WAL file of several MB that SQLite would
  // otherwise keep at that size for as long as the server runs: fold it into the database now.
  db.pragma('wal_checkpoint(TRUNCATE)');
  return db;
}

/**
 * The database of a serving process (README "Serving processes"): read-only, opened after the
 * primary brought its schema up to date and while the primary holds the data directory. Its
 * caches follow the primary's commits (foreign-writes.ts); a write attempted through it fails
 * with SQLITE_READONLY rather than racing the one writer.
 */
export function openReadOnlyDatabase(dataDir: string): Db {
  const db = new Database(join(dataDir, 'folio.sqlite'), { readonly: true, fileMustExist: true });
  trackWrites(db);
  followForeignWrites(db);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  registerFunctions(db);
  return db;
}

/**
 * SQL functions SQLite lacks: regexp(pattern, value), case-insensitive; bad patterns match nothing,
 * and so do patterns whose backtracking is not bounded (title-regex.ts: the search refuses them
 * with a reason first; this keeps any other caller from freezing the server). Values are matched on
 * their first MAX_SUBJECT characters. fold_text(value) is the form the search compares text
 * in, accents and case ignored as Komga does (search/fold-text.ts); NULL stays NULL.
 */
function registerFunctions(db: Db): void {
  const cache = new Map<string, RegExp | null>();
  db.function('regexp', { deterministic: true }, (pattern: unknown, value: unknown) => {
    const key = String(pattern);
    if (!cache.has(key)) {
      let compiled: RegExp | null = null;
      try {
        compiled = unsafeTitleRegex(key) === null ? new RegExp(key, 'i') : null;
      } catch (error) {
        // An invalid pattern matches nothing.
        if (!(error instanceof SyntaxError)) throw error;
        compiled = null;
      }
      if (cache.size > 100) cache.clear();
      cache.set(key, compiled);
    }
    const regex = cache.get(key);
    return regex && value !== null && regex.test(String(value).slice(0, MAX_SUBJECT)) ? 1 : 0;
  });
  db.function('fold_text', { deterministic: true }, (value: unknown) => (value === null ? null : foldText(String(value))));
  // Sharing labels compare in one form on both sides (search/label-key.ts): SQLite's own
  // lower() folds A–Z only, so it cannot stand in for JavaScript's on the users' labels.
  db.function('label_key', { deterministic: true }, (value: unknown) => (value === null ? null : labelKey(String(value))));
}
