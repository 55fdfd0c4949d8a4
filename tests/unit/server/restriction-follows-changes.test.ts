import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, rescan, startServer, type TestServer } from './helpers.ts';
import { scanLibrary } from '../../../server/domain/library/scanner.ts';
import { BOOK_FAMILIES, type Target, countMismatches, markTarget, seriesCountMismatches, views } from './support/restricted-views.ts';

/*
 * A restricted reader's view must follow every change on the very next request, on every route
 * family (support/restricted-views.ts). The steps below run in order on one real server, one real
 * SQLite file and generated archives; each makes one change the way an admin or a scan does, and
 * says whether the target series and book must then be shown. Every family must agree: one that
 * still shows a hidden item (or hides a visible one) missed the change.
 */

let s: TestServer;
let root: string;
let other: string;
let base: string;
const reader = { authorization: basic('reader@example.org', 'pw') };
let readerId: string;
const ids: Record<string, string> = {};

const cbz = (path: string, color: [number, number, number]) =>
  createCbz(path, [{ width: 40, height: 60, color, format: 'png' }, { width: 40, height: 60, color: BLUE, format: 'png' }]);

const seriesNamed = async (name: string) => {
  const found = (await s.json<Page<SeriesDto>>(`/api/v1/series?unpaged=true`)).content.filter((x) => x.name === name && !x.deleted);
  if (found.length !== 1) throw new Error(`${found.length} series named ${name}`);
  return found[0]!;
};
const firstBook = async (seriesId: string) => (await s.json<Page<BookDto>>(`/api/v1/series/${seriesId}/books?unpaged=true`)).content.filter((b) => !b.deleted)[0]!;

async function target(name: string): Promise<Target> {
  const series = await seriesNamed(name);
  const book = await firstBook(series.id);
  return { seriesId: series.id, bookId: book.id, seriesTitle: name, libraryId: series.libraryId, collectionId: ids.collection, readListId: ids.readList, marked: name === 'Alpha' };
}

const admin = (method: 'PATCH' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: s.admin, ...(payload ? { payload } : {}) }).then((r) => {
    if (r.statusCode >= 300) throw new Error(`${method} ${url} → ${r.statusCode}: ${r.body}`);
    return r;
  });
const patchSeries = async (name: string, payload: object) => admin('PATCH', `/api/v1/series/${(await seriesNamed(name)).id}/metadata`, payload);
const patchReader = (payload: object) => admin('PATCH', `/api/v2/users/${readerId}`, payload);

/**
 * Whether the reader's event stream is told of a change to the target series and book: both are
 * touched through the API (their summary), then an event every stream of the reader gets (their
 * own read progress, named by no series) closes the question: the stream writes in order, so once
 * it has that one, any event about the target it was going to get is there too.
 */
async function eventsShown(t: Target): Promise<{ series: boolean; book: boolean }> {
  const controller = new AbortController();
  const response = await fetch(`${base}/sse/v1/events`, { headers: reader, signal: controller.signal });
  expect(response.status).toBe(200);
  const decoder = new TextDecoder();
  const body = response.body!.getReader();
  let text = '';
  const sentinel = `sentinel-${Math.random().toString(36).slice(2)}`;
  try {
    // The stream's first comment: it is subscribed from here on.
    while (!text.includes(':')) text += decoder.decode((await body.read()).value);
    await admin('PATCH', `/api/v1/series/${t.seriesId}/metadata`, { summary: `touched ${sentinel}` });
    await admin('PATCH', `/api/v1/books/${t.bookId}/metadata`, { summary: `touched ${sentinel}` });
    s.app.folio.events.emit({ name: 'ReadProgressChanged', data: { bookId: sentinel, userId: readerId }, userId: readerId });
    while (!text.includes(sentinel)) {
      const { value, done } = await body.read();
      if (done) throw new Error(`the event stream ended before its sentinel: ${text}`);
      text += decoder.decode(value);
    }
  } finally {
    controller.abort();
  }
  return { series: text.includes(`"seriesId":"${t.seriesId}"`), book: text.includes(`"bookId":"${t.bookId}"`) };
}

