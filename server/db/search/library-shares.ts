import type { Db } from '../database.ts';
import type { User } from '../user-repository.ts';
import { writeGeneration } from '../write-generation.ts';

/**
 * Whether the libraries a user may see hold a small part of the catalogue's books (or series), so
 * that a list of theirs is cheapest started from those libraries' rows (content-restriction.ts).
 *
 * Only the query plan depends on this, never a result: so the sizes may be a little old. They are
 * read again after a write to the catalogue (write-generation.ts), but at most every few seconds
 * while a scan writes, when each read would cost a list 1-3 ms more at 55,000 books (two index-only
 * GROUP BYs).
 */

/** Past this share of the rows, the caller's own conditions and order are the better start. */
const SMALL_SHARE = 1 / 4;
const REFRESH_MS = 5_000;

interface Sizes { generation: number | undefined; at: number; books: Map<string, number>; series: Map<string, number>; allBooks: number; allSeries: number }
const remembered = new WeakMap<Db, Sizes>();

function sizes(db: Db): Sizes {
  const generation = writeGeneration(db)?.value;
  const now = Date.now();
  const known = remembered.get(db);
  if (known && generation !== undefined && (known.generation === generation || now - known.at < REFRESH_MS)) return known;
  const perLibrary = (table: 'book' | 'series') =>
    new Map((db.prepare(`SELECT library_id AS id, COUNT(*) AS n FROM ${table} GROUP BY library_id`).all() as { id: string; n: number }[]).map((r) => [r.id, r.n]));
  const books = perLibrary('book');
  const series = perLibrary('series');
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
  const fresh = { generation, at: now, books, series, allBooks: total(books), allSeries: total(series) };
  remembered.set(db, fresh);
  return fresh;
}

/** True when `user` is shared only some libraries and those hold at most SMALL_SHARE of the `kind` rows. */
export function isSmallShare(db: Db, user: User, kind: 'books' | 'series'): boolean {
  if (user.sharedAllLibraries) return false;
  const known = sizes(db);
  const counts = kind === 'books' ? known.books : known.series;
  const all = kind === 'books' ? known.allBooks : known.allSeries;
  const shared = user.sharedLibraryIds.reduce((sum, id) => sum + (counts.get(id) ?? 0), 0);
  return shared <= all * SMALL_SHARE;
}
