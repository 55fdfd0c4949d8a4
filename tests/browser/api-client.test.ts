import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getClaimStatus, getCurrentUser, login } from '../../src/api/auth.ts';
import {
  bookThumbnailUrl, deleteReadProgress, getBook, getBookPages, getBooks, pageUrl, pageVersion,
  updateReadProgress,
} from '../../src/api/books.ts';
import { readListNeighbours, seriesNeighbours } from '../../src/api/bookNeighbours.ts';
import { browseBooks, browseSeries, getOnDeckBooks } from '../../src/api/browse.ts';
import {
  createCollection, createReadList, deleteCollection, deleteReadList, getCollection, getCollections, getReadListBooks,
  getReadList, getSeriesCollections, setCollectionSeries,
} from '../../src/api/collections.ts';
import { ApiError, setUnauthorizedHandler } from '../../src/api/http.ts';
import { createLibrary, getLibraries, getLibrary } from '../../src/api/libraries.ts';
import { getSeries, getSeriesBooks, getSeriesList } from '../../src/api/series.ts';
import type { BookDto } from '../../src/api/types.ts';
import { inject } from 'vitest';
import { logInAsAdmin, seedLibrary } from './support/folio.ts';

/**
 * The web client's API module against the real server of this run (no mock between them): what
 * each call sends is what the server understands, and what the server answers has the shape the
 * client's types promise. Errors arrive as ApiError with the status and the server's message.
 * Everything here is named "Api …" so other files running at the same time are not disturbed.
 */
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];

let libraryId = '';
let books: BookDto[] = [];
const book = (name: string) => {
  const found = books.find((b) => b.name === name);
  if (!found) throw new Error(`no book ${name}`);
  return found;
};

/** The promise's rejection, which must be an ApiError. */
async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  await logInAsAdmin();
  libraryId = await seedLibrary('api-client', [
    { folder: 'Api Saga', books: [{ name: 'Api Saga 01', pages: [RED, GREEN, RED] }, { name: 'Api Saga 02', pages: [GREEN, RED] }] },
    { folder: 'Api Other', books: [{ name: 'Api Other 01', pages: [GREEN] }] },
  ]);
  books = (await getBooks({ libraryId: [libraryId] }, { unpaged: true })).content;
});

afterAll(() => setUnauthorizedHandler(undefined));

