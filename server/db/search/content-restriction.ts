import { type SqlFragment, sql } from './sql-fragment.ts';
import type { User } from '../user-repository.ts';
import { labelKey } from './label-key.ts';

/**
 * Per-user content restrictions (SPEC §6): shared libraries, age restriction on the series' age
 * rating, allowed and excluded sharing labels. Built as one SQL fragment that only needs a library
 * id column and a series id column, so it fits any series or book query whatever it joins.
 *
 * Semantics follow Komga: "allow-only" rules (ALLOW_ONLY age, allowed labels) are alternatives —
 * a series passes if it meets any of them; exclusions (EXCLUDE age, excluded labels) must all pass.
 * ALLOW_ONLY n keeps series rated n or less (unrated ones are hidden); EXCLUDE n hides series rated
 * n or more (unrated ones stay visible). Labels compare by labelKey on both sides (the series' through
 * the label_key SQL function, database.ts): without regard to case in every alphabet, and with accents
 * composed. SQLite's lower() folds A–Z only, and let a series labelled "Érotique" past an exclusion of it.
 * Unlike Komga, an age rule also hides a series none of whose books is analysed yet (notYetRated):
 * its rating is not known until its files are read; and, in a series it shows, a book awaiting
 * analysis (awaitingAnalysis): its ComicInfo may rate the series out of reach.
 */
export interface RestrictionColumns {
  /** Expression holding the row's library id, e.g. `s.library_id` or `b.library_id`. */
  library: string;
  /** Expression holding the row's series id, e.g. `s.id` or `b.series_id`. */
  series: string;
  /** Expression holding the row's book id when the rows are books (`b.id`): books are then tested too. */
  book?: string;
  /** The book row's rowid (`b.rowid`), which every index of book holds: a list tests books by it. */
  bookRow?: string;
}

export const SERIES_COLUMNS: RestrictionColumns = { library: 's.library_id', series: 's.id' };
export const BOOK_COLUMNS: RestrictionColumns = { library: 'b.library_id', series: 'b.series_id', book: 'b.id', bookRow: 'b.rowid' };

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/**
 * How many rows the statement tests: a list tests many, and each rule's set of series is built once
 * for all of them; an item (is this one book or series visible?) tests one, and building whole sets
 * for it cost 3 ms a call at 5,500 series against 0.05 ms, so there each set is narrowed to the
 * row's own series (a primary-key lookup). The rules and their sets are the same SQL either way.
 */
export type RestrictionScope = 'list' | 'item';

/**
 * `smallShare`: the user's libraries hold a small part of the rows listed (library-shares.ts). Their
 * test may then be where SQLite starts: a reader shared one library of 200 books among 55,000 paid
 * what the admin pays, e.g. "latest books" walked the whole date index, looking each book's library
 * up, to find that library's 20 newest, and each count scanned every book. Otherwise the test stays
 * a filter (below), since starting from a big library reads all of it.
 */
export interface RestrictionOptions {
  smallShare?: boolean;
}

