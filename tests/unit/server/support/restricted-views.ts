import yauzl from 'yauzl';
import type { TestServer } from '../helpers.ts';

/**
 * What a reader sees of one series and one of its books on every route family that may show
 * them: REST lists and their counts, single items, posters, pages, downloads and zips, search,
 * OPDS v1 and v2, Tachiyomi and Readium routes, collections and read lists. Each answer is
 * reduced to "shown" (true) or "not shown" (false), so one table row can say what every family
 * must answer after a change. Counts are checked apart (countsAgree) since they are not about
 * one item.
 */
export interface Target {
  seriesId: string;
  bookId: string;
  seriesTitle: string;
  libraryId: string;
  collectionId?: string;
  readListId?: string;
  /** Whether the target carries MARKS (markTarget): the pick lists and Alpha's letter group are about it. */
  marked?: boolean;
}

type Probe = (s: TestServer, who: Record<string, string>, t: Target) => Promise<boolean>;

const ok = (url: (t: Target) => string): Probe => async (s, who, t) => {
  const response = await s.get(url(t), who);
  if (response.statusCode === 200) return true;
  // Hidden or gone must read as unknown: 404, never 403 (which would say it exists).
  if (response.statusCode !== 404) throw new Error(`GET ${url(t)} → ${response.statusCode}: ${response.body.slice(0, 200)}`);
  return false;
};

/** The answer (JSON or XML) names the id; a 404 of the container is "not shown" too. */
const names = (url: (t: Target) => string, id: (t: Target) => string, method: 'GET' | 'POST' = 'GET'): Probe => async (s, who, t) => {
  const response = method === 'GET' ? await s.get(url(t), who) : await s.app.inject({ method, url: url(t), headers: who, payload: {} });
  if (response.statusCode === 404) return false;
  if (response.statusCode !== 200) throw new Error(`${method} ${url(t)} → ${response.statusCode}: ${response.body.slice(0, 200)}`);
  return response.body.includes(id(t));
};

