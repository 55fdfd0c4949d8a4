import type { Db } from '../database.ts';
import type { User } from '../user-repository.ts';
import { BOOK_COLUMNS, contentRestriction } from './content-restriction.ts';
import {
  type FieldCompiler,
  authorOps,
  booleanOps,
  SearchConditionError,
  compileCondition,
  dateOps,
  equality,
  jsonArrayMembership,
  numericOps,
  scalarValue,
  posterOps,
  stringOps,
} from './conditions.ts';
import { namedValuesJson, simplifyCondition } from './simplify.ts';
import { onDeckBooks } from './special-lists.ts';
import { type ListJoin, allJoins, joinsNamed } from './list-joins.ts';
import { foldedSql } from './fold-text.ts';
import { storedFoldedSql } from '../folded-titles.ts';
import { type FullTextFields, fullTextMatch, titleRelevance, wantsRelevance } from './full-text.ts';
import { refreshSearchText } from '../search-text.ts';
import { type SortOrder, orderBy } from './sort.ts';
import { pageTotal } from './page-total.ts';
import { isSmallShare } from './library-shares.ts';
import { type SqlFragment, searchedHead, sql } from './sql-fragment.ts';

const upper = (v: unknown) => String(v).toUpperCase();

const readStatus: FieldCompiler = (op) => {
  const expression = (value: unknown) => {
    switch (upper(value)) {
      case 'READ':
        return 'r.completed = 1';
      case 'IN_PROGRESS':
        return 'r.completed = 0';
      case 'UNREAD':
        return 'r.book_id IS NULL';
      default:
        return '1 = 0';
    }
  };
  const op_ = op.operator.toLowerCase();
  if (op_ === 'is') return sql(expression(scalarValue(op)));
  // A book without progress has no row in r: its completed flag is NULL, and NOT (NULL = 1) is NULL,
  // so "not read" left out every unread book. Komga: isNot READ = unread or in progress, isNot
  // IN_PROGRESS = unread or read.
  if (op_ === 'isnot') return sql(`COALESCE(NOT (${expression(scalarValue(op))}), 1)`);
  throw new SearchConditionError(`Unsupported operator: ${op.operator}`);
};

// A book whose type is not known (NULL) has no profile, so it is in neither is nor isNot (Komga's
// `media_type NOT IN (…)`); a known type outside every profile is ''.
const MEDIA_PROFILE = `CASE WHEN m.media_type IS NULL THEN NULL WHEN m.media_type IN ('application/zip', 'application/x-rar-compressed', 'application/x-rar-compressed; version=4', 'application/x-rar-compressed; version=5', 'application/x-7z-compressed') THEN 'DIVINA' WHEN m.media_type = 'application/pdf' THEN 'PDF' WHEN m.media_type = 'application/epub+zip' THEN 'EPUB' ELSE '' END`;

/** Condition fields of BookSearch (REFERENCE §3.4) mapped onto the book query's tables. */
export const BOOK_FIELDS: Record<string, FieldCompiler> = {
  libraryId: equality('b.library_id'),
  seriesId: equality('b.series_id'),
  readListId: (op) => {
    // The list's books as one set read from the list's key (readlist_book's primary key starts with
    // readlist_id), not an EXISTS per book: a read list of 200 books read all 55,000 books' rows.
    const inList = 'b.id IN (SELECT rb.book_id FROM readlist_book rb WHERE rb.readlist_id = ?)';
    const o = op.operator.toLowerCase();
    if (o === 'is') return sql(inList, scalarValue(op));
    if (o === 'isnot') return sql(`NOT ${inList}`, scalarValue(op));
    throw new SearchConditionError(`Unsupported operator: ${op.operator}`);
  },
  deleted: booleanOps('b.deleted_date IS NOT NULL'),
  oneShot: booleanOps('b.oneshot = 1'),
  title: stringOps('bm.title', storedFoldedSql('bm', 'title')),
  releaseDate: dateOps('bm.release_date'),
  numberSort: numericOps('bm.number_sort', false),
  tag: jsonArrayMembership(['bm.tags']),
  readStatus,
  // READY is the state of nearly every book, so as an index search (media_status) it made SQLite
  // read every ready book and sort them all instead of walking the order asked for: OPDS "latest
  // books" read 55,000 books for 20. Tested on each row, it leaves the start to the order or to
  // another condition. Rarer states (ERROR, UNKNOWN, as the media analysis screen asks) are few
  // books, and stay an index search.
  mediaStatus: (op) => equality(upper(scalarValue(op)) === 'READY' ? '+m.status' : 'm.status', upper)(op),
  mediaProfile: equality(MEDIA_PROFILE, upper),
  // Folio's addition to Komga's conditions: the analysis comment, where a READY book records
  // ERR_1007 (pages that cannot be decoded) so that Media analysis can list it.
  mediaComment: stringOps("COALESCE(m.comment, '')"),
  author: authorOps(['bm.authors']),
  poster: posterOps('thumbnail_book', 'book_id', 'b.id'),
};

