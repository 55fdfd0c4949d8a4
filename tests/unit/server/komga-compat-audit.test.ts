import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto } from '../../../src/api/types.ts';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';

/**
 * Requests real Komga clients send (komga-webui, Komelia/komga-client, KMReader, KOReader's Komga
 * plugin), answered as Komga's controllers answer them: the cases a fresh audit found different.
 */
let c: CompatServer;
beforeAll(async () => {
  c = await startCompatServer();
});
afterAll(async () => {
  await c.server.close();
});

const json = (body: unknown) => ({ contentType: 'application/json', body });
const book = (id: string) => c.server.json<BookDto>(`/api/v1/books/${id}`);

describe('PATCH /api/v1/books/metadata (the web client’s edit of several books at once)', () => {
  // BookController.updateBooksMetadata: newMetadatas.mapNotNull { findByIdOrNull(bookId)?.let { … } }.
  it('edits the books that exist and passes over an id that names none (deleted meanwhile), 204', async () => {
    const [first, second] = c.books.filter((b) => b.seriesId === c.books[0]!.seriesId);
    const response = await c.send('PATCH', '/api/v1/books/metadata', json({
      [first!.id]: { title: 'Edited in a batch' },
      D0000000MISSING: { title: 'Nobody' },
      [second!.id]: { summary: 'Also edited' },
    }));
    expect(response.statusCode, response.body).toBe(204);
    expect((await book(first!.id)).metadata.title).toBe('Edited in a batch');
    expect((await book(second!.id)).metadata.summary).toBe('Also edited');
  });
});

describe('PATCH /api/v1/books/{id}/read-progress', () => {
  // ReadProgressUpdateDto: `@get:Positive val page: Int?` is checked whatever `completed` says (KMReader
  // marks a book read with {page: pagesCount, completed: true}, so a book of no pages sends page 0).
  it('a page that is not positive is refused beside completed: true, with the violation naming page; nothing is marked', async () => {
    const target = c.books.find((b) => b.media.status === 'READY')!;
    await c.send('DELETE', `/api/v1/books/${target.id}/read-progress`);
    for (const page of [0, -2]) {
      const response = await c.send('PATCH', `/api/v1/books/${target.id}/read-progress`, json({ page, completed: true }));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().violations).toEqual([{ fieldName: 'page', message: 'must be greater than 0' }]);
    }
    expect((await book(target.id)).readProgress).toBeNull();
    const read = await c.send('PATCH', `/api/v1/books/${target.id}/read-progress`, json({ page: target.media.pagesCount, completed: true }));
    expect(read.statusCode, read.body).toBe(204);
    expect((await book(target.id)).readProgress).toMatchObject({ completed: true, page: target.media.pagesCount });
  });
});