/** The restriction for this user as a SQL condition, or undefined when the user may see everything. */
export function contentRestriction(user: User, columns: RestrictionColumns, scope: RestrictionScope = 'list', options: RestrictionOptions = {}): SqlFragment | undefined {
  const parts: SqlFragment[] = [];
  if (!user.sharedAllLibraries) {
    const library = scope === 'list' && options.smallShare ? columns.library : `+${columns.library}`;
    parts.push(
      user.sharedLibraryIds.length === 0
        ? sql('1 = 0')
        : sql(`${library} IN (${placeholders(user.sharedLibraryIds)})`, ...user.sharedLibraryIds),
    );
  }
  // Set-based: each rule is a set of series ids, built once per statement from an index (migration
  // 014), which each row then looks its series up in. The former EXISTS per row re-read the series'
  // metadata and re-parsed its labels for every book: 50,000 books cost 50-300 ms where the
  // unrestricted query read a hundred rows. The unary + keeps these tests filters: without it SQLite
  // may drive the query from them (every book of the library) instead of from the caller's own
  // conditions and order, which is the plan the unrestricted caller gets.
  const only = (alias: string) => (scope === 'item' ? `${alias}.series_id = ${columns.series} AND ` : '');
  const rated = (test: string) => `SELECT rsm.series_id FROM series_metadata rsm WHERE ${only('rsm')}rsm.age_rating ${test} ?`;
  // `sharing_labels <> '[]'` names the partial index of labelled series: the few that have labels
  // are the only ones parsed. label_key is called once per label of those, not once per book.
  const labelled = (labels: string[]) =>
    sql(
      `SELECT rsm.series_id FROM series_metadata rsm, json_each(rsm.sharing_labels) rl
       WHERE ${only('rsm')}rsm.sharing_labels <> '[]' AND label_key(rl.value) IN (${placeholders(labels)})`,
      ...labels.map(labelKey),
    );

  const allowed: SqlFragment[] = [];
  const age = user.ageRestriction;
  if (user.ageRestrictionType === 'ALLOW_ONLY' && age !== null) allowed.push(sql(rated('<='), age));
  if (user.labelsAllow.length > 0) allowed.push(labelled(user.labelsAllow));
  const excluded: SqlFragment[] = [];
  if (user.ageRestrictionType === 'EXCLUDE' && age !== null) excluded.push(sql(rated('>='), age));
  if (user.labelsExclude.length > 0) excluded.push(labelled(user.labelsExclude));
  if (user.ageRestrictionType !== null && age !== null) excluded.push(sql(notYetRated(scope, columns.series)));
  const series = seriesTest(`+${columns.series}`, allowed, excluded);
  // The book test joins the series test as one term (see seriesTest): as a term of its own it made
  // the planner count restricted books from the library's index instead of the reader's progress.
  if (series && columns.book && user.ageRestrictionType !== null && age !== null) {
    // The series first: a book of a series kept back is not looked for among those awaiting analysis.
    parts.push({ sql: `CASE WHEN ${series.sql} THEN NOT (${awaitingAnalysis(scope, columns)}) ELSE 0 END`, params: series.params });
  } else if (series) parts.push(series);

  if (parts.length === 0) return undefined;
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/**
 * Only the book part of the restriction (awaitingAnalysis), for statements over the books of a
 * series the caller already showed (its book counts, Tachiyomi's list): undefined without an age
 * rule. The mixed series' index is asked once per statement; each book's media row is looked up
 * only when some series is mixed (the full item restriction per book cost a series list of 2,250
 * series about 100 ms more, bench/big-library.ts 'series unpaged').
 */
export function bookAwaitingRestriction(user: User, book: string): SqlFragment | undefined {
  if (user.ageRestrictionType === null || user.ageRestriction === null) return undefined;
  return sql(
    `NOT (${SOME_SERIES_MIXED} AND EXISTS (SELECT 1 FROM media wm WHERE wm.book_id = ${book} AND wm.status IN ('UNKNOWN', 'OUTDATED')))`,
  );
}

/**
 * An age rule also keeps back a series its files have not rated yet. A series is scanned in with
 * its books unanalysed (media UNKNOWN); series.json is read after the scan, each book's ComicInfo
 * or EPUB package with its analysis. Until then the series is unrated, so it passed an EXCLUDE
 * rule (and one that series.json rated low passed ALLOW_ONLY before its books' ComicInfo rated it
 * 18): a reader kept from 18+ was listed a new 18+ series, its books and posters for as long as
 * its scan's analyses took (hours for a large one). So a series with live books awaiting analysis
 * and none analysed is hidden from them. Both are counted per series (series_media_counts, kept
 * by triggers in the same statement as every media or book change, migration 016), and the set is
 * read from a partial index of those series, empty once a library is analysed (read from the
 * books awaiting analysis, it cost 5 ms a statement with 2,000 of them). Part of the one excluded set (seriesTest), so the plans stay the admin's. A new book of a series
 * already shown is kept back on its own until analysed (awaitingAnalysis).
 */
function notYetRated(scope: RestrictionScope, series: string): string {
  const awaiting = 'wc.awaiting > 0 AND wc.analysed = 0';
  // One series: its own row, by primary key.
  if (scope === 'item') return `SELECT wc.series_id FROM series_media_counts wc WHERE wc.series_id = ${series} AND ${awaiting}`;
  return `SELECT wc.series_id FROM series_media_counts wc WHERE ${awaiting}`;
}

/**
 * An age rule also keeps back a book awaiting analysis (media UNKNOWN) or analysis again (OUTDATED:
 * the scan found its file replaced), even in a series it shows: the book's ComicInfo, read by that
 * analysis, may rate the series out of reach (and the metadata listed would be the replaced file's).
 * The book shows once analysed, by its series' rating then. Unrestricted readers see it at once, as
 * in Komga. True when the book is kept back.
 *
 * One book looks its own media row up by key. A list reads the set only when some series is "mixed"
 * (some book OUTDATED, or some awaiting analysis and some analysed; series_media_counts, migration
 * 017): a series with none analysed is kept back whole (notYetRated). That EXISTS runs once per
 * statement on a partial index, empty once a library is analysed and while a large import of new
 * series waits for analysis: the set is then neither built nor probed per row. Books are named by rowid,
 * which every index of book holds: by id, a count of books read every book's row instead of the
 * narrow book_series index.
 */
function awaitingAnalysis(scope: RestrictionScope, columns: RestrictionColumns): string {
  const awaiting = "wm.status IN ('UNKNOWN', 'OUTDATED')";
  // Live books only, as series_media_counts counts: a book flagged deleted (its file gone) is listed
  // as deleted, as before, whatever other series await analysis.
  if (scope === 'item' || !columns.bookRow) {
    return `EXISTS (SELECT 1 FROM media wm CROSS JOIN book wb ON wb.id = wm.book_id WHERE wm.book_id = ${columns.book} AND ${awaiting} AND wb.deleted_date IS NULL)`;
  }
  // From the books awaiting analysis (their partial index), not from the mixed series' books: 20 new
  // books of series of 1,000 read 20,000 books that way. Those of new series in it are harmless.
  const set = `SELECT wb.rowid FROM media wm CROSS JOIN book wb ON wb.id = wm.book_id WHERE ${awaiting} AND wb.deleted_date IS NULL`;
  return `${SOME_SERIES_MIXED} AND +${columns.bookRow} IN (${set})`;
}

/** Whether some series is mixed (awaitingAnalysis), from its partial index (migration 017): run once per statement. */
const SOME_SERIES_MIXED = 'EXISTS (SELECT 1 FROM series_media_counts wn WHERE wn.outdated > 0 OR (wn.awaiting > 0 AND wn.analysed > 0))';

// UNION ALL: a series in two sets is harmless in an IN list, and a plain UNION is merged in series
// order, which read every series' row instead of the sets' indexes.
const union = (sets: SqlFragment[]): SqlFragment => ({ sql: sets.map((p) => p.sql).join(' UNION ALL '), params: sets.flatMap((p) => p.params) });

/**
 * The series rules as ONE test of the row's series against one set: a series passes if it is in
 * any allowed set (Komga: allow rules are alternatives) and in no excluded set. One term, not an IN
 * and a NOT IN side by side: with two, SQLite's planner took them for a selective pair and drove the
 * query from every book of the library (keep reading: 25-45 ms instead of 1 ms).
 */
function seriesTest(series: string, allowed: SqlFragment[], excluded: SqlFragment[]): SqlFragment | undefined {
  if (allowed.length === 0 && excluded.length === 0) return undefined;
  const kept = union(allowed);
  const hidden = union(excluded);
  // series_id is a primary key Folio never leaves NULL, but a NULL in a NOT IN set would hide every
  // series (x NOT IN (NULL) is NULL): keep it out for rows another tool wrote.
  const notHidden = (column: string) => `${column} NOT IN (SELECT series_id FROM (${hidden.sql}) WHERE series_id IS NOT NULL)`;
  if (excluded.length === 0) return { sql: `${series} IN (${kept.sql})`, params: kept.params };
  if (allowed.length === 0) return { sql: notHidden(series), params: hidden.params };
  // The allowed sets with the hidden ones taken out inside the one set. Not EXCEPT: SQLite merges
  // an EXCEPT in series order, so it read every series' row to sort the age rule's side instead of
  // using its index (7 ms against 1 ms at 5,500 series).
  return { sql: `${series} IN (SELECT series_id FROM (${kept.sql}) WHERE ${notHidden('series_id')})`, params: [...kept.params, ...hidden.params] };
}
