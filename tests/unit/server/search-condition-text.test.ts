import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { MAX_CONDITION_TEXT } from '../../../server/db/search/simplify.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { send } from './accounts-helpers.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * Text conditions (title contains, publisher begins with, …) are SQLite LIKE patterns, run for every
 * book or series the search reads on the server's one JavaScript thread, at a cost of the stored
 * text's length times the pattern's: one 20,000-character `contains` against a book whose
 * ComicInfo title was 900,000 characters held the server 40 s (four of them: 300 s), and a value
 * over SQLite's 50,000-byte pattern limit failed the request with a 500.
 */
let server: TestServer;
let user: Record<string, string>;
const HOSTILE_TITLE = 'a'.repeat(20_000);

beforeAll(async () => {
  server = await startServer();
  await insertUser(server, 'reader@example.org', 'pw', []);
  user = { authorization: basic('reader@example.org', 'pw') };
  const page = { width: 10, height: 10, color: RED, format: 'png' as const };
  await createCbz(join(server.dir, 'lib', 'Long', 'l1.cbz'), [page], { comicInfo: { title: HOSTILE_TITLE, publisher: HOSTILE_TITLE } });
  await createCbz(join(server.dir, 'lib', 'Spider', 's1.cbz'), [page], { comicInfo: { title: 'The Spider-Man', series: 'The Spider-Man' } });
  await addLibrary(server, join(server.dir, 'lib'));
}, 60_000);
afterAll(async () => {
  await server.close();
});

const contains = (field: string, value: string) => ({ condition: { [field]: { operator: 'contains', value } } });

describe('search condition text', () => {
  it('longer than the bound is refused with a 400 naming it, on books and series, however long', async () => {
    for (const length of [MAX_CONDITION_TEXT + 1, 60_000]) {
      const value = `${'a'.repeat(length - 1)}b`;
      const books = await send(server, 'POST', '/api/v1/books/list', user, contains('title', value));
      expect(books.statusCode, `books, ${length} characters`).toBe(400);
      expect(books.json().message).toContain(`at most ${MAX_CONDITION_TEXT} characters`);
      const series = await send(server, 'POST', '/api/v1/series/list', user, contains('publisher', value));
      expect(series.statusCode, `series, ${length} characters`).toBe(400);
      expect(series.json().message).toContain(`at most ${MAX_CONDITION_TEXT} characters`);
    }
  });

  it('inside an author condition or a nested group is bounded too', async () => {
    const long = 'x'.repeat(MAX_CONDITION_TEXT + 1);
    const author = { condition: { allOf: [{ anyOf: [{ author: { operator: 'is', value: { name: long, role: 'writer' } } }] }] } };
    expect((await send(server, 'POST', '/api/v1/books/list', user, author)).statusCode).toBe(400);
  });

  it('up to the bound still searches as before', async () => {
    const found = await send(server, 'POST', '/api/v1/books/list', user, contains('title', 'spider'));
    expect((found.json() as Page<BookDto>).content.map((b) => b.metadata.title)).toEqual(['The Spider-Man']);
    const atBound = await send(server, 'POST', '/api/v1/books/list', user, contains('title', 'a'.repeat(MAX_CONDITION_TEXT)));
    expect(atBound.statusCode).toBe(200);
    expect((atBound.json() as Page<BookDto>).content).toHaveLength(1);
    const series = await send(server, 'POST', '/api/v1/series/list', user, contains('title', 'spider'));
    expect((series.json() as Page<SeriesDto>).content.map((s) => s.metadata.title)).toEqual(['The Spider-Man']);
  });

  it('a full-text search longer than the bound is refused the same way, in every list that searches', async () => {
    // One word of 20,000 characters is a 20,000-trigram phrase for the index, a LIKE for a named
    // field (publisher:…) and a prefix test for the ranking: before, 200 after seconds of the thread.
    for (const length of [MAX_CONDITION_TEXT + 1, 20_000]) {
      const word = `${'a'.repeat(length - 1)}b`;
      const body = await send(server, 'POST', '/api/v1/books/list', user, { fullTextSearch: word });
      expect(body.statusCode, `books/list, ${length} characters`).toBe(400);
      expect(body.json().message).toContain(`at most ${MAX_CONDITION_TEXT} characters`);
      expect((await send(server, 'POST', '/api/v1/series/list', user, { fullTextSearch: `publisher:${word}` })).statusCode).toBe(400);
    }
    const query = `${'a'.repeat(MAX_CONDITION_TEXT)}b`;
    for (const url of ['/api/v1/series', '/api/v1/books', '/api/v1/readlists', '/api/v1/collections']) {
      expect((await server.get(`${url}?search=${query}`, user)).statusCode, url).toBe(400);
    }
    expect((await send(server, 'POST', '/api/v1/books/list', user, { fullTextSearch: 'spider man' })).json().content).toHaveLength(1);
  });
});
