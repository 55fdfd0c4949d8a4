import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, LibraryDto, SeriesDto } from '../../../src/api/types.ts';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';

/**
 * JSON null in request bodies, as Komga (Jackson + jackson-module-kotlin) reads it:
 * - a Kotlin nullable field (`String?`, `Boolean?`, `List?`) takes the null, and the controller
 *   decides: keep (`?: existing`) or clear (presence-tracked fields);
 * - a non-null text, list, enum or object field refuses it with a 400, even when it has a default;
 * - a non-null Kotlin Boolean/Int is a JVM primitive: null reads as false / 0.
 * Ajv's scalar coercion would read null as "" (text) or [""] (list) and let the body through.
 */
let c: CompatServer;
beforeAll(async () => {
  c = await startCompatServer();
});
afterAll(async () => {
  await c.server.close();
});

const json = (method: string, url: string, body: unknown) => c.send(method, url, { contentType: 'application/json', body });

describe('a null for a non-null text, list or object field is a 400 naming the field', () => {
  it('POST /api/v1/libraries: scanDirectoryExclusions null (Set<String> = emptySet()) creates nothing', async () => {
    const root = join(c.server.dir, 'exclusions-null');
    await mkdir(root);
    const response = await json('POST', '/api/v1/libraries', { name: 'Exclusions', root, scanDirectoryExclusions: null });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().violations).toEqual([{ fieldName: 'scanDirectoryExclusions', message: 'must not be null' }]);
    const libraries = await c.server.json<LibraryDto[]>('/api/v1/libraries');
    expect(libraries.map((l) => l.name)).not.toContain('Exclusions');
  });

  it('POST /api/v1/libraries: booleans are Kotlin primitives, so null is false (not the default true)', async () => {
    const root = join(c.server.dir, 'booleans-null');
    await mkdir(root);
    const response = await json('POST', '/api/v1/libraries', { name: 'Booleans', root, importComicInfoBook: null, hashFiles: null });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ importComicInfoBook: false, hashFiles: false, importEpubBook: true });
    expect((await c.send('DELETE', `/api/v1/libraries/${response.json().id}`)).statusCode).toBe(204);
  });

  it('POST /api/v1/books/import: a null sourceFile or seriesId is refused, no import is queued', async () => {
    const seriesId = c.series[0]!.id;
    for (const book of [{ sourceFile: null, seriesId }, { sourceFile: '/tmp/x.cbz', seriesId: null }]) {
      const response = await json('POST', '/api/v1/books/import', { books: [book], copyMode: 'HARDLINK' });
      expect(response.statusCode, JSON.stringify(book)).toBe(400);
      expect(response.json().violations[0].message).toBe('must not be null');
    }
  });

  it('POST /api/v1/transient-books: a null path is refused as a null, not scanned as ""', async () => {
    const response = await json('POST', '/api/v1/transient-books', { path: null });
    expect(response.statusCode).toBe(400);
    expect(response.json().violations).toEqual([{ fieldName: 'path', message: 'must not be null' }]);
  });

  it('PUT /api/v1/books/{id}/progression: a null device id is refused, nothing is stored', async () => {
    const comic = c.books.find((b) => b.media.mediaProfile === 'DIVINA' && b.media.status === 'READY')!;
    const body = {
      modified: '2026-01-02T03:04:05Z',
      device: { id: null, name: 'Readium' },
      locator: { href: `/api/v1/books/${comic.id}/pages/2`, type: 'image/png', locations: { position: 2 } },
    };
    const response = await json('PUT', `/api/v1/books/${comic.id}/progression`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().violations).toEqual([{ fieldName: 'device.id', message: 'must not be null' }]);
    expect((await c.server.json<BookDto>(`/api/v1/books/${comic.id}`)).readProgress).toBeNull();
  });

  it('PATCH /api/v1/books/{id}/metadata: a null author name is refused (AuthorUpdateDto @NotBlank)', async () => {
    const book = c.books[0]!;
    const response = await json('PATCH', `/api/v1/books/${book.id}/metadata`, { authors: [{ name: null, role: 'writer' }] });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('authors.name');
  });
});

describe('a null inside a list of text or objects is refused, not read as ""', () => {
  it('sharedLibraries.libraryIds [null] stores no "" library id; genres [null] changes nothing', async () => {
    const created = await json('POST', '/api/v2/users', { email: 'list-null@example.org', password: 'pw', sharedLibraries: { all: false, libraryIds: [null] } });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json().violations).toEqual([{ fieldName: 'sharedLibraries.libraryIds', message: 'must not be null' }]);
    const users = await c.server.json<{ email: string }[]>('/api/v2/users');
    expect(users.map((u) => u.email)).not.toContain('list-null@example.org');

    const beta = c.series.find((s) => s.name === 'Beta')!;
    expect((await json('PATCH', `/api/v1/series/${beta.id}/metadata`, { genres: ['kept'] })).statusCode).toBe(204);
    const response = await json('PATCH', `/api/v1/series/${beta.id}/metadata`, { genres: ['new', null] });
    expect(response.statusCode).toBe(400);
    expect((await c.server.json<SeriesDto>(`/api/v1/series/${beta.id}`)).metadata.genres).toEqual(['kept']);
  });
});

