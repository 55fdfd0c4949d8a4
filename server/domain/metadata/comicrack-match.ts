import type { FolioContext } from '../context.ts';
import type { ComicRackList } from './comicrack-list.ts';
import { boundedImport } from './bounded-import.ts';

export interface ReadListRequestMatch {
  readListMatch: { name: string; errorCode: string };
  requests: {
    request: { series: string[]; number: string };
    matches: {
      series: { seriesId: string; title: string; releaseDate?: string };
      books: { bookId: string; number: string; title: string }[];
    }[];
  }[];
  errorCode: string;
}

const empty = (errorCode: string, name = ''): ReadListRequestMatch => ({
  readListMatch: { name, errorCode: '' },
  requests: [],
  errorCode,
});

/** "007" and "7.0" both mean book 7; non-numeric numbers compare as trimmed text. */
function sameNumber(a: string, b: string): boolean {
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x === y;
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Matches a ComicRack reading list (.cbl) against the library (REFERENCE §8 codes ERR_1015,
 * ERR_1029–1031): each <Book Series Number Volume> is looked up by series title (with and
 * without the volume in parentheses) and book number. Nothing is created here; the client
 * builds the read list from the chosen matches.
 */
export function matchComicRackList(ctx: FolioContext, list: ComicRackList, visibleSeries: (id: string) => boolean): ReadListRequestMatch {
  if ('errorCode' in list) return empty(list.errorCode);
  const { books } = list;
  // The name becomes the read list's when the client creates it: within the import limits.
  const name = boundedImport(ctx, list.name, 'the name of a ComicRack reading list');
  if (books.length === 0) return empty('ERR_1029', name);
  if (!name) return empty('ERR_1030');
  if (books.some((book) => !book.series || !book.number)) return empty('ERR_1031', name);

  const allSeries = ctx.repos.series.findLiveTitles();

  // Indexed once: a list of tens of thousands of books must not scan every series per book.
  const seriesByTitle = new Map<string, typeof allSeries>();
  for (const series of allSeries) {
    const key = series.title.toLowerCase();
    const same = seriesByTitle.get(key);
    if (same) same.push(series);
    else seriesByTitle.set(key, [series]);
  }
  const booksCache = new Map<string, { bookId: string; number: string; title: string }[]>();
  const booksOfSeries = (seriesId: string) => {
    let found = booksCache.get(seriesId);
    if (!found) {
      found = ctx.repos.books.findLiveNumbersBySeries(seriesId);
      booksCache.set(seriesId, found);
    }
    return found;
  };

  const requests: ReadListRequestMatch['requests'] = [];
  // Visibility asked once per series, not once per book that names it.
  const visible = new Map<string, boolean>();
  const canSee = (seriesId: string) => {
    let answer = visible.get(seriesId);
    if (answer === undefined) visible.set(seriesId, (answer = visibleSeries(seriesId)));
    return answer;
  };
  for (const { series: seriesName, number, volume } of books) {
    const candidates = volume ? [`${seriesName} (${volume})`, seriesName] : [seriesName];
    const wanted = [...new Set(candidates.map((c) => c.toLowerCase()))];
    const matches = wanted
      .flatMap((title) => seriesByTitle.get(title) ?? [])
      .filter((s) => canSee(s.id))
      .map((s) => ({
        series: { seriesId: s.id, title: s.title, ...(s.releaseDate ? { releaseDate: s.releaseDate } : {}) },
        books: booksOfSeries(s.id).filter((b) => sameNumber(b.number, number)),
      }))
      .filter((m) => m.books.length > 0);
    requests.push({ request: { series: candidates, number }, matches });
  }
  const nameTaken = ctx.repos.readLists.findByName(name) !== undefined;
  // ERR_1009 (retired in Komga but still meaningful): a read list with this name exists.
  return { readListMatch: { name, errorCode: nameTaken ? 'ERR_1009' : '' }, requests, errorCode: '' };
}
