import type { Db } from '../database.ts';
import type { User } from '../user-repository.ts';
import { SERIES_COLUMNS, contentRestriction } from './content-restriction.ts';
import {
  type FieldCompiler,
  type Operator,
  authorOps,
  booleanOps,
  SearchConditionError,
  compileCondition,
  dateOps,
  equality,
  jsonArrayMembership,
  numericOps,
  scalarValue,
  stringOps,
} from './conditions.ts';
import { namedValuesJson, simplifyCondition } from './simplify.ts';
import { unsafeTitleRegex } from './title-regex.ts';
import { updatedSeriesRestriction } from './special-lists.ts';
import type { IdPage } from './book-search.ts';
import { foldedSql } from './fold-text.ts';
import { storedFoldedSql } from '../folded-titles.ts';
import { type FullTextFields, fullTextMatch, titleRelevance, wantsRelevance } from './full-text.ts';
import { refreshSearchText } from '../search-text.ts';
import { type SortOrder, orderBy } from './sort.ts';
import { pageTotal } from './page-total.ts';
import { isSmallShare } from './library-shares.ts';
import { type ListJoin, allJoins, joinsNamed } from './list-joins.ts';
import { type SqlFragment, searchedHead, sql } from './sql-fragment.ts';

const upper = (v: unknown) => String(v).toUpperCase();

// Per-user counts over live books; each needs the user id bound once (see COUNT_PARAMS).
// `+xr.user_id` keeps the planner on the series' own books (book_series, then the progress key):
// left to itself it walked every progress row of the user for each series (3 s for a read-status
// filter over 5,000 series and 300 progress rows).
const TOTAL = '(SELECT COUNT(*) FROM book xb WHERE xb.series_id = s.id AND xb.deleted_date IS NULL)';
const READ =
  '(SELECT COUNT(*) FROM book xb JOIN read_progress xr ON xr.book_id = xb.id AND +xr.user_id = @user WHERE xb.series_id = s.id AND xb.deleted_date IS NULL AND xr.completed = 1)';
const IN_PROGRESS =
  '(SELECT COUNT(*) FROM book xb JOIN read_progress xr ON xr.book_id = xb.id AND +xr.user_id = @user WHERE xb.series_id = s.id AND xb.deleted_date IS NULL AND xr.completed = 0)';
const LAST_READ =
  '(SELECT MAX(xr.read_date) FROM book xb JOIN read_progress xr ON xr.book_id = xb.id AND +xr.user_id = @user WHERE xb.series_id = s.id)';

const readStatus: FieldCompiler = (op) => {
  const expression = (value: unknown) => {
    switch (upper(value)) {
      case 'READ':
        return `(${TOTAL} > 0 AND ${READ} = ${TOTAL})`;
      case 'UNREAD':
        return `(${READ} = 0 AND ${IN_PROGRESS} = 0)`;
      case 'IN_PROGRESS':
        return `(${IN_PROGRESS} > 0 OR (${READ} > 0 AND ${READ} < ${TOTAL}))`;
      default:
        return '1 = 0';
    }
  };
  const o = op.operator.toLowerCase();
  if (o === 'is') return sql(expression(scalarValue(op)));
  if (o === 'isnot') return sql(`NOT ${expression(scalarValue(op))}`);
  throw new SearchConditionError(`Unsupported operator: ${op.operator}`);
};

/** Condition fields of SeriesSearch (REFERENCE §3.4). */
/** A title regular expression, refused (400) unless its backtracking is bounded (title-regex.ts). */
function titlePattern(op: Operator): string {
  const pattern = String(scalarValue(op));
  const unsafe = unsafeTitleRegex(pattern);
  if (unsafe) throw new SearchConditionError(unsafe);
  return pattern;
}

