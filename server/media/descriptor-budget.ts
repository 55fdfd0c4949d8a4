import { readFileSync } from 'node:fs';

/** Assumed when the limit cannot be read (non-Linux): the common service default. */
const FALLBACK_LIMIT = 1024;
/** Share of the descriptor limit that open archives may take; sockets, the database and files need the rest. */
const ARCHIVE_SHARE = 1 / 8;
const MIN_HANDLES = 8;
const MAX_HANDLES = 4096;

/** The soft "Max open files" limit of this process (Linux /proc), or a conservative default. */
export function descriptorLimit(limitsText?: string): number {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return FALLBACK_LIMIT;
    }
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  if (soft === undefined) return FALLBACK_LIMIT;
  if (soft === 'unlimited') return Number.MAX_SAFE_INTEGER;
  const limit = Number(soft);
  return Number.isFinite(limit) && limit > 0 ? limit : FALLBACK_LIMIT;
}

/**
 * How many archives may be open at once: an eighth of the descriptor limit, within [8, 4096]. Each
 * holds one descriptor and its entry listing; a library read in turn by many clients (500 books
 * at 20,000 descriptors) then stays open instead of every request reopening an archive.
 */
export function archiveHandleBudget(limit = descriptorLimit()): number {
  return Math.min(MAX_HANDLES, Math.max(MIN_HANDLES, Math.floor(limit * ARCHIVE_SHARE)));
}

/**
 * How many files requests may hold open at once besides archives (downloads, posters and drawn
 * pages streamed from disk, cached thumbnails read or written): the same share as archives. Past
 * it they wait for one another (file-slots.ts) instead of each connection reserving one.
 */
export function fileReadBudget(limit = descriptorLimit()): number {
  return archiveHandleBudget(limit);
}

/** Descriptors kept for the database, the log, child processes and background tasks' own files. */
const RESERVE = 64;

/**
 * Connections the HTTP server accepts at once: what is left of the limit after the archives, the
 * request-held files and the reserve. Each connection costs its socket only: whatever file it
 * reads comes from one of the two budgets above, and waits when they are spent. Past it new
 * connections are refused instead of the process running out of descriptors for everything else.
 */
export function connectionBudget(limit = descriptorLimit()): number {
  return Math.max(16, Math.min(limit - archiveHandleBudget(limit) - fileReadBudget(limit) - RESERVE, 100_000));
}