describe('src/api against the real server', () => {
  it('reads the session and the claim status', async () => {
    expect(await getClaimStatus()).toEqual({ isClaimed: true });
    const me = await getCurrentUser();
    expect(me).toMatchObject({ email: inject('folioAdmin').email, roles: expect.arrayContaining(['ADMIN']) });
    expect(me.id).toEqual(expect.any(String));
  });

  it('reports refused credentials as a 401 ApiError and tells the unauthorized handler', async () => {
    const told: string[] = [];
    setUnauthorizedHandler((action) => told.push(action));
    const error = await apiError(login(inject('folioAdmin').email, 'not the password', false));
    expect(error).toMatchObject({ status: 401, action: 'log_in' });
    expect(told).toEqual(['log_in']);
    // The session this page already had is untouched.
    expect((await getCurrentUser()).email).toBe(inject('folioAdmin').email);
  });

  it('lists libraries, series and books with the fields the client reads', async () => {
    const library = await getLibrary(libraryId);
    expect(library).toMatchObject({ id: libraryId, name: 'api-client', root: expect.stringContaining('api-client') });
    expect((await getLibraries()).map((l) => l.id)).toContain(libraryId);

    const series = await getSeriesList({ libraryId: [libraryId] }, { sort: ['metadata.titleSort,asc'] });
    expect(series.content.map((s) => s.metadata.title)).toEqual(['Api Other', 'Api Saga']);
    expect(series).toMatchObject({ totalElements: 2, number: 0, first: true, last: true });
    const saga = series.content[1]!;
    expect(await getSeries(saga.id)).toMatchObject({ id: saga.id, libraryId, booksCount: 2, name: 'Api Saga' });
    const sagaBooks = await getSeriesBooks(saga.id, { sort: ['metadata.numberSort,desc'] });
    expect(sagaBooks.content.map((b) => b.name)).toEqual(['Api Saga 02', 'Api Saga 01']);

    expect(books).toHaveLength(3);
    const first = await getBook(book('Api Saga 01').id);
    expect(first).toMatchObject({
      seriesId: saga.id,
      seriesTitle: 'Api Saga',
      libraryId,
      media: { status: 'READY', mediaType: 'application/zip', pagesCount: 3 },
      metadata: { title: 'Api Saga 01', number: '1', numberSort: 1 },
      readProgress: null,
    });
    expect(await getBookPages(first.id)).toEqual([1, 2, 3].map((number) =>
      expect.objectContaining({ number, mediaType: 'image/png', width: 600, height: 900 }),
    ));
  });

  it('finds neighbours in the series, null past the end', async () => {
    expect(await seriesNeighbours(book('Api Saga 01'))).toMatchObject({ previous: null, next: { id: book('Api Saga 02').id } });
    expect(await seriesNeighbours(book('Api Saga 02'))).toMatchObject({ previous: { id: book('Api Saga 01').id }, next: null });
  });

  it('builds page and thumbnail addresses the server answers with images', async () => {
    const first = book('Api Saga 01');
    const page = await fetch(pageUrl(first.id, 2, undefined, pageVersion(first)));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('image/png');
    const bitmap = await createImageBitmap(await page.blob());
    expect([bitmap.width, bitmap.height]).toEqual([600, 900]);
    const converted = await fetch(pageUrl(first.id, 1, 'jpeg'));
    expect(converted.headers.get('content-type')).toBe('image/jpeg');
    const thumbnail = await fetch(bookThumbnailUrl(first.id));
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\//);
  });

  it('saves, reads back and removes read progress; browse and On Deck follow it', async () => {
    const first = book('Api Saga 01');
    await updateReadProgress(first.id, { page: 2 });
    expect((await getBook(first.id)).readProgress).toMatchObject({ page: 2, completed: false });
    const inProgress = await browseBooks({ libraryIds: [libraryId], readStatus: ['IN_PROGRESS'] });
    expect(inProgress.content.map((b) => b.id)).toEqual([first.id]);

    await updateReadProgress(first.id, { completed: true });
    expect((await getBook(first.id)).readProgress).toMatchObject({ page: 3, completed: true });
    const onDeck = await getOnDeckBooks([libraryId]);
    expect(onDeck.content.map((b) => b.id)).toEqual([book('Api Saga 02').id]);
    const read = await browseSeries({ libraryIds: [libraryId], readStatus: ['IN_PROGRESS'] });
    expect(read.content.map((s) => s.metadata.title)).toEqual(['Api Saga']);

    await deleteReadProgress(first.id);
    expect((await getBook(first.id)).readProgress).toBeNull();
  });

  it('creates, changes and deletes collections and read lists', async () => {
    const saga = book('Api Saga 01').seriesId;
    const other = book('Api Other 01').seriesId;
    const collection = await createCollection('Api Picks', [saga]);
    expect(collection).toMatchObject({ name: 'Api Picks', seriesIds: [saga], ordered: false });
    await setCollectionSeries(collection.id, [saga, other]);
    expect((await getCollection(collection.id)).seriesIds).toEqual([saga, other]);
    expect((await getSeriesCollections(other)).map((c) => c.id)).toEqual([collection.id]);
    expect((await getCollections({ search: 'api pick' })).content.map((c) => c.id)).toContain(collection.id);
    // The same name again, whatever the case: the server refuses it and says why.
    const duplicate = await apiError(createCollection('api picks', [other]));
    expect(duplicate).toMatchObject({ status: 400, action: 'add_collection' });
    expect(duplicate.serverMessage).toEqual(expect.any(String));

    const readList = await createReadList('Api Order', [book('Api Other 01').id, book('Api Saga 01').id]);
    expect((await getReadListBooks(readList.id, {})).content.map((b) => b.name)).toEqual(['Api Other 01', 'Api Saga 01']);
    const listed = await getReadList(readList.id);
    expect(await readListNeighbours(listed, book('Api Other 01').id)).toMatchObject({ previous: null, next: { name: 'Api Saga 01' } });
    expect(await readListNeighbours(listed, book('Api Saga 01').id)).toMatchObject({ previous: { name: 'Api Other 01' }, next: null });

    await deleteReadList(readList.id);
    await deleteCollection(collection.id);
    expect(await apiError(getCollection(collection.id))).toMatchObject({ status: 404 });
  });

  it('turns the server\'s refusals into ApiErrors naming the action and the status', async () => {
    expect(await apiError(getBook('no-such-book'))).toMatchObject({ status: 404, action: 'retrieve_book' });
    const badRoot = await apiError(createLibrary({ name: 'Api Nowhere', root: '/no/such/folder/anywhere' }));
    expect(badRoot).toMatchObject({ status: 400, action: 'add_library' });
    expect(badRoot.message).toContain('HTTP 400');
  });

  it('with `now`, the book, its pages and its series are asked for within the call, and answer and fail alike', async () => {
    const saga = book('Api Saga 01');
    /** When the browser started the request for `path` (its resource timing), ms since the time origin. */
    const startOf = (path: string) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname === path)
        .map((entry) => entry.startTime)
        .at(-1);
    const calls = { book: getBook(saga.id, { now: true }), pages: getBookPages(saga.id, { now: true }), series: getSeries(saga.seriesId, { now: true }) };
    const returned = performance.now();
    const [fresh, pages, series] = await Promise.all([calls.book, calls.pages, calls.series]);
    expect(fresh.id).toBe(saga.id);
    expect(pages.map((page) => page.number)).toEqual([1, 2, 3]);
    expect(series.id).toBe(saga.seriesId);
    // Started before the calls returned: the order of the calls is the order of the requests.
    for (const path of [`/api/v1/books/${saga.id}`, `/api/v1/books/${saga.id}/pages`, `/api/v1/series/${saga.seriesId}`]) {
      expect(startOf(path), path).toBeLessThanOrEqual(returned);
    }
    expect(await apiError(getBook('no-such-book', { now: true }))).toMatchObject({ status: 404, action: 'retrieve_book' });
  });
});