beforeAll(async () => {
  s = await startServer({ sseHeartbeatMs: 600_000 });
  base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  root = join(s.dir, 'lib');
  other = join(s.dir, 'other');
  await cbz(join(root, 'Alpha', 'Alpha 1.cbz'), RED);
  await cbz(join(root, 'Alpha', 'Alpha 2.cbz'), GREEN);
  await cbz(join(root, 'Beta', 'Beta 1.cbz'), GREEN);
  await cbz(join(other, 'Gamma', 'Gamma 1.cbz'), BLUE);
  ids.library = (await addLibrary(s, root, 'Main')).id;
  ids.other = (await addLibrary(s, other, 'Other')).id;
  readerId = await insertUser(s, 'reader@example.org', 'pw', ['PAGE_STREAMING', 'FILE_DOWNLOAD']);
  await patchReader({ ageRestriction: { age: 16, restriction: 'EXCLUDE' }, labelsExclude: ['adult'] });
  const alpha = await seriesNamed('Alpha');
  const beta = await seriesNamed('Beta');
  ids.collection = ((await admin('POST', '/api/v1/collections', { name: 'Both', ordered: true, seriesIds: [alpha.id, beta.id] })).json() as { id: string }).id;
  const books = [(await firstBook(alpha.id)).id, (await firstBook(beta.id)).id];
  ids.readList = ((await admin('POST', '/api/v1/readlists', { name: 'Reading', ordered: true, bookIds: books })).json() as { id: string }).id;
  await markTarget(s, await target('Alpha'));
});
afterAll(async () => {
  await s?.close();
});

interface Step {
  change: string;
  act: () => Promise<unknown>;
  /** The series whose visibility the step is about (its first book is the target book). */
  series: string;
  /** The book the step is about when not the series' first. */
  book?: () => string;
  shown: boolean;
  /** Whether the target book is shown, when not as its series (a book awaiting analysis). */
  bookShown?: boolean;
}

/** Records what the scan finds without analysing it: new or replaced books stay awaiting analysis. */
const scanOnly = (libraryId: string) => scanLibrary(s.app.folio, libraryId);
const bookNamed = (name: string) => s.app.folio.repos.books.findByLibrary(ids.library!).find((b) => b.name === name && b.deletedDate === null)!.id;