/** Sort properties accepted for books (REFERENCE §3.2). */
const BOOK_SORT: Record<string, string> = {
  name: 'b.name COLLATE NOCASE',
  series: 'sm.title_sort COLLATE NOCASE',
  created: 'b.created',
  createdDate: 'b.created',
  lastModified: 'b.last_modified',
  lastModifiedDate: 'b.last_modified',
  fileSize: 'b.file_size',
  size: 'b.file_size',
  fileHash: 'b.file_hash',
  url: 'b.url',
  'media.status': 'm.status',
  'media.comment': 'm.comment',
  'media.mediaType': 'm.media_type',
  'media.pagesCount': 'm.page_count',
  'metadata.title': 'bm.title COLLATE NOCASE',
  'metadata.numberSort': 'bm.number_sort',
  'metadata.releaseDate': 'bm.release_date',
  'readProgress.lastModified': 'r.last_modified',
  'readProgress.readDate': 'r.read_date',
  number: 'b.number',
  // The book's place in the read lists the condition names (in any list when it names none), as
  // Komga sorts a read list's books; @readLists is bound per query.
  'readList.number':
    '(SELECT MIN(rb.number) FROM readlist_book rb WHERE rb.book_id = b.id AND (@readLists IS NULL OR rb.readlist_id IN (SELECT value FROM json_each(@readLists))))',
  // Internal: latest read date among the caller's books of the same series (on-deck ordering).
  // `+xr.user_id` keeps the planner on the series' few books (book_series, then the progress key)
  // rather than on every progress row of the user for each sorted book.
  seriesLastRead:
    '(SELECT MAX(xr.read_date) FROM book xb JOIN read_progress xr ON xr.book_id = xb.id AND +xr.user_id = r_user.id WHERE xb.series_id = b.series_id)',
};

const yesNo = (condition: string) => `CASE WHEN ${condition} THEN 'true' ELSE 'false' END`;

/**
 * What the search box reads (full-text.ts): a bare word is looked for in the title, file name,
 * series title, ISBN, authors and tags; the named fields are those of Komga's book index
 * (LuceneEntity), and any other name is an author role.
 */
export const BOOK_TEXT_FIELDS: FullTextFields = {
  defaults: { folded: [storedFoldedSql('bm', 'title'), foldedSql(searchedHead('b.name')), storedFoldedSql('sm', 'title'), foldedSql(searchedHead('bm.isbn'))], json: ['bm.authors', 'bm.tags'] },
  named: {
    title: { folded: [storedFoldedSql('bm', 'title')] },
    isbn: { folded: [foldedSql(searchedHead('bm.isbn'))] },
    tag: { json: ['bm.tags'] },
    author: { json: ['bm.authors'] },
    release_date: { folded: ['substr(bm.release_date, 1, 4)'] },
    status: { folded: ['lower(m.status)'] },
    deleted: { folded: [yesNo('b.deleted_date IS NOT NULL')] },
    oneshot: { folded: [yesNo('b.oneshot = 1')] },
  },
  authors: ['bm.authors'],
  index: { owner: 'b.id', table: 'book_search', key: 'book_id', fts: 'book_search_fts' },
};

/** The tables a book list joins to each book (list-joins.ts: a count joins only those it reads). */
const bookJoins = (userId: string): ListJoin[] => [
  { alias: 'bm', sql: 'JOIN book_metadata bm ON bm.book_id = b.id' },
  { alias: 'm', sql: 'JOIN media m ON m.book_id = b.id' },
  { alias: 'sm', sql: 'JOIN series_metadata sm ON sm.series_id = b.series_id' },
  { alias: 'r', sql: 'LEFT JOIN read_progress r ON r.book_id = b.id AND r.user_id = ?', params: [userId] },
  { alias: 'r_user', sql: 'JOIN (SELECT ? AS id) r_user', params: [userId] },
];

