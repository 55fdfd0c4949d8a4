import type { APIRequestContext, Locator } from '@playwright/test';
import path from 'node:path';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { createCbz, type ComicInfoSpec, type PageSpec, type Rgb } from '../../fixtures/comics.ts';
import { clockTick, pollUntil } from '../../support/poll.ts';

/**
 * A generated library for the browsing specs: a few series with ComicInfo metadata that gives
 * every filter something to find (genres, tags, publishers, languages, age ratings, release
 * years, writers), plus plain "Filler" series so lists need more than one page.
 */

export interface BrowseSeriesSpec {
  /** Folder name: the series' name, and its "Folder name" sort key. */
  folder: string;
  books: number;
  /** Series-level ComicInfo fields repeated in every book; the book number is added per book. */
  info?: ComicInfoSpec;
  /** Release date of book n (1-based), when it should differ from `info.year`. */
  releaseDate?: (n: number) => { year: number; month: number; day: number };
}

const TINY: Omit<PageSpec, 'color'> = { width: 60, height: 90, format: 'png' };
const COLOURS: Rgb[] = [
  [200, 40, 40],
  [40, 160, 60],
  [40, 80, 200],
];

/** The day `days` before today, as ComicInfo Year/Month/Day. */
export function daysAgo(days: number): { year: number; month: number; day: number } {
  const date = new Date(Date.now() - days * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/**
 * The featured series (tag "featured"): titles differ from folder names so "Name" and
 * "Folder name" sorts give different orders; book counts and release years all differ.
 *   title           folder   books  publisher     genre    lang  age  first release
 *   Aurora Knights  Aurora   3      Dawn Press    Fantasy  en    13   2019
 *   Blue Harbor     Harbor   2      Tidal Comics  Drama    fr    0    2021
 *   Crimson Tide    Crimson  1      Dawn Press    Action   ja    17   2015
 *   Delta Files     Delta    4      Quay Books    Mystery  de    –    3 days ago
 */
export const FEATURED: BrowseSeriesSpec[] = [
  {
    folder: 'Aurora',
    books: 3,
    info: {
      series: 'Aurora Knights', publisher: 'Dawn Press', genre: 'Fantasy', tags: 'featured, knights', languageIso: 'en',
      ageRating: 'Teen', year: 2019, month: 3, day: 1, writer: 'Ada Quill',
    },
  },
  {
    folder: 'Harbor',
    books: 2,
    info: {
      series: 'Blue Harbor', publisher: 'Tidal Comics', genre: 'Drama', tags: 'featured', languageIso: 'fr',
      ageRating: 'Everyone', year: 2021, month: 6, day: 1, writer: 'Bruno Plume',
    },
  },
  {
    folder: 'Crimson',
    books: 1,
    info: {
      series: 'Crimson Tide', publisher: 'Dawn Press', genre: 'Action', tags: 'featured', languageIso: 'ja',
      ageRating: 'Mature 17+', year: 2015, month: 1, day: 1, writer: 'Chiaki Fude',
    },
  },
  {
    folder: 'Delta',
    books: 4,
    info: { series: 'Delta Files', publisher: 'Quay Books', genre: 'Mystery', tags: 'featured', languageIso: 'de', writer: 'Ada Quill' },
    releaseDate: () => daysAgo(3),
  },
];

/** `count` one-book series without metadata: "Filler 01", "Filler 02", … */
export function fillers(count: number): BrowseSeriesSpec[] {
  return Array.from({ length: count }, (_, i) => ({ folder: `Filler ${String(i + 1).padStart(2, '0')}`, books: 1 }));
}

/** Writes `<root>/<folder>/<folder> NN.cbz` for every book; two tiny pages each. */
export async function writeBrowseLibrary(root: string, series: readonly BrowseSeriesSpec[]): Promise<void> {
  for (const spec of series) {
    for (let n = 1; n <= spec.books; n++) {
      const file = path.join(root, spec.folder, `${spec.folder} ${String(n).padStart(2, '0')}.cbz`);
      const comicInfo = spec.info ? { ...spec.info, number: String(n), ...(spec.releaseDate?.(n) ?? {}) } : undefined;
      const pages = [0, 1].map((i) => ({ ...TINY, color: COLOURS[(n + i) % COLOURS.length] ?? [0, 0, 0] }) as PageSpec);
      await createCbz(file, pages, comicInfo ? { comicInfo } : {});
    }
  }
}

async function json<T>(request: APIRequestContext, method: string, url: string, data?: unknown): Promise<T> {
  const response = await request.fetch(url, {
    method,
    data,
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  if (!response.ok()) throw new Error(`${method} ${url}: ${response.status()} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Thin typed wrappers over the real API, bound to one server and one browser context. */
export function folioApi(request: APIRequestContext, url: string) {
  const api = {
    get: <T>(p: string) => json<T>(request, 'GET', `${url}${p}`),
    send: <T>(method: string, p: string, data?: unknown) => json<T>(request, method, `${url}${p}`, data),
    allSeries: async () => (await api.get<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content,
    allBooks: async () => (await api.get<Page<BookDto>>('/api/v1/books?unpaged=true')).content,
    async seriesByTitle(title: string): Promise<SeriesDto> {
      const found = (await api.allSeries()).find((s) => s.metadata.title === title || s.name === title);
      if (!found) throw new Error(`no series titled ${title}`);
      return found;
    },
    async bookByName(name: string): Promise<BookDto> {
      const found = (await api.allBooks()).find((b) => b.name === name || b.metadata.title === name);
      if (!found) throw new Error(`no book named ${name}`);
      return found;
    },
    markRead: (bookId: string) => api.send('PATCH', `/api/v1/books/${bookId}/read-progress`, { completed: true }),
    markPage: (bookId: string, page: number) => api.send('PATCH', `/api/v1/books/${bookId}/read-progress`, { page }),
    /**
     * Waits until the scan has imported ComicInfo series metadata, i.e. every given series title
     * is known (analysis finishing does not mean metadata is in yet).
     */
    async waitForTitles(titles: readonly string[]): Promise<void> {
      await pollUntil(
        `series metadata imported: ${titles.join(', ')}`,
        async () => {
          const known = new Set((await api.allSeries()).map((s) => s.metadata.title));
          return titles.every((t) => known.has(t));
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
    },
    /**
     * Marks books read (a number: read up to that page) one after the other, each with a later read
     * date than the one before: the server stamps a change after its answer's moment, so each waits
     * for the clock to move on from the previous answer.
     */
    async markInOrder(marks: readonly [name: string, progress: 'read' | number][]): Promise<void> {
      for (const [name, progress] of marks) {
        const { id } = await api.bookByName(name);
        await (progress === 'read' ? api.markRead(id) : api.markPage(id, progress));
        await clockTick();
      }
    },
  };
  return api;
}

/** The names of the card links in a grid, in the order shown. */
export async function cardTitles(list: Locator): Promise<string[]> {
  return list.getByRole('listitem').getByRole('link').allInnerTexts();
}