const zipNames = (body: Buffer) =>
  new Promise<string[]>((resolve, reject) => {
    yauzl.fromBuffer(body, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const found: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        found.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
  });

/** A zip download (series, read list) holds the book's file. */
const zipHolds = (url: (t: Target) => string, bookFile: (s: TestServer, t: Target) => string): Probe => async (s, who, t) => {
  const response = await s.get(url(t), who);
  if (response.statusCode === 404) return false;
  if (response.statusCode !== 200) throw new Error(`GET ${url(t)} → ${response.statusCode}`);
  const wanted = bookFile(s, t);
  return (await zipNames(response.rawPayload)).some((name) => name.endsWith(wanted));
};

const fileName = (s: TestServer, t: Target) => {
  const url = s.app.folio.repos.books.findById(t.bookId)?.url ?? '';
  return url.slice(url.lastIndexOf('/') + 1);
};

/**
 * Values only the target series (and its first book) carry, for the pick lists: set them with
 * markTarget before the steps (and again on a series created anew).
 */
export const MARKS = { genre: 'Zygenre', tag: 'Zytag', publisher: 'Zypublisher', author: 'Zyauthor' };

export async function markTarget(s: TestServer, t: Target): Promise<void> {
  for (const [url, payload] of [
    [`/api/v1/series/${t.seriesId}/metadata`, { genres: [MARKS.genre], tags: [MARKS.tag], publisher: MARKS.publisher }],
    [`/api/v1/books/${t.bookId}/metadata`, { authors: [{ name: MARKS.author, role: 'writer' }] }],
  ] as const) {
    const response = await s.app.inject({ method: 'PATCH', url, headers: s.admin, payload });
    if (response.statusCode !== 204) throw new Error(`PATCH ${url} → ${response.statusCode}: ${response.body}`);
  }
}

const seriesIdOf = (t: Target) => t.seriesId;
const bookIdOf = (t: Target) => t.bookId;
const q = encodeURIComponent;

/**
 * The target book as the next of the book before it in its series (or the previous of the one after
 * it, for a first book): a book kept from the reader must be passed over there too.
 */
const sibling: Probe = async (s, who, t) => {
  const ids = s.app.folio.repos.books.findLiveIdsBySeriesInNumberOrder(t.seriesId);
  const at = ids.indexOf(t.bookId);
  if (at < 0 || ids.length < 2) return false;
  const url = at > 0 ? `/api/v1/books/${ids[at - 1]}/next` : `/api/v1/books/${ids[at + 1]}/previous`;
  const response = await s.get(url, who);
  if (response.statusCode === 404) return false;
  if (response.statusCode !== 200) throw new Error(`GET ${url} → ${response.statusCode}: ${response.body.slice(0, 200)}`);
  return (response.json() as { id: string }).id === t.bookId;
};

export const FAMILIES: Record<string, Probe> = {
  'REST series list': names(() => '/api/v1/series?unpaged=true', seriesIdOf),
  'REST series list POST': names(() => '/api/v1/series/list?unpaged=true', seriesIdOf, 'POST'),
  'REST series new': names(() => '/api/v1/series/new?unpaged=true', seriesIdOf),
  'REST series latest': names(() => '/api/v1/series/latest?unpaged=true', seriesIdOf),
  'REST library series': names((t) => `/api/v1/series?library_id=${t.libraryId}&unpaged=true`, seriesIdOf),
  'REST books list': names(() => '/api/v1/books?unpaged=true', bookIdOf),
  'REST books list POST': names(() => '/api/v1/books/list?unpaged=true', bookIdOf, 'POST'),
  'REST books latest': names(() => '/api/v1/books/latest?unpaged=true', bookIdOf),
  'REST series books': names((t) => `/api/v1/series/${t.seriesId}/books?unpaged=true`, bookIdOf),
  'REST search': names((t) => `/api/v1/series?search=${q(t.seriesTitle)}&unpaged=true`, seriesIdOf),
  'alphabetical groups': names(() => '/api/v1/series/alphabetical-groups', () => '"a"'),
  'genres': names(() => '/api/v2/genres', () => MARKS.genre),
  'tags': names(() => '/api/v2/tags', () => MARKS.tag),
  'publishers': names(() => '/api/v2/publishers', () => MARKS.publisher),
  'authors': names(() => '/api/v2/authors', () => MARKS.author),
  'OPDS1 publishers': names(() => '/opds/v1.2/publishers', () => MARKS.publisher),
  'REST series': ok((t) => `/api/v1/series/${t.seriesId}`),
  'REST book': ok((t) => `/api/v1/books/${t.bookId}`),
  'REST book pages': ok((t) => `/api/v1/books/${t.bookId}/pages`),
  'REST next/previous book': sibling,
  'series poster': ok((t) => `/api/v1/series/${t.seriesId}/thumbnail`),
  'book poster': ok((t) => `/api/v1/books/${t.bookId}/thumbnail`),
  'page': ok((t) => `/api/v1/books/${t.bookId}/pages/1`),
  'page thumbnail': ok((t) => `/api/v1/books/${t.bookId}/pages/1/thumbnail`),
  'book file': ok((t) => `/api/v1/books/${t.bookId}/file`),
  'series zip': zipHolds((t) => `/api/v1/series/${t.seriesId}/file`, fileName),
  'OPDS1 series': ok((t) => `/opds/v1.2/series/${t.seriesId}`),
  'OPDS1 library': names((t) => `/opds/v1.2/libraries/${t.libraryId}?size=500`, seriesIdOf),
  'OPDS1 search': names((t) => `/opds/v1.2/series?search=${q(t.seriesTitle)}`, seriesIdOf),
  'OPDS1 page': ok((t) => `/opds/v1.2/books/${t.bookId}/pages/1`),
  'OPDS2 series': ok((t) => `/opds/v2/series/${t.seriesId}`),
  'OPDS2 search': names((t) => `/opds/v2/search?query=${q(t.seriesTitle)}`, seriesIdOf),
  'OPDS2 library': names((t) => `/opds/v2/libraries/${t.libraryId}/browse?size=500`, seriesIdOf),
  'OPDS2 book file': ok((t) => `/opds/v2/books/${t.bookId}/file`),
  'Tachiyomi': ok((t) => `/api/v2/series/${t.seriesId}/read-progress/tachiyomi`),
  'Readium manifest': ok((t) => `/api/v1/books/${t.bookId}/manifest`),
  'Readium DiViNa manifest': ok((t) => `/api/v1/books/${t.bookId}/manifest/divina`),
  'collection series': names((t) => `/api/v1/collections/${t.collectionId}/series?unpaged=true`, seriesIdOf),
  'collection': names((t) => `/api/v1/collections/${t.collectionId}`, seriesIdOf),
  'OPDS1 collection': names((t) => `/opds/v1.2/collections/${t.collectionId}`, seriesIdOf),
  'OPDS2 collection': names((t) => `/opds/v2/collections/${t.collectionId}`, seriesIdOf),
  'read list books': names((t) => `/api/v1/readlists/${t.readListId}/books?unpaged=true`, bookIdOf),
  'read list': names((t) => `/api/v1/readlists/${t.readListId}`, bookIdOf),
  'read list zip': zipHolds((t) => `/api/v1/readlists/${t.readListId}/file`, fileName),
  'OPDS1 read list': names((t) => `/opds/v1.2/readlists/${t.readListId}`, bookIdOf),
  'OPDS2 read list': names((t) => `/opds/v2/readlists/${t.readListId}`, bookIdOf),
};

/**
 * The families that show the target book rather than its series: a book the reader may not see
 * yet (new or replaced, awaiting analysis) is missing from these while its series is still shown.
 */
export const BOOK_FAMILIES = new Set([
  'REST books list', 'REST books list POST', 'REST books latest', 'REST series books', 'authors', 'REST book', 'REST book pages', 'REST next/previous book',
  'book poster', 'page', 'page thumbnail', 'book file', 'series zip', 'OPDS1 page', 'OPDS2 book file', 'Readium manifest',
  'Readium DiViNa manifest', 'read list books', 'read list', 'read list zip', 'OPDS1 read list', 'OPDS2 read list',
]);

const MARKED = new Set(['alphabetical groups', 'genres', 'tags', 'publishers', 'authors', 'OPDS1 publishers']);

/** Every family's answer for this target, as `family → shown`. */
export async function views(s: TestServer, who: Record<string, string>, t: Target): Promise<Record<string, boolean>> {
  const seen: Record<string, boolean> = {};
  for (const [family, probe] of Object.entries(FAMILIES)) {
    if (family.includes('collection') && !t.collectionId) continue;
    if (family.includes('read list') && !t.readListId) continue;
    if (MARKED.has(family) && !t.marked) continue;
    seen[family] = await probe(s, who, t);
  }
  return seen;
}

/**
 * Lists whose page total must equal what the reader is shown in full: a count computed apart from
 * the rows (page-totals) that forgot a restriction would say more than the list holds.
 */
const COUNTED = ['/api/v1/series', '/api/v1/books', '/api/v1/series/new', '/api/v1/books/latest', '/api/v1/series/latest', '/api/v1/collections', '/api/v1/readlists'];

export async function countMismatches(s: TestServer, who: Record<string, string>): Promise<string[]> {
  const wrong: string[] = [];
  for (const url of COUNTED) {
    const all = (await s.json<{ content: unknown[] }>(`${url}?unpaged=true`, who)).content.length;
    for (const size of [1, 500]) {
      const total = (await s.json<{ totalElements: number }>(`${url}?size=${size}`, who)).totalElements;
      if (total !== all) wrong.push(`${url}?size=${size}: totalElements ${total}, shown ${all}`);
    }
  }
  return wrong;
}

/**
 * The target series' book counts as the reader is told them (series, Tachiyomi) against the books
 * the reader is listed in it: a book kept from the reader must not be counted either.
 */
export async function seriesCountMismatches(s: TestServer, who: Record<string, string>, t: Target): Promise<string[]> {
  const series = await s.get(`/api/v1/series/${t.seriesId}`, who);
  if (series.statusCode === 404) return [];
  const listed = (await s.json<{ content: unknown[] }>(`/api/v1/series/${t.seriesId}/books?unpaged=true`, who)).content.length;
  const wrong: string[] = [];
  const counted = (series.json() as { booksCount: number; booksUnreadCount: number }).booksCount;
  if (counted !== listed) wrong.push(`series booksCount ${counted}, listed ${listed}`);
  const tachiyomi = (await s.json<{ booksCount: number }>(`/api/v2/series/${t.seriesId}/read-progress/tachiyomi`, who)).booksCount;
  if (tachiyomi !== listed) wrong.push(`Tachiyomi booksCount ${tachiyomi}, listed ${listed}`);
  return wrong;
}
