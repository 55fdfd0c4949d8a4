import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Another Folio already serves this data directory. */
export class DataDirInUseError extends Error {}

/**
 * Takes the data directory for this process, until the returned function is called. Two servers
 * on one data directory would both run its stored tasks and scheduled scans, and each would
 * drop caches the other relies on. The lock is SQLite's exclusive lock on `folio.lock`: the
 * kernel releases it when the process ends, however it ends, so a crash leaves nothing stale.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'folio.lock');
  const lock = new Database(path, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new DataDirInUseError(`another Folio is already running on the data directory ${dataDir} (it holds ${path}); stop it first, or give this one its own --data-dir`, { cause: error });
    }
    throw error;
  }
  return () => lock.close();
}