export const SERIES_FIELDS: Record<string, FieldCompiler> = {
  libraryId: equality('s.library_id'),
  collectionId: (op) => {
    // The collection's series as one set read from its key, not an EXISTS per series (as readListId).
    const inCollection = 's.id IN (SELECT cs.series_id FROM collection_series cs WHERE cs.collection_id = ?)';
    const o = op.operator.toLowerCase();
    if (o === 'is') return sql(inCollection, scalarValue(op));
    if (o === 'isnot') return sql(`NOT ${inCollection}`, scalarValue(op));
    throw new SearchConditionError(`Unsupported operator: ${op.operator}`);
  },
  deleted: booleanOps('s.deleted_date IS NOT NULL'),
  oneShot: booleanOps('s.oneshot = 1'),
  complete: booleanOps(`sm.total_book_count IS NOT NULL AND ${TOTAL} >= sm.total_book_count`),
  title: stringOps('sm.title', storedFoldedSql('sm', 'title')),
  titleSort: stringOps('sm.title_sort', storedFoldedSql('sm', 'title_sort')),
  releaseDate: dateOps('sbm.release_date'),
  tag: jsonArrayMembership(['sm.tags', 'sbm.tags']),
  sharingLabel: jsonArrayMembership(['sm.sharing_labels']),
  genre: jsonArrayMembership(['sm.genres']),
  publisher: (op) => stringOps('sm.publisher')(op),
  language: (op) => stringOps('sm.language')(op),
  ageRating: numericOps('sm.age_rating', true),
  readStatus,
  seriesStatus: equality('sm.status', upper),
  author: authorOps(['sbm.authors']),
  // Internal (legacy `search_regex`): case-insensitive regular expression on title or sort title.
  titleRegex: (op) => sql(`regexp(?, sm.title)`, titlePattern(op)),
  titleSortRegex: (op) => sql(`regexp(?, sm.title_sort)`, titlePattern(op)),
};

const SERIES_SORT: Record<string, string> = {
  'metadata.titleSort': 'sm.title_sort COLLATE NOCASE',
  'metadata.title': 'sm.title COLLATE NOCASE',
  created: 's.created',
  createdDate: 's.created',
  lastModified: 's.last_modified',
  lastModifiedDate: 's.last_modified',
  'booksMetadata.releaseDate': 'sbm.release_date',
  readDate: LAST_READ,
  name: 's.name COLLATE NOCASE',
  booksCount: TOTAL,
  random: 'RANDOM()',
  // The series' place in the collections the condition names (in any collection when it names
  // none), as Komga sorts a collection's series; @collections is bound per query.
  'collection.number':
    '(SELECT MIN(cs.number) FROM collection_series cs WHERE cs.series_id = s.id AND (@collections IS NULL OR cs.collection_id IN (SELECT value FROM json_each(@collections))))',
};

const yesNo = (condition: string) => `CASE WHEN ${condition} THEN 'true' ELSE 'false' END`;

/**
 * What the search box reads (full-text.ts): a bare word is looked for in the title, folder name,
 * publisher, alternate titles, genres, tags and the books' authors; the named fields are those of
 * Komga's series index (LuceneEntity), and any other name is an author role.
 */
export const SERIES_TEXT_FIELDS: FullTextFields = {
  defaults: { folded: [storedFoldedSql('sm', 'title'), foldedSql(searchedHead('s.name')), foldedSql(searchedHead('sm.publisher'))], json: ['sm.alternate_titles', 'sm.genres', 'sm.tags', 'sbm.authors'] },
  named: {
    title: { folded: [storedFoldedSql('sm', 'title'), storedFoldedSql('sm', 'title_sort')], json: ['sm.alternate_titles'] },
    publisher: { folded: [foldedSql(searchedHead('sm.publisher'))] },
    status: { folded: ['lower(sm.status)'] },
    reading_direction: { folded: ['lower(sm.reading_direction)'] },
    age_rating: { folded: ['CAST(sm.age_rating AS TEXT)'] },
    language: { folded: ['lower(sm.language)'] },
    tag: { json: ['sm.tags', 'sbm.tags'] },
    series_tag: { json: ['sm.tags'] },
    book_tag: { json: ['sbm.tags'] },
    genre: { json: ['sm.genres'] },
    sharing_label: { json: ['sm.sharing_labels'] },
    total_book_count: { folded: ['CAST(sm.total_book_count AS TEXT)'] },
    book_count: { folded: [`CAST(${TOTAL} AS TEXT)`] },
    author: { json: ['sbm.authors'] },
    release_date: { folded: ['substr(sbm.release_date, 1, 4)'] },
    deleted: { folded: [yesNo('s.deleted_date IS NOT NULL')] },
    oneshot: { folded: [yesNo('s.oneshot = 1')] },
    complete: { folded: [`CASE WHEN sm.total_book_count IS NULL THEN NULL ELSE ${yesNo(`${TOTAL} >= sm.total_book_count`)} END`] },
  },
  authors: ['sbm.authors'],
  index: { owner: 's.id', table: 'series_search', key: 'series_id', fts: 'series_search_fts' },
};