const steps: Step[] = [
  { change: 'nothing yet', act: async () => {}, series: 'Alpha', shown: true },
  { change: 'series age rating 18 (metadata PATCH)', act: () => patchSeries('Alpha', { ageRating: 18 }), series: 'Alpha', shown: false },
  { change: 'series age rating cleared', act: () => patchSeries('Alpha', { ageRating: null }), series: 'Alpha', shown: true },
  { change: 'sharing label "Adult" added', act: () => patchSeries('Alpha', { sharingLabels: ['Adult'] }), series: 'Alpha', shown: false },
  { change: 'sharing label removed', act: () => patchSeries('Alpha', { sharingLabels: [] }), series: 'Alpha', shown: true },
  {
    change: 'series.json says Adult, on rescan',
    act: async () => {
      await writeFile(join(root, 'Alpha', 'series.json'), JSON.stringify({ metadata: { type: 'comicSeries', name: 'Alpha', age_rating: 'Adult' } }));
      await rescan(s, ids.library!);
    },
    series: 'Alpha',
    shown: false,
  },
  { change: 'age rating 12 locked', act: () => patchSeries('Alpha', { ageRating: 12, ageRatingLock: true }), series: 'Alpha', shown: true },
  {
    change: 'series metadata refreshed while locked',
    act: async () => admin('POST', `/api/v1/series/${(await seriesNamed('Alpha')).id}/metadata/refresh`).then(() => s.app.folio.tasks.idle()),
    series: 'Alpha',
    shown: true,
  },
  {
    change: 'unlocked, refreshed: series.json applies again',
    act: async () => {
      await patchSeries('Alpha', { ageRatingLock: false });
      await admin('POST', `/api/v1/series/${(await seriesNamed('Alpha')).id}/metadata/refresh`);
      await s.app.folio.tasks.idle();
    },
    series: 'Alpha',
    shown: false,
  },
  { change: "reader's age limit raised to EXCLUDE 19", act: () => patchReader({ ageRestriction: { age: 19, restriction: 'EXCLUDE' } }), series: 'Alpha', shown: true },
  { change: 'reader ALLOW_ONLY 12', act: () => patchReader({ ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' } }), series: 'Alpha', shown: false },
  // As in Komga (KomgaUser.isContentAllowed), the role does not lift restrictions.
  { change: 'reader made ADMIN: still restricted', act: () => patchReader({ roles: ['ADMIN', 'PAGE_STREAMING', 'FILE_DOWNLOAD'] }), series: 'Alpha', shown: false },
  { change: 'reader no longer ADMIN', act: () => patchReader({ roles: ['PAGE_STREAMING', 'FILE_DOWNLOAD'] }), series: 'Alpha', shown: false },
  { change: 'reader age restriction removed', act: () => patchReader({ ageRestriction: { age: 0, restriction: 'NONE' } }), series: 'Alpha', shown: true },
  { change: 'reader allowed only label "kids"', act: () => patchReader({ labelsAllow: ['kids'] }), series: 'Alpha', shown: false },
  { change: 'series labelled "Kids"', act: () => patchSeries('Alpha', { sharingLabels: ['Kids'] }), series: 'Alpha', shown: true },
  { change: 'reader excludes "kids" as well', act: () => patchReader({ labelsExclude: ['adult', 'kids'] }), series: 'Alpha', shown: false },
  { change: 'reader allow and exclude lists emptied', act: () => patchReader({ labelsAllow: [], labelsExclude: ['adult'] }), series: 'Alpha', shown: true },
  { change: 'reader shared the other library only', act: () => patchReader({ sharedLibraries: { all: false, libraryIds: [ids.other] } }), series: 'Alpha', shown: false },
  { change: 'reader shared both libraries', act: () => patchReader({ sharedLibraries: { all: false, libraryIds: [ids.other, ids.library] } }), series: 'Alpha', shown: true },
  { change: 'reader shares all again, EXCLUDE 16', act: () => patchReader({ sharedLibraries: { all: true, libraryIds: [] }, ageRestriction: { age: 16, restriction: 'EXCLUDE' } }), series: 'Alpha', shown: false },
  {
    change: 'a new series scanned in, rated Adult by its series.json',
    act: async () => {
      await cbz(join(root, 'Delta', 'Delta 1.cbz'), RED);
      await writeFile(join(root, 'Delta', 'series.json'), JSON.stringify({ metadata: { type: 'comicSeries', name: 'Delta', age_rating: 'Adult' } }));
      await rescan(s, ids.library!);
    },
    series: 'Delta',
    shown: false,
  },
  { change: 'a new series scanned in, unrated', act: async () => { await cbz(join(root, 'Epsilon', 'Epsilon 1.cbz'), RED); await rescan(s, ids.library!); }, series: 'Epsilon', shown: true },
  {
    change: "Beta's book moved into hidden Alpha",
    act: async () => {
      ids.movedBook = (await firstBook((await seriesNamed('Beta')).id)).id;
      await rename(join(root, 'Beta', 'Beta 1.cbz'), join(root, 'Alpha', 'Beta 1.cbz'));
      await rescan(s, ids.library!);
    },
    series: 'Alpha',
    book: () => ids.movedBook!,
    shown: false,
  },
  {
    change: 'hidden Alpha deleted (folder gone, trash emptied), re-created unrated under the same name',
    act: async () => {
      await rm(join(root, 'Alpha'), { recursive: true });
      await rescan(s, ids.library!);
      await admin('POST', `/api/v1/libraries/${ids.library}/empty-trash`);
      await s.app.folio.tasks.idle();
      await cbz(join(root, 'Alpha', 'Alpha 1.cbz'), RED);
      await rescan(s, ids.library!);
    },
    series: 'Alpha',
    shown: true,
  },
  {
    change: 'a book whose ComicInfo says Adults Only 18+ scanned into visible Epsilon',
    act: async () => {
      await createCbz(join(root, 'Epsilon', 'Epsilon 2.cbz'), [{ width: 40, height: 60, color: RED, format: 'png' }], { comicInfo: { series: 'Epsilon', ageRating: 'Adults Only 18+' } });
      await rescan(s, ids.library!);
    },
    series: 'Epsilon',
    shown: false,
  },
  {
    change: 'a rated book moved from Zeta into unrated Eta',
    act: async () => {
      await cbz(join(root, 'Eta', 'Eta 1.cbz'), RED);
      await createCbz(join(root, 'Zeta', 'Zeta 1.cbz'), [{ width: 40, height: 60, color: RED, format: 'png' }], { comicInfo: { ageRating: 'Adults Only 18+' } });
      await cbz(join(root, 'Zeta', 'Zeta 2.cbz'), RED);
      await rescan(s, ids.library!);
      expect((await views(s, reader, await target('Eta')))['REST series']).toBe(true);
      await rename(join(root, 'Zeta', 'Zeta 1.cbz'), join(root, 'Eta', 'Zeta 1.cbz'));
      await rescan(s, ids.library!);
    },
    series: 'Eta',
    shown: false,
  },
  {
    change: 'reader shares Main only; a book of Beta moved to the Other library',
    act: async () => {
      await patchReader({ sharedLibraries: { all: false, libraryIds: [ids.library] }, ageRestriction: { age: 0, restriction: 'NONE' }, labelsExclude: [] });
      await cbz(join(root, 'Beta', 'Beta 2.cbz'), GREEN);
      await rescan(s, ids.library!);
      expect((await views(s, reader, await target('Beta')))['REST book']).toBe(true);
      await rename(join(root, 'Beta', 'Beta 2.cbz'), join(other, 'Gamma', 'Beta 2.cbz'));
      await rescan(s, ids.library!);
      await rescan(s, ids.other!);
      // Not a move across libraries (as in Komga): the old record stays in Main's trash, the file is a new book of Other.
      ids.movedToOther = s.app.folio.repos.books.findByLibrary(ids.other!).find((b) => b.name === 'Beta 2')!.id;
    },
    series: 'Gamma',
    book: () => ids.movedToOther!,
    shown: false,
  },
  // A new book of a series shown may rate it out of reach (its ComicInfo): until analysed it is
  // kept from an age-restricted reader as a new series is, listed nowhere, counted nowhere.
  {
    change: 'reader EXCLUDE 16 again; a new book scanned into shown Alpha, not analysed yet',
    act: async () => {
      await patchReader({ sharedLibraries: { all: true, libraryIds: [] }, ageRestriction: { age: 16, restriction: 'EXCLUDE' }, labelsExclude: ['adult'] });
      await createCbz(join(root, 'Alpha', 'Alpha 3.cbz'), [{ width: 40, height: 60, color: GREEN, format: 'png' }, { width: 40, height: 60, color: BLUE, format: 'png' }], { comicInfo: { series: 'Alpha', ageRating: 'Everyone' } });
      await scanOnly(ids.library!);
    },
    series: 'Alpha',
    book: () => bookNamed('Alpha 3'),
    shown: true,
    bookShown: false,
  },
  { change: 'the new book analysed: Alpha stays unrated', act: () => rescan(s, ids.library!), series: 'Alpha', book: () => bookNamed('Alpha 3'), shown: true },
  {
    change: "the new book's file replaced by one whose ComicInfo says 18+, not analysed again yet",
    act: async () => {
      await createCbz(join(root, 'Alpha', 'Alpha 3.cbz'), [{ width: 40, height: 60, color: RED, format: 'png' }, { width: 40, height: 60, color: RED, format: 'png' }], {
        comicInfo: { series: 'Alpha', ageRating: 'Adults Only 18+' },
      });
      await scanOnly(ids.library!);
      expect(s.app.folio.repos.media.findByBookId(bookNamed('Alpha 3'))?.status).toBe('OUTDATED');
    },
    series: 'Alpha',
    book: () => bookNamed('Alpha 3'),
    shown: true,
    bookShown: false,
  },
  { change: 'the replaced file analysed: Alpha rated 18', act: () => rescan(s, ids.library!), series: 'Alpha', book: () => bookNamed('Alpha 3'), shown: false },
];

describe("a restricted reader's view follows every change at once", () => {
  it.each(steps.map((step, index) => [index, step.change, step] as const))('step %i: %s', async (_index, _change, step) => {
    await step.act();
    const t = await target(step.series);
    if (step.book) t.bookId = step.book();
    // What the admin is shown says where the item is at all (a collection holds Alpha and Beta
    // only, the read list their first books): the reader must be shown it there, and only there,
    // when the step says so.
    const everything = await views(s, s.admin, t);
    // The admin is shown the target itself: a step whose target is gone would prove nothing.
    expect([everything['REST series'], everything['REST book']]).toEqual([true, true]);
    // Every family shows the untouched target: a probe that shows nothing would prove nothing.
    if (_index === 0) expect(Object.entries(everything).filter(([, shown]) => !shown)).toEqual([]);
    const seen = await views(s, reader, t);
    const bookShown = step.bookShown ?? step.shown;
    const wrong = Object.entries(seen).filter(([family, shown]) => shown !== (everything[family]! && (BOOK_FAMILIES.has(family) ? bookShown : step.shown)));
    expect(wrong.map(([family, shown]) => `${family}: ${shown ? 'shown' : 'hidden'}`)).toEqual([]);
    expect(await countMismatches(s, reader)).toEqual([]);
    expect(await seriesCountMismatches(s, reader, t)).toEqual([]);
    // The event stream's audience follows the same rules, whatever the change was.
    expect(await eventsShown(t)).toEqual({ series: step.shown, book: bookShown });
  });
});

describe('drawn posters of collections and read lists', () => {
  it("draw only the members the reader is shown, from the very next request", async () => {
    // After the steps Gamma (in Other) is unrated, so shown to a reader of every library with EXCLUDE 16; Alpha is rated in and out of reach.
    await patchReader({ sharedLibraries: { all: true, libraryIds: [] }, ageRestriction: { age: 16, restriction: 'EXCLUDE' }, labelsAllow: [], labelsExclude: [] });
    const alpha = await seriesNamed('Alpha');
    const gamma = await seriesNamed('Gamma');
    const [alphaBook, gammaBook] = [await firstBook(alpha.id), await firstBook(gamma.id)];
    const both = { collection: (await admin('POST', '/api/v1/collections', { name: 'Mosaic both', ordered: true, seriesIds: [alpha.id, gamma.id] })).json().id, readList: (await admin('POST', '/api/v1/readlists', { name: 'Mosaic both', ordered: true, bookIds: [alphaBook.id, gammaBook.id] })).json().id };
    const gammaOnly = { collection: (await admin('POST', '/api/v1/collections', { name: 'Mosaic gamma', ordered: true, seriesIds: [gamma.id] })).json().id, readList: (await admin('POST', '/api/v1/readlists', { name: 'Mosaic gamma', ordered: true, bookIds: [gammaBook.id] })).json().id };
    const mosaic = async (kind: 'collections' | 'readlists', id: string, who: Record<string, string>) => {
      const response = await s.get(`/api/v1/${kind}/${id}/thumbnail`, who);
      expect(response.statusCode).toBe(200);
      return response.rawPayload;
    };
    const drawn = async () => ({
      collection: (await mosaic('collections', both.collection, reader)).equals(await mosaic('collections', gammaOnly.collection, s.admin)),
      readList: (await mosaic('readlists', both.readList, reader)).equals(await mosaic('readlists', gammaOnly.readList, s.admin)),
      sameAsAdmin: (await mosaic('collections', both.collection, reader)).equals(await mosaic('collections', both.collection, s.admin)),
    });
    await patchSeries('Alpha', { ageRating: null });
    expect(await drawn()).toEqual({ collection: false, readList: false, sameAsAdmin: true });
    await patchSeries('Alpha', { ageRating: 18 });
    // Alpha hidden: the reader's mosaics are Gamma's alone, as an admin's of a list of Gamma alone.
    expect(await drawn()).toEqual({ collection: true, readList: true, sameAsAdmin: false });
  });
});

describe('what a hidden item answers', () => {
  it('revalidating a list answers 304 after a change to a hidden series, 200 after one to a shown series', async () => {
    await patchReader({ sharedLibraries: { all: true, libraryIds: [] }, ageRestriction: { age: 16, restriction: 'EXCLUDE' }, labelsAllow: [], labelsExclude: [] });
    await patchSeries('Alpha', { ageRating: 18 });
    const lists = ['/api/v1/series?unpaged=true', '/api/v1/books?unpaged=true', `/opds/v1.2/libraries/${ids.library}`, '/opds/v2/catalog', '/api/v2/genres'];
    // The OPDS feeds are dated now, to the second (as Komga's): a second boundary between two
    // reads changes their tags whatever the library did (2 runs in 3 failed so). The clock stands
    // still here; timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onTestFinished(() => void vi.useRealTimers());
    const tags = new Map<string, string>();
    for (const url of lists) tags.set(url, String((await s.get(url, reader)).headers.etag));
    // Hidden Alpha's title, genres and summary change: nothing the reader is shown changes.
    await patchSeries('Alpha', { title: 'Alpha renamed', genres: ['Hidden genre'], summary: 'changed' });
    const revalidated = async () => Promise.all(lists.map(async (url) => (await s.get(url, { ...reader, 'if-none-match': tags.get(url)! })).statusCode));
    expect(await revalidated()).toEqual(lists.map(() => 304));
    // Gamma, shown, changes: every list showing it says so (not Main's OPDS feed: Gamma is in Other).
    await patchSeries('Gamma', { title: 'Gamma renamed', genres: ['Shown genre'] });
    expect(await revalidated()).toEqual([200, 200, 304, 200, 200]);
  });

  it('a hidden series or book answers exactly as an unknown id does, on every item route', async () => {
    const t = await target('Alpha');
    expect((await views(s, reader, t))['REST series']).toBe(false);
    const unknown = '0ZZZZZZZZZZZZ';
    const urls = [
      ...['', '/thumbnail', '/file', '/books', '/collections', '/thumbnails'].map((x) => `/api/v1/series/${t.seriesId}${x}`),
      ...['', '/pages', '/pages/1', '/pages/1/thumbnail', '/file', '/next', '/previous', '/readlists', '/manifest', '/positions', '/progression'].map((x) => `/api/v1/books/${t.bookId}${x}`),
      `/api/v2/series/${t.seriesId}/read-progress/tachiyomi`,
      `/opds/v1.2/series/${t.seriesId}`,
      `/opds/v2/series/${t.seriesId}`,
      `/opds/v1.2/books/${t.bookId}/pages/1`,
      `/opds/v2/books/${t.bookId}/file`,
    ];
    const answer = async (url: string, id: string) => {
      const response = await s.get(url, reader);
      const body = response.json() as Record<string, unknown>;
      return { status: response.statusCode, type: response.headers['content-type'], message: body.message, path: String(body.path).replace(id, 'ID') };
    };
    for (const url of urls) {
      const id = url.includes(t.seriesId) ? t.seriesId : t.bookId;
      expect(await answer(url, id), url).toEqual(await answer(url.replace(id, unknown), unknown));
    }
  });
});