/**
 * Where the books come from: every book, or for "on deck" the few books it offers, read first
 * (CROSS JOIN keeps that order in SQLite), so that no other condition (a library) can make SQLite
 * start from a larger set and test its books one by one.
 */
function bookSource(query: BookQuery): SqlFragment {
  if (!query.onDeck) return sql('FROM book b');
  const onDeck = onDeckBooks(query.userId);
  return { sql: `FROM (${onDeck.sql}) od CROSS JOIN book b ON b.id = od.book_id`, params: onDeck.params };
}

export interface BookQuery {
  userId: string;
  condition?: unknown;
  fullTextSearch?: string;
  /** Only the user's "on deck" books (REFERENCE §3.5; the user is `userId`), which the query starts from. */
  onDeck?: boolean;
  /** The user whose content restrictions (shared libraries, age rating, labels) apply. */
  restrictedTo?: User;
  sort: SortOrder[];
  defaultSort?: SortOrder[];
  /** null = everything. */
  limit: number | null;
  offset: number;
}

export interface IdPage {
  ids: string[];
  total: number;
  sorted: boolean;
}

/** Ids of the books matching a query, in order, plus the total count. */
export function searchBooks(db: Db, query: BookQuery): IdPage {
  if (query.fullTextSearch?.trim()) refreshSearchText(db);
  const where = whereClause(db, query);
  const order = orderBy(
    query.sort,
    BOOK_SORT,
    query.defaultSort ?? [
      { property: 'series', direction: 'asc' },
      { property: 'metadata.numberSort', direction: 'asc' },
    ],
    'b.id',
  );
  const source = bookSource(query);
  const joins = bookJoins(query.userId);
  const count = () => {
    // Only the joins the conditions read (list-joins.ts): the others change no count.
    const lean = joinsNamed(joins, where.sql);
    return (db.prepare(`SELECT COUNT(*) AS n ${source.sql}\n  ${lean.sql} WHERE ${where.sql}`).get(...source.params, ...lean.params, ...where.params) as { n: number }).n;
  };
  const readLists = order.clause.includes('@readLists') ? { readLists: namedValuesJson(simplifyCondition(query.condition, Object.keys(BOOK_FIELDS)), 'readListId') } : undefined;
  const limit = query.limit === null ? '' : ` LIMIT ${query.limit} OFFSET ${query.offset}`;
  // A search term without an explicit order ranks title matches first.
  const rank = wantsRelevance(query.fullTextSearch, query.sort) ? titleRelevance(query.fullTextSearch!, storedFoldedSql('bm', 'title')) : undefined;
  const clause = rank ? order.clause.replace('ORDER BY ', `ORDER BY ${rank.sql}, `) : order.clause;
  // The page itself joins every table: its rows are what the DTOs are built from.
  const all = allJoins(joins);
  const rows = db
    .prepare(`SELECT b.id AS id ${source.sql}\n  ${all.sql} WHERE ${where.sql} ${clause}${limit}`)
    .all(...(readLists ? [readLists] : []), ...source.params, ...all.params, ...where.params, ...(rank?.params ?? [])) as { id: string }[];
  return { ids: rows.map((r) => r.id), total: pageTotal(rows.length, query.limit, query.offset, count), sorted: order.sorted || rank !== undefined };
}

function whereClause(db: Db, query: BookQuery): SqlFragment {
  const parts: SqlFragment[] = [compileCondition(simplifyCondition(query.condition, Object.keys(BOOK_FIELDS)), BOOK_FIELDS)];
  const term = query.fullTextSearch?.trim();
  if (term) {
    // Title, file name, series title, ISBN, authors and tags.
    const words = fullTextMatch(term, BOOK_TEXT_FIELDS);
    if (words) parts.push(words);
  }
  const restriction = query.restrictedTo && contentRestriction(query.restrictedTo, BOOK_COLUMNS, 'list', { smallShare: isSmallShare(db, query.restrictedTo, 'books') });
  if (restriction) parts.push(restriction);
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}
