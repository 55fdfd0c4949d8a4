import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';
import { shapeProblems } from './openapi-shape.ts';

let server: TestServer;
let books: Page<BookDto>;

beforeAll(async () => {
  server = await startServer();
  const sample = await createSampleLibrary(join(server.dir, 'library'));
  await addLibrary(server, sample.root);
  books = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
  const alpha1 = books.content.find((b) => b.name === 'Alpha 01')!;
  // Give one book read progress so the nested ReadProgressDto is checked too.
  await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${alpha1.id}/read-progress`, headers: server.admin, payload: { page: 2 } });
  books = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
});
afterAll(async () => {
  await server.close();
});

describe('JSON shapes follow the Komga contract', () => {
  it('checker catches problems (so the checks below can fail)', () => {
    expect(shapeProblems({ id: 1 }, 'UserDto')).not.toEqual([]);
    expect(shapeProblems({ number: 1, fileName: 'a', mediaType: 'image/png', size: '', extra: true }, 'PageDto')).toEqual([
      'PageDto.extra: not in the contract',
    ]);
  });

  it('UserDto', async () => {
    expect(shapeProblems(await server.json('/api/v2/users/me'), 'UserDto')).toEqual([]);
  });

  it('LibraryDto', async () => {
    const libraries = await server.json<unknown[]>('/api/v1/libraries');
    expect(libraries).toHaveLength(1);
    expect(shapeProblems(libraries[0], 'LibraryDto')).toEqual([]);
  });

  it('Page<BookDto> and BookDto (with and without read progress, ready and broken)', async () => {
    expect(shapeProblems(books, 'PageBookDto')).toEqual([]);
    expect(books.content.some((b) => b.readProgress !== null)).toBe(true);
    expect(books.content.some((b) => b.media.status === 'UNSUPPORTED')).toBe(true); // the sample's 'broken' file is no archive at all
    for (const book of books.content) expect(shapeProblems(book, 'BookDto')).toEqual([]);
  });

  it('Page<SeriesDto> and SeriesDto', async () => {
    const series = await server.json<Page<SeriesDto>>('/api/v1/series');
    expect(shapeProblems(series, 'PageSeriesDto')).toEqual([]);
    expect(shapeProblems(await server.json(`/api/v1/series/${series.content[0]!.id}`), 'SeriesDto')).toEqual([]);
  });

  it('PageDto', async () => {
    const id = books.content.find((b) => b.name === 'Beta 01')!.id;
    const pages = await server.json<unknown[]>(`/api/v1/books/${id}/pages`);
    for (const page of pages) expect(shapeProblems(page, 'PageDto')).toEqual([]);
  });

  it('Spring page wrapper fields and paging params', async () => {
    const first = await server.json<Page<BookDto>>('/api/v1/books?size=3&page=0&sort=name,asc');
    expect(first).toMatchObject({
      totalElements: 4,
      totalPages: 2,
      number: 0,
      size: 3,
      numberOfElements: 3,
      first: true,
      last: false,
      empty: false,
      sort: { sorted: true, unsorted: false, empty: false },
      pageable: { pageNumber: 0, pageSize: 3, offset: 0, paged: true, unpaged: false },
    });
    const second = await server.json<Page<BookDto>>('/api/v1/books?size=3&page=1&sort=name,asc');
    expect(second).toMatchObject({ number: 1, numberOfElements: 1, first: false, last: true, pageable: { offset: 3 } });
    expect([...first.content, ...second.content].map((b) => b.name)).toEqual(['Alpha 01', 'Alpha 02', 'Beta 01', 'broken']);
    const desc = await server.json<Page<BookDto>>('/api/v1/books?sort=name,desc');
    expect(desc.content[0]!.name).toBe('broken');
    // size < 1 falls back to 20, size is capped at 2000.
    expect((await server.json<Page<BookDto>>('/api/v1/books?size=0')).size).toBe(20);
    expect((await server.json<Page<BookDto>>('/api/v1/books?size=5000')).size).toBe(2000);
    const beyond = await server.json<Page<BookDto>>('/api/v1/books?page=9');
    expect(beyond).toMatchObject({ empty: true, numberOfElements: 0, totalElements: 4 });
  });

  it('errors use the Spring error shape', async () => {
    const response = await server.get('/api/v1/books/unknown-id');
    expect(response.statusCode).toBe(404);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'path', 'status', 'timestamp']);
    expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});