/** The tables a series list joins to each series (list-joins.ts: a count joins only those it reads). */
const SERIES_JOINS: ListJoin[] = [
  { alias: 'sm', sql: 'JOIN series_metadata sm ON sm.series_id = s.id' },
  { alias: 'sbm', sql: 'LEFT JOIN series_books_metadata sbm ON sbm.series_id = s.id' },
];
const FROM = `FROM series s\n  ${allJoins(SERIES_JOINS).sql}`;

export interface SeriesQuery {
  userId: string;
  condition?: unknown;
  fullTextSearch?: string;
  /** Only series modified after they were created ("updated", not merely new). */
  updatedOnly?: boolean;
  /** The user whose content restrictions (shared libraries, age rating, labels) apply. */
  restrictedTo?: User;
  sort: SortOrder[];
  defaultSort?: SortOrder[];
  limit: number | null;
  offset: number;
}

/** Ids of the series matching a query, in order, plus the total count. */
export function searchSeries(db: Db, query: SeriesQuery): IdPage {
  if (query.fullTextSearch?.trim()) refreshSearchText(db);
  const where = whereClause(db, query);
  const order = orderBy(query.sort, SERIES_SORT, query.defaultSort ?? [{ property: 'metadata.titleSort', direction: 'asc' }], 's.id');
  // Named @user for the per-user subqueries, positional ? for the condition values.
  const named = {
    user: query.userId,
    ...(order.clause.includes('@collections') ? { collections: namedValuesJson(simplifyCondition(query.condition, Object.keys(SERIES_FIELDS)), 'collectionId') } : {}),
  };
  // Only the joins the conditions read (list-joins.ts): the others change no count.
  const count = () =>
    (db.prepare(`SELECT COUNT(*) AS n FROM series s\n  ${joinsNamed(SERIES_JOINS, where.sql).sql} WHERE ${where.sql}`).get(named, ...where.params) as { n: number }).n;
  const limit = query.limit === null ? '' : ` LIMIT ${query.limit} OFFSET ${query.offset}`;
  const rank = wantsRelevance(query.fullTextSearch, query.sort) ? titleRelevance(query.fullTextSearch!, storedFoldedSql('sm', 'title')) : undefined;
  const clause = rank ? order.clause.replace('ORDER BY ', `ORDER BY ${rank.sql}, `) : order.clause;
  const rows = db
    .prepare(`SELECT s.id AS id ${FROM} WHERE ${where.sql} ${clause}${limit}`)
    .all(named, ...where.params, ...(rank?.params ?? [])) as { id: string }[];
  return { ids: rows.map((r) => r.id), total: pageTotal(rows.length, query.limit, query.offset, count), sorted: order.sorted || rank !== undefined };
}

function whereClause(db: Db, query: SeriesQuery): SqlFragment {
  const parts: SqlFragment[] = [compileCondition(simplifyCondition(query.condition, Object.keys(SERIES_FIELDS)), SERIES_FIELDS)];
  const term = query.fullTextSearch?.trim();
  if (term) {
    // Title, folder name, publisher, alternate titles, genres, tags and the books' authors.
    const words = fullTextMatch(term, SERIES_TEXT_FIELDS);
    if (words) parts.push(words);
  }
  if (query.updatedOnly) parts.push(updatedSeriesRestriction());
  const restriction = query.restrictedTo && contentRestriction(query.restrictedTo, SERIES_COLUMNS, 'list', { smallShare: isSmallShare(db, query.restrictedTo, 'series') });
  if (restriction) parts.push(restriction);
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}