describe('a null for a nullable field keeps or clears as Komga does', () => {
  it('PATCH /api/v1/series/{id}/metadata: title, titleSort, summary, publisher null keep; genres null clears', async () => {
    const alpha = c.series.find((s) => s.name === 'Alpha')!;
    const set = await json('PATCH', `/api/v1/series/${alpha.id}/metadata`, { title: 'Alpha T', summary: 'S', publisher: 'P', genres: ['g'] });
    expect(set.statusCode, set.body).toBe(204);
    const cleared = await json('PATCH', `/api/v1/series/${alpha.id}/metadata`, { title: null, titleSort: null, summary: null, publisher: null, genres: null });
    expect(cleared.statusCode, cleared.body).toBe(204);
    const { metadata } = await c.server.json<SeriesDto>(`/api/v1/series/${alpha.id}`);
    expect(metadata).toMatchObject({ title: 'Alpha T', summary: 'S', publisher: 'P', genres: [] });
  });

  it('PATCH /api/v1/books/{id}/metadata: title and number null keep; summary null clears', async () => {
    const book = c.books[0]!;
    expect((await json('PATCH', `/api/v1/books/${book.id}/metadata`, { title: 'T', summary: 'S' })).statusCode).toBe(204);
    const response = await json('PATCH', `/api/v1/books/${book.id}/metadata`, { title: null, number: null, numberSort: null, summary: null });
    expect(response.statusCode, response.body).toBe(204);
    const { metadata } = await c.server.json<BookDto>(`/api/v1/books/${book.id}`);
    expect(metadata).toMatchObject({ title: 'T', number: book.metadata.number, numberSort: book.metadata.numberSort, summary: '' });
  });

  it('PATCH /api/v2/users/me/password: currentPassword (Folio\'s own, optional) null is not given; Basic proves the password', async () => {
    const created = await json('POST', '/api/v2/users', { email: 'pw-null@example.org', password: 'old-password' });
    expect(created.statusCode, created.body).toBe(201);
    const basic = { authorization: `Basic ${Buffer.from('pw-null@example.org:old-password').toString('base64')}` };
    const response = await c.send('PATCH', '/api/v2/users/me/password', { contentType: 'application/json', body: { password: 'new-password', currentPassword: null }, headers: basic });
    expect(response.statusCode, response.body).toBe(204);
  });

  it('POST /api/v1/readlists: ordered null is false (a Kotlin Boolean), absent is true; summary null is refused (String = "")', async () => {
    const bookIds = [c.books[0]!.id];
    const withNull = await json('POST', '/api/v1/readlists', { name: 'Ordered null', ordered: null, bookIds });
    expect(withNull.statusCode, withNull.body).toBe(200);
    expect(withNull.json()).toMatchObject({ ordered: false });
    const absent = await json('POST', '/api/v1/readlists', { name: 'Ordered absent', bookIds });
    expect(absent.json()).toMatchObject({ ordered: true, summary: '' });
    const summary = await json('POST', '/api/v1/readlists', { name: 'Summary null', summary: null, bookIds });
    expect(summary.statusCode).toBe(400);
    expect(summary.json().violations).toEqual([{ fieldName: 'summary', message: 'must not be null' }]);
  });

  it('POST /api/v2/users: sharedLibraries null (SharedLibrariesUpdateDto?) shares every library', async () => {
    const response = await json('POST', '/api/v2/users', { email: 'nulls@example.org', password: 'pw', sharedLibraries: null, labelsAllow: null });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ sharedAllLibraries: true, labelsAllow: [] });
  });
});

describe('search conditions: an operator with a null value is a 400, as Jackson refuses SearchOperator.Is(null)', () => {
  it('readStatus, collectionId, readListId and titleRegex with value null do not match everything (isNot) or nothing (is)', async () => {
    const cases: [string, unknown][] = [
      ['/api/v1/series/list', { readStatus: { operator: 'isNot', value: null } }],
      ['/api/v1/series/list', { readStatus: { operator: 'is', value: null } }],
      ['/api/v1/books/list', { readStatus: { operator: 'isNot', value: null } }],
      ['/api/v1/series/list', { collectionId: { operator: 'isNot', value: null } }],
      ['/api/v1/books/list', { readListId: { operator: 'isNot', value: null } }],
      ['/api/v1/series/list', { titleRegex: { operator: 'is', value: null } }],
    ];
    for (const [url, condition] of cases) {
      const response = await json('POST', url, { condition });
      expect(response.statusCode, `${url} ${JSON.stringify(condition)}: ${response.body.slice(0, 120)}`).toBe(400);
      expect(response.json().message).toContain('needs a value');
    }
  });
});

