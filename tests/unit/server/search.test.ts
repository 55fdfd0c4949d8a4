import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { createCbz, createSampleLibrary, RED } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let library: LibraryDto;
let second: LibraryDto;
let ids: Record<string, string>;
let seriesIds: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  const sample = await createSampleLibrary(join(server.dir, 'library'));
  library = await addLibrary(server, sample.root);
  const otherRoot = join(server.dir, 'other');
  await createCbz(join(otherRoot, 'Delta', 'Delta 1.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }]);
  second = await addLibrary(server, otherRoot, 'Other');
  const books = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
  ids = Object.fromEntries(books.content.map((b) => [b.name, b.id]));
  const series = await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true');
  seriesIds = Object.fromEntries(series.content.map((s) => [s.name, s.id]));
});
afterAll(async () => {
  await server.close();
});

const postBooks = async (body: unknown, query = '') => {
  const response = await server.app.inject({ method: 'POST', url: `/api/v1/books/list${query}`, headers: server.admin, payload: body as object });
  return response;
};
const bookNames = async (body: unknown, query = '') => {
  const response = await postBooks(body, query);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Page<BookDto>).content.map((b) => b.name);
};
const seriesNames = async (body: unknown, query = '') => {
  const response = await server.app.inject({ method: 'POST', url: `/api/v1/series/list${query}`, headers: server.admin, payload: body as object });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Page<SeriesDto>).content.map((s) => s.name);
};
const is = (value: unknown) => ({ operator: 'is', value });

