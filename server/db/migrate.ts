import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

/**
 * The database was written by a newer Folio (its schema version is above every migration this
 * one knows): this code would read and write tables it does not understand, so it must not open it.
 */
export class SchemaTooNewError extends Error {
  readonly found: number;
  readonly known: number;
  constructor(found: number, known: number) {
    super(`the database has schema version ${found}, newer than this Folio knows (${known}): it was written by a newer Folio; run that version, or restore a backup made before the upgrade`);
    this.found = found;
    this.known = known;
  }
}

/**
 * Applies every `NNN_name.sql` in server/db/migrations whose number is above the recorded
 * schema version, each in its own transaction, in numeric order. A database whose version is
 * above the newest migration is refused with SchemaTooNewError before anything is written.
 */
export function applyMigrations(db: Database.Database, dir = MIGRATIONS_DIR): number {
  const files = readdirSync(dir)
    .map((name) => ({ name, version: Number.parseInt(name, 10) }))
    .filter((f) => f.name.endsWith('.sql') && Number.isFinite(f.version))
    .sort((a, b) => a.version - b.version);
  const newest = files.at(-1)?.version ?? 0;
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied INTEGER NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | null };
  let current = row.v ?? 0;
  if (current > newest) throw new SchemaTooNewError(current, newest);
  for (const file of files) {
    if (file.version <= current) continue;
    const sql = readFileSync(join(dir, file.name), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_version (version, applied) VALUES (?, ?)').run(file.version, Date.now());
    })();
    current = file.version;
  }
  return current;
}