describe('missing fields: a Kotlin primitive reads as false / 0, a list with a default as its default', () => {
  it('POST /api/v1/books/import without books (List = emptyList()) imports nothing, 202', async () => {
    const response = await json('POST', '/api/v1/books/import', { copyMode: 'HARDLINK' });
    expect(response.statusCode, response.body).toBe(202);
  });

  it('POST /api/v2/users: sharedLibraries without all (a Kotlin Boolean) shares only the listed libraries', async () => {
    const response = await json('POST', '/api/v2/users', { email: 'no-all@example.org', password: 'pw', sharedLibraries: { libraryIds: [c.library.id] } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ sharedAllLibraries: false, sharedLibrariesIds: [c.library.id] });
  });

  it('PATCH /api/v2/users/{id}: ageRestriction without age (a Kotlin Int) is age 0; a null age is 0 too', async () => {
    const created = await json('POST', '/api/v2/users', { email: 'no-age@example.org', password: 'pw' });
    const id = created.json().id as string;
    for (const ageRestriction of [{ restriction: 'ALLOW_ONLY' }, { age: null, restriction: 'EXCLUDE' }]) {
      const response = await json('PATCH', `/api/v2/users/${id}`, { ageRestriction });
      expect(response.statusCode, response.body).toBe(204);
      const users = await c.server.json<{ id: string; ageRestriction: unknown }[]>('/api/v2/users');
      expect(users.find((u) => u.id === id)!.ageRestriction).toEqual({ age: 0, restriction: ageRestriction.restriction });
    }
  });
});

describe('PATCH updates: null keeps a field, except the presence-tracked ones it clears', () => {
  it('PATCH /api/v1/libraries/{id}: name, root, options null keep; scanDirectoryExclusions null empties, oneshotsDirectory null clears', async () => {
    const url = `/api/v1/libraries/${c.library.id}`;
    expect((await json('PATCH', url, { scanDirectoryExclusions: ['#recycle'], oneshotsDirectory: '_oneshots', importEpubBook: false })).statusCode).toBe(204);
    const response = await json('PATCH', url, { name: null, root: null, importEpubBook: null, scanInterval: null, seriesCover: null, scanDirectoryExclusions: null, oneshotsDirectory: null });
    expect(response.statusCode, response.body).toBe(204);
    const library = await c.server.json<LibraryDto>(url);
    expect(library).toMatchObject({ name: c.library.name, root: c.library.root, importEpubBook: false, scanInterval: c.library.scanInterval, seriesCover: c.library.seriesCover, scanDirectoryExclusions: [], oneshotsDirectory: null });
  });

  it('PATCH /api/v1/collections/{id} and /api/v1/readlists/{id}: all-null bodies change nothing', async () => {
    const collection = (await json('POST', '/api/v1/collections', { name: 'Kept', ordered: true, seriesIds: [c.series[0]!.id] })).json();
    expect((await json('PATCH', `/api/v1/collections/${collection.id}`, { name: null, ordered: null, seriesIds: null })).statusCode).toBe(204);
    expect(await c.server.json(`/api/v1/collections/${collection.id}`)).toMatchObject({ name: 'Kept', ordered: true, seriesIds: collection.seriesIds });
    const list = (await json('POST', '/api/v1/readlists', { name: 'Kept list', summary: 'S', ordered: false, bookIds: [c.books[0]!.id] })).json();
    expect((await json('PATCH', `/api/v1/readlists/${list.id}`, { name: null, summary: null, ordered: null, bookIds: null })).statusCode).toBe(204);
    expect(await c.server.json(`/api/v1/readlists/${list.id}`)).toMatchObject({ name: 'Kept list', summary: 'S', ordered: false, bookIds: list.bookIds });
  });

  it('PATCH /api/v1/settings: serverPort null clears the stored port (presence-tracked), taskPoolSize null keeps', async () => {
    expect((await json('PATCH', '/api/v1/settings', { serverPort: 8081, taskPoolSize: 2 })).statusCode).toBe(204);
    expect((await json('PATCH', '/api/v1/settings', { serverPort: null, taskPoolSize: null })).statusCode).toBe(204);
    const settings = await c.server.json<{ serverPort: { databaseSource: number | null }; taskPoolSize: number }>('/api/v1/settings');
    expect(settings).toMatchObject({ serverPort: { databaseSource: null }, taskPoolSize: 2 });
  });

  it('PATCH /api/v1/books/{id}/read-progress: page and completed null is a 400 and keeps the progress', async () => {
    const book = c.books.find((b) => b.media.status === 'READY' && b.media.pagesCount > 1)!;
    expect((await json('PATCH', `/api/v1/books/${book.id}/read-progress`, { page: 1 })).statusCode).toBe(204);
    for (const body of [{ page: null, completed: null }, { page: null, completed: false }, {}]) {
      expect((await json('PATCH', `/api/v1/books/${book.id}/read-progress`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await c.server.json<BookDto>(`/api/v1/books/${book.id}`)).readProgress).toMatchObject({ page: 1, completed: false });
  });
});