describe('POST /api/v1/books/list', () => {
  it('filters by library, series, media status and title', async () => {
    expect(await bookNames({ condition: { libraryId: is(second.id) } })).toEqual(['Delta 1']);
    expect(await bookNames({ condition: { seriesId: is(seriesIds.Alpha) } }, '?sort=name')).toEqual(['Alpha 01', 'Alpha 02']);
    expect(await bookNames({ condition: { mediaStatus: is('UNSUPPORTED') } })).toEqual(['broken']);
    expect(await bookNames({ condition: { title: { operator: 'beginsWith', value: 'alpha' } } }, '?sort=name')).toEqual(['Alpha 01', 'Alpha 02']);
    expect(await bookNames({ condition: { title: { operator: 'contains', value: '02' } } })).toEqual(['Alpha 02']);
    expect(await bookNames({ condition: { title: { operator: 'doesNotContain', value: 'a' } } }, '?sort=name')).toEqual(['broken']);
  });

  it('combines allOf and anyOf, and booleans', async () => {
    const body = {
      condition: {
        allOf: [
          { libraryId: is(library.id) },
          { anyOf: [{ seriesId: is(seriesIds.Beta) }, { mediaStatus: is('UNSUPPORTED') }] },
          { deleted: { operator: 'isFalse' } },
          { oneShot: { operator: 'isFalse' } },
        ],
      },
    };
    expect(await bookNames(body, '?sort=name')).toEqual(['Beta 01', 'broken']);
    expect(await bookNames({ condition: { deleted: { operator: 'isTrue' } } })).toEqual([]);
  });

  it('filters by read status and supports the documented sort keys', async () => {
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${ids['Alpha 01']}/read-progress`, headers: server.admin, payload: { completed: true } });
    expect(await bookNames({ condition: { readStatus: is('READ') } })).toEqual(['Alpha 01']);
    expect(await bookNames({ condition: { readStatus: { operator: 'isNot', value: 'UNREAD' } } })).toEqual(['Alpha 01']);
    expect(await bookNames({}, '?sort=media.pagesCount,desc&sort=name,asc')).toEqual(['Alpha 01', 'Alpha 02', 'Beta 01', 'Delta 1', 'broken']);
    expect(await bookNames({}, '?sort=metadata.title,desc')).toEqual(['Delta 1', 'broken', 'Beta 01', 'Alpha 02', 'Alpha 01']);
    expect(await bookNames({ fullTextSearch: 'beta' })).toEqual(['Beta 01']);
    await server.app.inject({ method: 'DELETE', url: `/api/v1/books/${ids['Alpha 01']}/read-progress`, headers: server.admin });
  });

  it('isNot READ and isNot IN_PROGRESS keep the unread books, as Komga does', async () => {
    // A book without progress has no completed flag: NOT (completed = 1) was NULL for it, so
    // "not read" listed only books in progress and "not in progress" only finished ones.
    const progress = async (name: string, method: 'PATCH' | 'DELETE', payload?: object) => {
      const response = await server.app.inject({ method, url: `/api/v1/books/${ids[name]}/read-progress`, headers: server.admin, payload });
      expect(response.statusCode, response.body).toBe(204);
    };
    await progress('Alpha 01', 'PATCH', { completed: true });
    await progress('Alpha 02', 'PATCH', { page: 1, completed: false });
    const isNot = (value: string) => ({ condition: { readStatus: { operator: 'isNot', value } } });
    expect(await bookNames(isNot('READ'), '?sort=name')).toEqual(['Alpha 02', 'Beta 01', 'broken', 'Delta 1']);
    expect(await bookNames(isNot('IN_PROGRESS'), '?sort=name')).toEqual(['Alpha 01', 'Beta 01', 'broken', 'Delta 1']);
    expect(await bookNames(isNot('UNREAD'), '?sort=name')).toEqual(['Alpha 01', 'Alpha 02']);
    await progress('Alpha 01', 'DELETE');
    await progress('Alpha 02', 'DELETE');
  });

  it('rejects unknown fields and operators with 400', async () => {
    for (const condition of [{ nope: is(1) }, { title: { operator: 'sounds-like', value: 'x' } }, { allOf: 'x' }]) {
      const response = await postBooks({ condition });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
  });
});

describe('the size of a search condition', () => {
  // Each part of a condition is a subquery run for every book or series, and their cost grew with
  // the square of their number: 900 read-list parts over 200 books held the server's one thread
  // for 21 s, so any signed-in user could stop the server for everyone (1,000 parts were allowed).
  const parts = (n: number) => ({ allOf: Array.from({ length: n }, (_, i) => ({ readListId: { operator: 'isNot', value: `list-${i}` } })) });

  it('refuses more than 100 parts before the database sees them, in a body or in query parameters', async () => {
    // The group counts as a part: 99 fields in it are 100 parts.
    expect((await postBooks({ condition: parts(99) })).statusCode).toBe(200);
    const over = await postBooks({ condition: parts(100) });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toMatch(/more than 100 parts/);
    const series = await server.app.inject({ method: 'POST', url: '/api/v1/series/list', headers: server.admin, payload: { condition: parts(100) } });
    expect(series.statusCode).toBe(400);
    const tags = Array.from({ length: 101 }, (_, i) => `tag=t${i}`).join('&');
    expect((await server.get(`/api/v1/books?${tags}`)).statusCode).toBe(400);
  });
});

describe('POST /api/v1/series/list and alphabetical groups', () => {
  it('filters and sorts series', async () => {
    expect(await seriesNames({ condition: { libraryId: is(library.id) } })).toEqual(['Alpha', 'Beta', 'Broken']);
    expect(await seriesNames({ condition: { title: { operator: 'beginsWith', value: 'B' } } }, '?sort=metadata.titleSort,desc')).toEqual(['Broken', 'Beta']);
    expect(await seriesNames({}, '?sort=booksCount,desc&sort=name')).toEqual(['Alpha', 'Beta', 'Broken', 'Delta']);
    expect(await seriesNames({ fullTextSearch: 'elt' })).toEqual(['Delta']);
    expect(await seriesNames({ condition: { anyOf: [{ title: is('alpha') }, { title: is('delta') }] } })).toEqual(['Alpha', 'Delta']);
  });

  it('counts series by first letter', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/api/v1/series/list/alphabetical-groups', headers: server.admin, payload: {} });
    expect(response.json()).toEqual([
      { group: 'a', count: 1 },
      { group: 'b', count: 2 },
      { group: 'd', count: 1 },
    ]);
    const filtered = await server.json(`/api/v1/series/alphabetical-groups?library_id=${second.id}`);
    expect(filtered).toEqual([{ group: 'd', count: 1 }]);
  });
});

describe('special lists', () => {
  it('on deck: next unread book of series with a finished book and nothing in progress', async () => {
    expect((await server.json<Page<BookDto>>('/api/v1/books/ondeck')).content).toEqual([]);
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${ids['Alpha 01']}/read-progress`, headers: server.admin, payload: { completed: true } });
    const onDeck = await server.json<Page<BookDto>>('/api/v1/books/ondeck');
    expect(onDeck.content.map((b) => b.name)).toEqual(['Alpha 02']);
    expect((await server.json<Page<BookDto>>(`/api/v1/books/ondeck?library_id=${second.id}`)).content).toEqual([]);
    // Something in progress in the series takes it off deck.
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${ids['Alpha 02']}/read-progress`, headers: server.admin, payload: { page: 1 } });
    expect((await server.json<Page<BookDto>>('/api/v1/books/ondeck')).content).toEqual([]);
    for (const name of ['Alpha 01', 'Alpha 02']) {
      await server.app.inject({ method: 'DELETE', url: `/api/v1/books/${ids[name]}/read-progress`, headers: server.admin });
    }
  });

  it('new, updated, latest series and latest books', async () => {
    const fresh = await server.json<Page<SeriesDto>>('/api/v1/series/new');
    expect(fresh.content[0]!.name).toBe('Delta'); // created last
    expect(fresh.totalElements).toBe(4);
    expect((await server.json<Page<SeriesDto>>(`/api/v1/series/new?library_id=${second.id}`)).content.map((s) => s.name)).toEqual(['Delta']);
    expect((await server.json<Page<SeriesDto>>('/api/v1/series/updated')).content).toEqual([]);
    expect((await server.json<Page<SeriesDto>>('/api/v1/series/latest')).totalElements).toBe(4);
    const latest = await server.json<Page<BookDto>>('/api/v1/books/latest?size=2');
    expect(latest.content).toHaveLength(2);
    expect(latest.totalElements).toBe(5);
  });
});

describe('full-text search', () => {
  it('needs every word somewhere in title, series title, authors or tags, and ranks title matches first', async () => {
    const id = (await server.json<Page<BookDto>>('/api/v1/books?search=beta')).content[0]!.id;
    await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/books/${id}/metadata`,
      headers: server.admin,
      payload: { authors: [{ name: 'Zora Quill', role: 'writer' }], tags: ['space opera'] },
    });
    expect(await bookNames({ fullTextSearch: 'quill' })).toEqual(['Beta 01']);
    expect(await bookNames({ fullTextSearch: 'beta opera' })).toEqual(['Beta 01']);
    expect(await bookNames({ fullTextSearch: 'alpha opera' })).toEqual([]);
    // Series title is searched for books too.
    expect(await bookNames({ fullTextSearch: 'delta' })).toEqual(['Delta 1']);
    // Exact and prefix title matches come before other matches.
    expect(await seriesNames({ fullTextSearch: 'a' })).toEqual(['Alpha', 'Beta', 'Delta']);
    expect(await seriesNames({ fullTextSearch: 'quill' })).toEqual(['Beta']);
    expect(await seriesNames({ fullTextSearch: 'eta' })).toEqual(['Beta']);
    expect(await seriesNames({ fullTextSearch: 'beta' }, '?sort=name,desc')).toEqual(['Beta']);
    // Alpha matches "delta" only through a tag: the exact title match ranks first.
    await server.app.inject({ method: 'PATCH', url: `/api/v1/series/${seriesIds.Alpha}/metadata`, headers: server.admin, payload: { tags: ['delta force'] } });
    expect(await seriesNames({ fullTextSearch: 'delta' })).toEqual(['Delta', 'Alpha']);
    expect(await seriesNames({ fullTextSearch: 'delta' }, '?sort=metadata.titleSort')).toEqual(['Alpha', 'Delta']);
  });
});
