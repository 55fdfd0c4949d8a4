import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { shapeProblems } from './openapi-shape.ts';

let server: TestServer;
let series: Record<string, string>;
let books: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
  series = Object.fromEntries((await server.json<Page<SeriesDto>>('/api/v1/series')).content.map((s) => [s.name, s.id]));
  books = Object.fromEntries((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b.id]));
});
afterAll(async () => {
  await server.close();
});

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = server.admin) =>
  server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('collections', () => {
  it('creates, lists, reads, updates and deletes a collection', async () => {
    const created = await send('POST', '/api/v1/collections', { name: 'Favourites', ordered: true, seriesIds: [series.Beta!, series.Alpha!] });
    expect(created.statusCode).toBe(200);
    const collection = created.json();
    expect(shapeProblems(collection, 'CollectionDto')).toEqual([]);
    expect(collection).toMatchObject({ name: 'Favourites', ordered: true, seriesIds: [series.Beta, series.Alpha], filtered: false });

    const page = await server.json<Page<unknown>>('/api/v1/collections');
    expect(shapeProblems(page, 'PageCollectionDto')).toEqual([]);
    expect(page.totalElements).toBe(1);
    expect((await server.json<Page<unknown>>('/api/v1/collections?search=fav')).totalElements).toBe(1);
    expect((await server.json<Page<unknown>>('/api/v1/collections?search=zzz')).totalElements).toBe(0);

    const members = await server.json<Page<SeriesDto>>(`/api/v1/collections/${collection.id}/series`);
    expect(members.content.map((s) => s.name)).toEqual(['Beta', 'Alpha']);
    expect((await server.json<unknown[]>(`/api/v1/series/${series.Alpha}/collections`))).toHaveLength(1);

    expect((await send('PATCH', `/api/v1/collections/${collection.id}`, { ordered: false })).statusCode).toBe(204);
    const unordered = await server.json<Page<SeriesDto>>(`/api/v1/collections/${collection.id}/series`);
    expect(unordered.content.map((s) => s.name)).toEqual(['Alpha', 'Beta']);

    const thumbnail = await server.get(`/api/v1/collections/${collection.id}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect((await sharp(thumbnail.rawPayload).metadata()).format).toBe('jpeg');

    expect((await send('DELETE', `/api/v1/collections/${collection.id}`)).statusCode).toBe(204);
    expect((await server.get(`/api/v1/collections/${collection.id}`)).statusCode).toBe(404);
  });

  it('validates bodies and needs ADMIN to write', async () => {
    for (const payload of [
      { name: '', ordered: false, seriesIds: [series.Alpha] },
      { name: 'x', ordered: false, seriesIds: [] },
      { name: 'x', ordered: false, seriesIds: [series.Alpha, series.Alpha] },
      { name: 'x', ordered: false, seriesIds: ['unknown'] },
    ]) {
      expect((await send('POST', '/api/v1/collections', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    await send('POST', '/api/v1/collections', { name: 'Dup', ordered: false, seriesIds: [series.Alpha!] });
    expect((await send('POST', '/api/v1/collections', { name: 'dup', ordered: false, seriesIds: [series.Beta!] })).statusCode).toBe(400);
    await insertUser(server, 'plain@example.org', 'pw', []);
    const plain = { authorization: basic('plain@example.org', 'pw') };
    expect((await send('POST', '/api/v1/collections', { name: 'Mine', ordered: false, seriesIds: [series.Alpha!] }, plain)).statusCode).toBe(403);
  });
});

describe('read lists', () => {
  it('keeps books across series in reading order with siblings', async () => {
    const created = await send('POST', '/api/v1/readlists', {
      name: 'Crossover',
      summary: 'Read in this order',
      ordered: true,
      bookIds: [books['Beta 01']!, books['Alpha 02']!, books['Alpha 01']!],
    });
    expect(created.statusCode).toBe(200);
    const list = created.json();
    expect(shapeProblems(list, 'ReadListDto')).toEqual([]);
    expect(shapeProblems(await server.json('/api/v1/readlists'), 'PageReadListDto')).toEqual([]);

    const members = await server.json<Page<BookDto>>(`/api/v1/readlists/${list.id}/books`);
    expect(members.content.map((b) => b.name)).toEqual(['Beta 01', 'Alpha 02', 'Alpha 01']);
    const next = await server.json<BookDto>(`/api/v1/readlists/${list.id}/books/${books['Beta 01']}/next`);
    expect(next.name).toBe('Alpha 02');
    const previous = await server.json<BookDto>(`/api/v1/readlists/${list.id}/books/${books['Alpha 02']}/previous`);
    expect(previous.name).toBe('Beta 01');
    expect((await server.get(`/api/v1/readlists/${list.id}/books/${books['Alpha 01']}/next`)).statusCode).toBe(404);
    expect(await server.json<unknown[]>(`/api/v1/books/${books['Alpha 01']}/readlists`)).toHaveLength(1);

    const filtered = await server.json<Page<BookDto>>(`/api/v1/readlists/${list.id}/books?read_status=READ`);
    expect(filtered.totalElements).toBe(0);

    expect((await send('PATCH', `/api/v1/readlists/${list.id}`, { bookIds: [books['Alpha 01']!], summary: '' })).statusCode).toBe(204);
    expect(await server.json(`/api/v1/readlists/${list.id}`)).toMatchObject({ bookIds: [books['Alpha 01']], summary: '', name: 'Crossover' });

    const thumbnail = await server.get(`/api/v1/readlists/${list.id}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    // The drawn poster shows the viewer's visible books only: another account on the same browser
    // (a child's after a parent's) must not be shown it from the cache. Before: an hour's max-age.
    expect(thumbnail.headers['cache-control']).toBe('max-age=0, must-revalidate, private');
    expect(thumbnail.headers.etag).toBeTruthy();
    expect((await send('DELETE', `/api/v1/readlists/${list.id}`)).statusCode).toBe(204);
    expect((await server.json<Page<unknown>>('/api/v1/readlists')).totalElements).toBe(0);
  });

  it('hides lists whose books the user may not see', async () => {
    const list = (await send('POST', '/api/v1/readlists', { name: 'Hidden', ordered: true, bookIds: [books['Alpha 01']!] })).json();
    const libraryId = (await server.json<BookDto>(`/api/v1/books/${books['Alpha 01']}`)).libraryId;
    const id = await insertUser(server, 'restricted@example.org', 'pw', []);
    const user = server.app.folio.repos.users.findById(id)!;
    server.app.folio.repos.users.update({ ...user, sharedAllLibraries: false, sharedLibraryIds: [] });
    const restricted = { authorization: basic('restricted@example.org', 'pw') };
    expect((await server.get(`/api/v1/readlists/${list.id}`, restricted)).statusCode).toBe(404);
    expect((await server.json<Page<unknown>>('/api/v1/readlists', restricted)).totalElements).toBe(0);
    expect(libraryId).toBeTruthy();
  });
});

describe('a collection emptied by deletions (deleteEmptyCollections off)', () => {
  it('is still seen by admins, as in Komga, and by nobody else', async () => {
    const created = await send('POST', '/api/v1/collections', { name: 'Emptied', ordered: false, seriesIds: [series.Alpha!] });
    const id = (created.json() as { id: string }).id;
    // What removing its last series for good leaves (membership rows go with the series).
    const collection = server.app.folio.repos.collections.findById(id)!;
    server.app.folio.repos.collections.save({ ...collection, seriesIds: [] });
    expect((await server.get(`/api/v1/collections/${id}`)).json()).toMatchObject({ id, seriesIds: [] });
    expect((await server.json<Page<{ id: string }>>('/api/v1/collections?unpaged=true')).content.map((c) => c.id)).toContain(id);
    await insertUser(server, 'emptied-reader@example.org', 'pw', []);
    const reader = { authorization: basic('emptied-reader@example.org', 'pw') };
    expect((await server.get(`/api/v1/collections/${id}`, reader)).statusCode).toBe(404);
    expect((await server.json<Page<{ id: string }>>('/api/v1/collections?unpaged=true', reader)).content.map((c) => c.id)).not.toContain(id);
    await send('DELETE', `/api/v1/collections/${id}`);
  });
});