describe('a path Komga maps, asked with a method it does not take', () => {
  // Spring MVC: HttpRequestMethodNotSupportedException, 405 with Allow (KMReader marks a series read
  // with PATCH …/series/{id}/read-progress, which Komga maps for POST and DELETE only).
  it('is 405 Method Not Allowed with the methods it takes in Allow, in Spring’s error body', async () => {
    const series = c.series[0]!.id;
    const cases: [string, string, string][] = [
      ['PATCH', `/api/v1/series/${series}/read-progress`, 'POST,DELETE'],
      ['GET', '/api/v1/tasks', 'DELETE'],
      ['PUT', `/api/v1/books/${c.books[0]!.id}/read-progress`, 'PATCH,DELETE'],
      ['DELETE', '/api/v1/libraries', 'GET,HEAD,POST'],
      ['POST', '/api/v1/books/latest', 'GET,HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const response = await c.send(method, url, method === 'GET' || method === 'DELETE' ? {} : json({ completed: true }));
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(405);
      expect(response.headers.allow, `${method} ${url}`).toBe(allow);
      expect(response.json()).toMatchObject({ status: 405, error: 'Method Not Allowed', path: url });
    }
  });

  it('OPTIONS on a mapped path is answered 200 with Allow, as Spring MVC answers it', async () => {
    const response = await c.send('OPTIONS', `/api/v1/series/${c.series[0]!.id}/read-progress`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.allow).toBe('POST,DELETE,OPTIONS');
    expect(response.body).toBe('');
    expect((await c.send('OPTIONS', '/api/v1/no-such-thing')).statusCode).toBe(404);
  });

  it('a path no route takes stays 404, and a caller without credentials is still 401 first', async () => {
    expect((await c.send('PATCH', '/api/v1/no-such-thing')).statusCode).toBe(404);
    expect((await c.send('GET', '/api/v1/series/x/y/z')).statusCode).toBe(404);
    const anonymous = await c.server.app.inject({ method: 'PATCH', url: `/api/v1/series/${c.series[0]!.id}/read-progress` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/v1/series/{id}/books without a sort', () => {
  // SeriesController.getAllBooksBySeries: Sort.by(asc("metadata.numberSort")) when none is asked.
  it('is in number order and its Page says it is sorted, as Komga’s', async () => {
    const series = c.books[0]!.seriesId;
    const response = await c.send('GET', `/api/v1/series/${series}/books`);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.content.map((b: BookDto) => b.metadata.numberSort)).toEqual([...page.content.map((b: BookDto) => b.metadata.numberSort)].sort((a, b) => a - b));
    expect(page.sort).toEqual({ sorted: true, unsorted: false, empty: false });
    expect(page.pageable.sort).toEqual({ sorted: true, unsorted: false, empty: false });
  });
});

describe('DELETE /api/v2/users/me/api-keys/{keyId}', () => {
  // UserController.deleteApiKeyByKeyId: existsApiKeyByIdAndUserId or 404.
  it('is 404 for a key that is not the caller’s or no longer exists, 204 for their own', async () => {
    const created = await c.send('POST', '/api/v2/users/me/api-keys', json({ comment: 'audit key' }));
    expect(created.statusCode, created.body).toBe(200);
    const keyId = created.json().id as string;
    expect((await c.send('DELETE', '/api/v2/users/me/api-keys/D0000000MISSING')).statusCode).toBe(404);
    expect((await c.send('DELETE', `/api/v2/users/me/api-keys/${keyId}`)).statusCode).toBe(204);
    const again = await c.send('DELETE', `/api/v2/users/me/api-keys/${keyId}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ status: 404, error: 'Not Found' });
  });
});

describe('GET /api/v1/series?search_regex=<regex>,<field>', () => {
  // Komga's DelimitedPair resolver gives no pair without a comma, and the controller keeps the pair
  // only for the fields title and title_sort (any case): otherwise the list is not filtered.
  it('filters nothing when the value has no comma or names another field, and filters by TITLE / title_sort', async () => {
    const all = (await c.send('GET', '/api/v1/series?unpaged=true')).json().content.length as number;
    const count = async (value: string) => (await c.send('GET', `/api/v1/series?unpaged=true&search_regex=${encodeURIComponent(value)}`)).json().content.length as number;
    expect(await count('^Alpha')).toBe(all);
    expect(await count('^Alpha,SUMMARY')).toBe(all);
    expect(await count('^Alpha, TITLE')).toBe(all);
    expect(await count('^Alpha,TITLE')).toBe(1);
    expect(await count('^alpha,title_sort')).toBe(1);
  });
});

describe('metadata edits store what Komga’s metadata classes keep', () => {
  // BookMetadata and SeriesMetadata trim their texts and SeriesMetadata writes the language through
  // ICU's toLanguageTag: komf and hand-typed edits sending ' Title ' or 'EN-us' read back trimmed and canonical.
  it('texts trimmed, the language in its canonical spelling', async () => {
    const target = c.books[0]!;
    const book = await c.send('PATCH', `/api/v1/books/${target.id}/metadata`, json({ title: '  Spaced  ', number: ' 7 ', summary: ' A summary. ' }));
    expect(book.statusCode, book.body).toBe(204);
    expect((await c.server.json<BookDto>(`/api/v1/books/${target.id}`)).metadata).toMatchObject({ title: 'Spaced', number: '7', summary: 'A summary.' });
    const series = await c.send('PATCH', `/api/v1/series/${target.seriesId}/metadata`, json({ title: ' Alpha ', titleSort: ' alpha ', publisher: ' Pub ', summary: ' S ', language: 'EN-us' }));
    expect(series.statusCode, series.body).toBe(204);
    expect((await c.send('GET', `/api/v1/series/${target.seriesId}`)).json().metadata).toMatchObject({ title: 'Alpha', titleSort: 'alpha', publisher: 'Pub', summary: 'S', language: 'en-US' });
    expect((await c.send('PATCH', `/api/v1/series/${target.seriesId}/metadata`, json({ language: 'zh-hant-tw' }))).statusCode).toBe(204);
    expect((await c.send('GET', `/api/v1/series/${target.seriesId}`)).json().metadata.language).toBe('zh-Hant-TW');
    expect((await c.send('PATCH', `/api/v1/series/${target.seriesId}/metadata`, json({ language: '' }))).statusCode).toBe(204);
    expect((await c.send('GET', `/api/v1/series/${target.seriesId}`)).json().metadata.language).toBe('');
  });
});
