import type { Db } from './database.ts';
import { type SqlFragment, joinFragments, sql } from './search/sql-fragment.ts';
import { SERIES_COLUMNS as SERIES_ROW, contentRestriction } from './search/content-restriction.ts';
import type { Author } from './stored-values.ts';
import type { User } from './user-repository.ts';

/**
 * Which series (and their books) a pick list draws from: what `restrictedTo` (the caller) may see;
 * each id list, when not empty, keeps only what it names.
 */
export interface ReferentialScope {
  restrictedTo?: User;
  libraryIds: string[];
  collectionIds: string[];
  seriesIds: string[];
  /** Book lists only: books in one of these read lists. */
  readListIds: string[];
}

const placeholders = (values: unknown[]) => values.map(() => '?').join(', ');

function seriesScope(scope: ReferentialScope): SqlFragment {
  const parts: SqlFragment[] = [];
  const restriction = scope.restrictedTo && contentRestriction(scope.restrictedTo, SERIES_ROW);
  if (restriction) parts.push(restriction);
  if (scope.libraryIds.length) parts.push(sql(`s.library_id IN (${placeholders(scope.libraryIds)})`, ...scope.libraryIds));
  if (scope.collectionIds.length) {
    parts.push(
      sql(
        `EXISTS (SELECT 1 FROM collection_series cs WHERE cs.series_id = s.id AND cs.collection_id IN (${placeholders(scope.collectionIds)}))`,
        ...scope.collectionIds,
      ),
    );
  }
  if (scope.seriesIds.length) parts.push(sql(`s.id IN (${placeholders(scope.seriesIds)})`, ...scope.seriesIds));
  return joinFragments(parts, ' AND ', '1 = 1');
}

/** Like seriesScope for book rows (alias b, joined to their series s), plus the read-list filter. */
function bookScope(scope: ReferentialScope): SqlFragment {
  const parts = [seriesScope(scope)];
  if (scope.readListIds.length) {
    parts.push(
      sql(
        `EXISTS (SELECT 1 FROM readlist_book rb WHERE rb.book_id = b.id AND rb.readlist_id IN (${placeholders(scope.readListIds)}))`,
        ...scope.readListIds,
      ),
    );
  }
  return joinFragments(parts, ' AND ', '1 = 1');
}

const SERIES_JSON_LISTS = { genres: 'sm.genres', tags: 'sm.tags', sharingLabels: 'sm.sharing_labels' } as const;
const SERIES_COLUMNS = { publishers: 'sm.publisher', languages: 'sm.language' } as const;

/**
 * The distinct values filters offer (genres, tags, publishers, languages, sharing labels, authors,
 * age ratings, release years) among the series and books of a scope; unsorted, blanks left out.
 */
export class ReferentialRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Values of a JSON list column of series metadata. */
  seriesList(list: keyof typeof SERIES_JSON_LISTS, scope: ReferentialScope): string[] {
    return this.distinct(
      `SELECT DISTINCT j.value FROM series s JOIN series_metadata sm ON sm.series_id = s.id
       LEFT JOIN series_books_metadata sbm ON sbm.series_id = s.id, json_each(${SERIES_JSON_LISTS[list]}) j WHERE %SCOPE%`,
      seriesScope(scope),
    );
  }

  /** Values of a text column of series metadata. */
  seriesValues(column: keyof typeof SERIES_COLUMNS, scope: ReferentialScope): string[] {
    return this.distinct(
      `SELECT DISTINCT ${SERIES_COLUMNS[column]} FROM series s JOIN series_metadata sm ON sm.series_id = s.id WHERE %SCOPE%`,
      seriesScope(scope),
    );
  }

  bookTags(scope: ReferentialScope): string[] {
    return this.distinct(
      `SELECT DISTINCT j.value FROM book b JOIN series s ON s.id = b.series_id JOIN book_metadata bm ON bm.book_id = b.id, json_each(bm.tags) j WHERE %SCOPE%`,
      bookScope(scope),
    );
  }

  /** Distinct (name, role) pairs credited in books. */
  authors(scope: ReferentialScope): Author[] {
    const where = bookScope(scope);
    return this.db
      .prepare(
        `SELECT DISTINCT json_extract(j.value, '$.name') AS name, json_extract(j.value, '$.role') AS role
         FROM book b JOIN series s ON s.id = b.series_id JOIN book_metadata bm ON bm.book_id = b.id, json_each(bm.authors) j
         WHERE ${where.sql}`,
      )
      .all(...where.params) as Author[];
  }

  /** Age ratings in ascending order; null (unrated) comes first when present. */
  ageRatings(scope: ReferentialScope): (number | null)[] {
    const where = seriesScope(scope);
    return this.db
      .prepare(`SELECT DISTINCT sm.age_rating FROM series s JOIN series_metadata sm ON sm.series_id = s.id WHERE ${where.sql} ORDER BY sm.age_rating`)
      .pluck()
      .all(...where.params) as (number | null)[];
  }

  /** Years (yyyy) in which a series' books were released. */
  releaseYears(scope: ReferentialScope): string[] {
    return this.distinct(
      `SELECT DISTINCT substr(sbm.release_date, 1, 4) FROM series s JOIN series_books_metadata sbm ON sbm.series_id = s.id WHERE %SCOPE%`,
      seriesScope(scope),
    );
  }

  private distinct(text: string, scope: SqlFragment): string[] {
    return (this.db.prepare(text.replace('%SCOPE%', scope.sql)).pluck().all(...scope.params) as unknown[])
      .filter((v) => v !== null && v !== '')
      .map(String);
  }
}
