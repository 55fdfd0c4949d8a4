import type Database from 'better-sqlite3';

// Not database.ts's Db: database.ts imports this file (a cycle otherwise).
type Db = Database.Database;

/**
 * Tables whose rows the serving caches (serving-lookups.ts) hold or read (series_metadata: the age
 * rating and sharing labels content restrictions look at), and the parents whose deletion cascades
 * into them (library, series → book → media, media_page, thumbnail_book; series → series_metadata).
 * `\b` does not split `book_id` or `book_metadata`, so writes to other tables leave the caches alone.
 */
const SERVED_TABLES = /\b(book|media|media_page|thumbnail_book|library|series|series_metadata)\b/i;

/**
 * A number that changes after every write that may change a row the serving caches hold. A cached
 * value is used only while the number is the one it was read under, so no write made through this
 * connection (a statement, `exec`, a transaction rolled back) is ever hidden by a cache. The primary
 * process is the database's only writer (data-dir-lock.ts); a serving process's read-only
 * connection moves it when it notices the primary's commits (foreign-writes.ts).
 */
export interface WriteGeneration {
  readonly value: number;
}

const generations = new WeakMap<Db, { value: number }>();

/** The write generation of a database opened by `openDatabase`; undefined for any other (cache nothing then). */
export function writeGeneration(db: Db): WriteGeneration | undefined {
  return generations.get(db);
}

/** Moves the generation for writes this connection did not make (foreign-writes.ts). */
export function moveWriteGeneration(db: Db): void {
  const generation = generations.get(db);
  if (generation) generation.value++;
}

/**
 * Counts the writes to the served tables from now on, by wrapping the connection's `prepare`,
 * `exec` and `transaction`: a statement SQLite does not call read-only and that names one of them
 * moves the generation after each run; `exec` (any SQL) always does; a transaction in which the
 * generation moved moves it again as it ends, so values read inside it (uncommitted, perhaps
 * rolled back) are not kept.
 */
export function trackWrites(db: Db): void {
  if (generations.has(db)) return;
  const generation = { value: 0 };
  generations.set(db, generation);
  const prepare = db.prepare.bind(db);
  const exec = db.exec.bind(db);
  const transaction = db.transaction.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (statement.readonly || !SERVED_TABLES.test(sql)) return statement;
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        try {
          return original(...args);
        } finally {
          generation.value++;
        }
      };
    }
    const iterate = statement.iterate.bind(statement) as (...args: unknown[]) => IterableIterator<unknown>;
    (statement as unknown as Record<string, unknown>).iterate = function* (...args: unknown[]) {
      try {
        yield* iterate(...args);
      } finally {
        generation.value++;
      }
    };
    return statement;
  }) as typeof db.prepare;
  db.exec = ((sql: string) => {
    try {
      return exec(sql);
    } finally {
      generation.value++;
    }
  }) as typeof db.exec;
  db.transaction = ((work: (...args: unknown[]) => unknown) =>
    transaction(function (this: unknown, ...args: unknown[]) {
      const before = generation.value;
      try {
        return work.apply(this, args);
      } finally {
        if (generation.value !== before) generation.value++;
      }
    })) as typeof db.transaction;
}
