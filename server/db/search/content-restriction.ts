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
 */
export interface RestrictionColumns {
  /** Expression holding the row's library id, e.g. `s.library_id` or `b.library_id`. */
  library: string;
  /** Expression holding the row's series id, e.g. `s.id` or `b.series_id`. */
  series: string;
}

export const SERIES_COLUMNS: RestrictionColumns = { library: 's.library_id', series: 's.id' };
export const BOOK_COLUMNS: RestrictionColumns = { library: 'b.library_id', series: 'b.series_id' };

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** The restriction for this user as a SQL condition, or undefined when the user may see everything. */
export function contentRestriction(user: User, columns: RestrictionColumns): SqlFragment | undefined {
  const parts: SqlFragment[] = [];
  if (!user.sharedAllLibraries) {
    parts.push(
      user.sharedLibraryIds.length === 0
        ? sql('1 = 0')
        : sql(`${columns.library} IN (${placeholders(user.sharedLibraryIds)})`, ...user.sharedLibraryIds),
    );
  }
  const metadata = (condition: string) =>
    `SELECT 1 FROM series_metadata rsm WHERE rsm.series_id = ${columns.series} AND ${condition}`;
  const withLabel = (labels: string[]) =>
    sql(
      `EXISTS (SELECT 1 FROM series_metadata rsm, json_each(rsm.sharing_labels) rl
               WHERE rsm.series_id = ${columns.series} AND label_key(rl.value) IN (${placeholders(labels)}))`,
      ...labels.map(labelKey),
    );

  const allowed: SqlFragment[] = [];
  const age = user.ageRestriction;
  if (user.ageRestrictionType === 'ALLOW_ONLY' && age !== null) {
    allowed.push(sql(`EXISTS (${metadata('rsm.age_rating IS NOT NULL AND rsm.age_rating <= ?')})`, age));
  }
  if (user.labelsAllow.length > 0) allowed.push(withLabel(user.labelsAllow));
  if (allowed.length > 0) {
    parts.push({ sql: allowed.map((p) => `(${p.sql})`).join(' OR '), params: allowed.flatMap((p) => p.params) });
  }

  if (user.ageRestrictionType === 'EXCLUDE' && age !== null) {
    parts.push(sql(`NOT EXISTS (${metadata('rsm.age_rating >= ?')})`, age));
  }
  if (user.labelsExclude.length > 0) {
    const excluded = withLabel(user.labelsExclude);
    parts.push({ sql: `NOT ${excluded.sql}`, params: excluded.params });
  }

  if (parts.length === 0) return undefined;
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}
