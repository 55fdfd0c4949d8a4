import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { shapeProblems } from './openapi-shape.ts';

let server: TestServer;
let series: SeriesDto;
let books: BookDto[];

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'lib');
  for (const n of [1, 2, 3, 4]) {
    await createCbz(join(root, 'Saga', `Saga ${n}.cbz`), [{ width: 10, height: 10, color: RED, format: 'png' }, { width: 10, height: 10, color: RED, format: 'png' }]);
  }
  await addLibrary(server, root);
  series = (await server.json<Page<SeriesDto>>('/api/v1/series')).content[0]!;
  books = (await server.json<Page<BookDto>>(`/api/v1/series/${series.id}/books`)).content;
});
afterAll(async () => {
  await server.close();
});

const put = (url: string, payload: object) => server.app.inject({ method: 'PUT', url, headers: server.admin, payload });

describe('Tachiyomi progress sync', () => {
  it('series (v2): reads the continuous progress and marks up to a number sort', async () => {
    const url = `/api/v2/series/${series.id}/read-progress/tachiyomi`;
    const initial = await server.json(url);
    expect(shapeProblems(initial, 'TachiyomiReadProgressV2Dto')).toEqual([]);
    expect(initial).toEqual({ booksCount: 4, booksReadCount: 0, booksUnreadCount: 4, booksInProgressCount: 0, lastReadContinuousNumberSort: 0, maxNumberSort: 4 });
    expect((await put(url, { lastBookNumberSortRead: 2 })).statusCode).toBe(204);
    expect(await server.json(url)).toMatchObject({ booksReadCount: 2, lastReadContinuousNumberSort: 2 });
    // A gap stops the continuous run.
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${books[3]!.id}/read-progress`, headers: server.admin, payload: { completed: true } });
    expect(await server.json(url)).toMatchObject({ booksReadCount: 3, lastReadContinuousNumberSort: 2 });
    expect((await put(url, { lastBookNumberSortRead: 'x' })).statusCode).toBe(400);
  });

  it('read list (v1): counts by position and marks the first N books', async () => {
    const list = (
      await server.app.inject({
        method: 'POST',
        url: '/api/v1/readlists',
        headers: server.admin,
        payload: { name: 'Mixed', ordered: true, bookIds: [books[2]!.id, books[0]!.id, books[1]!.id] },
      })
    ).json();
    await server.app.inject({ method: 'DELETE', url: `/api/v1/series/${series.id}/read-progress`, headers: server.admin });
    const url = `/api/v1/readlists/${list.id}/read-progress/tachiyomi`;
    expect(shapeProblems(await server.json(url), 'TachiyomiReadProgressDto')).toEqual([]);
    expect((await put(url, { lastBookRead: 2 })).statusCode).toBe(204);
    expect(await server.json(url)).toEqual({ booksCount: 3, booksReadCount: 2, booksUnreadCount: 1, booksInProgressCount: 0, lastReadContinuousIndex: 2 });
    const third = await server.json<BookDto>(`/api/v1/books/${books[2]!.id}`);
    expect(third.readProgress?.completed).toBe(true);
    expect((await server.json<BookDto>(`/api/v1/books/${books[1]!.id}`)).readProgress).toBeNull();
  });

  // Komga binds both numbers to Kotlin primitives (Float, Int): absent or null is 0 (Jackson's
  // default, jackson-module-kotlin#161), which marks nothing, rather than a 400.
  it('an absent or null number is 0: 204, nothing marked', async () => {
    await server.app.inject({ method: 'DELETE', url: `/api/v1/series/${series.id}/read-progress`, headers: server.admin });
    const seriesUrl = `/api/v2/series/${series.id}/read-progress/tachiyomi`;
    for (const body of [{}, { lastBookNumberSortRead: null }]) expect((await put(seriesUrl, body)).statusCode, JSON.stringify(body)).toBe(204);
    expect(await server.json(seriesUrl)).toMatchObject({ booksReadCount: 0 });
    const lists = await server.json<Page<{ id: string }>>('/api/v1/readlists');
    const listUrl = `/api/v1/readlists/${lists.content[0]!.id}/read-progress/tachiyomi`;
    for (const body of [{}, { lastBookRead: null }]) expect((await put(listUrl, body)).statusCode, JSON.stringify(body)).toBe(204);
    expect(await server.json(listUrl)).toMatchObject({ booksReadCount: 0 });
  });

  // Komga finds the list by the caller's libraries alone (an admin always finds it) and answers
  // 200; Folio asks the one read-list rule (canSeeReadList: an admin sees every list) and counts
  // only the books the caller is shown, so a restricted admin gets zeros, never a 404 the list's
  // own GET does not give, nor a hidden book's progress.
  it('read list (v1): an admin shown none of its books gets 200 with nothing counted, as from the list itself', async () => {
    const restrictedAdmin = { authorization: basic('radmin@example.org', 'pw') };
    const id = await insertUser(server, 'radmin@example.org', 'pw', ['ADMIN', 'PAGE_STREAMING', 'FILE_DOWNLOAD']);
    const patched = await server.app.inject({ method: 'PATCH', url: `/api/v2/users/${id}`, headers: server.admin, payload: { ageRestriction: { age: 16, restriction: 'EXCLUDE' } } });
    expect(patched.statusCode).toBe(204);
    expect((await server.app.inject({ method: 'PATCH', url: `/api/v1/series/${series.id}/metadata`, headers: server.admin, payload: { ageRating: 18 } })).statusCode).toBe(204);
    try {
      const list = (
        await server.app.inject({ method: 'POST', url: '/api/v1/readlists', headers: server.admin, payload: { name: 'All hidden', bookIds: [books[0]!.id, books[1]!.id] } })
      ).json();
      expect((await server.app.inject({ url: `/api/v1/readlists/${list.id}`, headers: restrictedAdmin })).statusCode).toBe(200);
      const url = `/api/v1/readlists/${list.id}/read-progress/tachiyomi`;
      const answer = await server.app.inject({ url, headers: restrictedAdmin });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ booksCount: 0, booksReadCount: 0, booksUnreadCount: 0, booksInProgressCount: 0, lastReadContinuousIndex: 0 });
      // Marking marks none of the hidden books.
      const marked = await server.app.inject({ method: 'PUT', url, headers: restrictedAdmin, payload: { lastBookRead: 2 } });
      expect(marked.statusCode).toBe(204);
      for (const book of books.slice(0, 2)) expect(server.app.folio.repos.readProgress.find(book.id, id)).toBeUndefined();
      expect(await server.json(`/api/v1/readlists/${list.id}/read-progress/tachiyomi`)).toMatchObject({ booksCount: 2 });
      // An unknown list is still 404.
      expect((await server.app.inject({ url: '/api/v1/readlists/nope/read-progress/tachiyomi', headers: restrictedAdmin })).statusCode).toBe(404);
    } finally {
      await server.app.inject({ method: 'PATCH', url: `/api/v1/series/${series.id}/metadata`, headers: server.admin, payload: { ageRating: null } });
    }
  });
});
