import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';

type CollectionDto = { id: string; ordered: boolean };
type ReadListDto = { id: string };
import { type CompatServer, ids, startCompatServer } from './komga-compat-helpers.ts';

/**
 * Lists, read progress, collections and read lists in the shapes komga-webui sends: qs-encoded
 * repeated parameters (`status=A&status=B`), `k[]=`, comma lists, axios `post(url)` without a
 * body, numbers and booleans as strings.
 */
let c: CompatServer;
beforeAll(async () => {
  c = await startCompatServer();
});
afterAll(async () => {
  await c.server.close();
});

const get = (url: string) => c.send('GET', url);
const alpha = () => c.series.find((s) => s.name === 'Alpha')!;
const readyBooks = () => c.books.filter((b) => b.media.status === 'READY');

describe('GET list filters', () => {
  it('repeated, [] and comma-separated list parameters', async () => {
    const all = c.series.length;
    const lib = c.library.id;
    expect(ids(await get(`/api/v1/series?library_id=${lib}&status=ONGOING&status=ENDED&page=0&size=20&sort=metadata.titleSort,asc`))).toHaveLength(all);
    expect(ids(await get(`/api/v1/series?library_id[]=${lib}&read_status[]=UNREAD`))).toHaveLength(all);
    expect(ids(await get(`/api/v1/series?library_id=${lib},nope&read_status=UNREAD,READ`))).toHaveLength(all);
    expect(ids(await get(`/api/v1/books?library_id=${lib}&media_status=READY&sort=metadata.numberSort,desc&sort=name`))).toHaveLength(readyBooks().length);
  });

  it('a series’ books as the series page asks for them', async () => {
    expect(ids(await get(`/api/v1/series/${alpha().id}/books?page=0&size=500&sort=metadata.numberSort,asc&read_status=UNREAD&read_status=IN_PROGRESS`))).toHaveLength(2);
  });

  it('paging parameters in any spelling Spring tolerates', async () => {
    expect(ids(await get('/api/v1/books?unpaged=TRUE'))).toHaveLength(c.books.length);
    expect(ids(await get('/api/v1/books?page=abc&size=2'))).toHaveLength(2);
    expect(ids(await get('/api/v1/series?size=1&page=1'))).toHaveLength(1);
  });

  // Spring reads page and size as Java ints and ignores what does not parse as one: a page past
  // 2^31 - 1 or a fraction means the first page. Every paged list shares the one parser.
  it('a page number out of 32 bits, or with a fraction, is the first page on every paged list', async () => {
    const lists = [
      '/api/v1/books', '/api/v1/series', '/api/v1/books/latest', '/api/v1/books/ondeck', '/api/v1/series/new', '/api/v1/series/updated',
      '/api/v1/history', '/api/v1/page-hashes', '/api/v2/users/me/authentication-activity', `/api/v1/series/${alpha().id}/books`,
    ];
    for (const list of lists) {
      for (const page of ['99999999999999999999', '2147483648', '1.5', '1e3']) {
        const response = await get(`${list}?page=${page}`);
        expect(response.statusCode, `${list}?page=${page}: ${response.body}`).toBe(200);
        expect((response.json() as Page<unknown>).number, `${list}?page=${page}`).toBe(0);
      }
      expect((await get(`${list}?page=-4`)).json<Page<unknown>>().number).toBe(0);
      expect((await get(`${list}?size=99999999999999999999`)).json<Page<unknown>>().size).toBe(20);
    }
    expect(ids(await get('/api/v1/books?page=2147483647&size=2000'))).toEqual([]);
  });
});

describe('read progress', () => {
  it('PATCH /api/v1/books/{id}/read-progress with {"page":"2"} and {"completed":"true"}', async () => {
    const [first, second] = readyBooks();
    expect((await c.send('PATCH', `/api/v1/books/${first!.id}/read-progress`, { contentType: 'application/json', body: { page: '2' } })).statusCode).toBe(204);
    expect((await c.server.json<BookDto>(`/api/v1/books/${first!.id}`)).readProgress).toMatchObject({ page: 2, completed: false });
    expect((await c.send('PATCH', `/api/v1/books/${second!.id}/read-progress`, { contentType: 'application/json', body: { completed: 'true' } })).statusCode).toBe(204);
    expect((await c.server.json<BookDto>(`/api/v1/books/${second!.id}`)).readProgress).toMatchObject({ completed: true });
  });

  it('POST then DELETE /api/v1/series/{id}/read-progress without a body (axios post(url))', async () => {
    expect((await c.send('POST', `/api/v1/series/${alpha().id}/read-progress`)).statusCode).toBe(204);
    expect((await c.server.json<SeriesDto>(`/api/v1/series/${alpha().id}`)).booksReadCount).toBe(2);
    expect((await c.send('DELETE', `/api/v1/series/${alpha().id}/read-progress`, { contentType: 'application/json' })).statusCode).toBe(204);
    expect((await c.server.json<SeriesDto>(`/api/v1/series/${alpha().id}`)).booksReadCount).toBe(0);
  });

  it('POST /api/v1/series/{id}/analyze and /metadata/refresh without a body', async () => {
    expect((await c.send('POST', `/api/v1/series/${alpha().id}/analyze`)).statusCode).toBe(202);
    expect((await c.send('POST', `/api/v1/series/${alpha().id}/metadata/refresh`, { contentType: 'application/x-www-form-urlencoded' })).statusCode).toBe(202);
    await c.server.app.folio.tasks.idle();
  });
});

describe('collections and read lists', () => {
  it('POST /api/v1/collections {name, ordered, seriesIds} then lists its series', async () => {
    const created = await c.send('POST', '/api/v1/collections', { contentType: 'application/json', body: { name: 'Favourites', ordered: 'false', seriesIds: c.series.map((s) => s.id) } });
    expect(created.statusCode, created.body).toBe(200);
    const collection = created.json() as CollectionDto;
    expect(ids(await get(`/api/v1/collections/${collection.id}/series?page=0&size=20`))).toHaveLength(c.series.length);
    expect((await c.send('PATCH', `/api/v1/collections/${collection.id}`, { contentType: 'application/json', body: { ordered: 'true' } })).statusCode).toBe(204);
    expect((await c.server.json<CollectionDto>(`/api/v1/collections/${collection.id}`)).ordered).toBe(true);
  });

  it('a blank name or an empty id list is a 400 with violations naming the fields', async () => {
    const response = await c.send('POST', '/api/v1/collections', { contentType: 'application/json', body: { name: ' ', seriesIds: [] } });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { violations: { fieldName: string }[] }).violations.map((v) => v.fieldName).sort()).toEqual(['name', 'seriesIds']);
    const list = await c.send('POST', '/api/v1/readlists', { contentType: 'application/json', body: { name: 'x' } });
    expect((list.json() as { violations: { fieldName: string; message: string }[] }).violations).toEqual([{ fieldName: 'bookIds', message: 'is required' }]);
  });

  it('POST /api/v1/readlists {name, summary, ordered, bookIds} then lists its books', async () => {
    const bookIds = readyBooks().map((b) => b.id);
    const created = await c.send('POST', '/api/v1/readlists', { contentType: 'application/json', body: { name: 'Reading order', summary: '', ordered: true, bookIds } });
    expect(created.statusCode, created.body).toBe(200);
    const list = created.json() as ReadListDto;
    expect(ids(await get(`/api/v1/readlists/${list.id}/books?page=0&size=20`))).toEqual(bookIds);
  });
});

describe('users and libraries as the admin screens send them', () => {
  it('POST /api/v2/users with roles in any case, PATCH /api/v2/users/{id} with the whole restriction form', async () => {
    const created = await c.send('POST', '/api/v2/users', { contentType: 'application/json', body: { email: 'reader@example.org', password: 'pw', roles: ['file_download', 'PAGE_STREAMING'] } });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const patch = await c.send('PATCH', `/api/v2/users/${id}`, {
      contentType: 'application/json',
      body: { roles: ['PAGE_STREAMING'], sharedLibraries: { all: 'false', libraryIds: [c.library.id] }, labelsAllow: [], labelsExclude: null, ageRestriction: { age: '16', restriction: 'allow_only' } },
    });
    expect(patch.statusCode, patch.body).toBe(204);
    const user = (await c.server.json<{ id: string; roles: string[]; sharedAllLibraries: boolean; ageRestriction?: unknown }[]>('/api/v2/users')).find((u) => u.id === id)!;
    expect(user).toMatchObject({ sharedAllLibraries: false, ageRestriction: { age: 16, restriction: 'ALLOW_ONLY' } });
    expect(user.roles).toContain('PAGE_STREAMING');
    expect(user.roles).not.toContain('FILE_DOWNLOAD');
  });

  it('PATCH /api/v1/libraries/{id} with the edit dialog’s whole form, booleans as strings', async () => {
    const library = await c.server.json<Record<string, unknown>>(`/api/v1/libraries/${c.library.id}`);
    const form = { ...library, scanInterval: 'daily', hashPages: 'true', scanDirectoryExclusions: ['#recycle'], oneshotsDirectory: null };
    const response = await c.send('PATCH', `/api/v1/libraries/${c.library.id}`, { contentType: 'application/json', body: form });
    expect(response.statusCode, response.body).toBe(204);
    expect(await c.server.json<Record<string, unknown>>(`/api/v1/libraries/${c.library.id}`)).toMatchObject({ scanInterval: 'DAILY', hashPages: true, scanDirectoryExclusions: ['#recycle'], id: c.library.id });
  });
});

describe('Page wrapper', () => {
  it('keeps the answer a Spring Page', async () => {
    const page = (await get('/api/v1/series?size=2')).json() as Page<SeriesDto>;
    expect(page).toMatchObject({ size: 2, number: 0, totalElements: c.series.length });
  });
});

describe('read lists and collections in the order Mihon asks for', () => {
  // Mihon's Komga source lists read lists with sort=name|createdDate|lastModifiedDate; Komga honours
  // those three on read lists and always lists collections by name.
  const names = (response: Awaited<ReturnType<typeof get>>) => {
    if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    return (response.json() as Page<{ name: string }>).content.map((item) => item.name).filter((name) => name.startsWith('Sorted '));
  };
  const sorted = (response: Awaited<ReturnType<typeof get>>) => (response.json() as Page<unknown>).sort.sorted;

  beforeAll(() => {
    const bookIds = [readyBooks()[0]!.id];
    const seriesIds = [alpha().id];
    const lists = [
      { name: 'Sorted b', created: 1_000, lastModified: 5_000 },
      { name: 'Sorted A', created: 3_000, lastModified: 3_000 },
      { name: 'Sorted c', created: 2_000, lastModified: 4_000 },
    ];
    lists.forEach((l, i) => {
      c.server.app.folio.repos.readLists.save({ id: `SORTEDLIST${i}`, summary: '', ordered: true, bookIds, ...l });
      c.server.app.folio.repos.collections.save({ id: `SORTEDCOLL${i}`, ordered: false, seriesIds, ...l });
    });
  });

  it('GET /api/v1/readlists honours sort=createdDate, lastModifiedDate and name', async () => {
    expect(names(await get('/api/v1/readlists?search=&page=0&deleted=false&sort=createdDate,desc'))).toEqual(['Sorted A', 'Sorted c', 'Sorted b']);
    expect(names(await get('/api/v1/readlists?page=0&sort=lastModifiedDate,desc'))).toEqual(['Sorted b', 'Sorted c', 'Sorted A']);
    expect(names(await get('/api/v1/readlists?page=0&sort=createdDate,asc'))).toEqual(['Sorted b', 'Sorted c', 'Sorted A']);
    expect(names(await get('/api/v1/readlists?page=0&sort=name,desc'))).toEqual(['Sorted c', 'Sorted b', 'Sorted A']);
    expect(sorted(await get('/api/v1/readlists?page=0&sort=createdDate,desc'))).toBe(true);
  });

  it('GET /api/v1/readlists without a sort is by name, and says so', async () => {
    const response = await get('/api/v1/readlists?unpaged=true');
    expect(names(response)).toEqual(['Sorted A', 'Sorted b', 'Sorted c']);
    expect(sorted(response)).toBe(true);
  });

  it('a read list’s books and a collection’s series are in the list’s order, and say so', async () => {
    expect(sorted(await get('/api/v1/readlists/SORTEDLIST0/books?unpaged=true&media_status=READY&deleted=false'))).toBe(true);
    expect(sorted(await get('/api/v1/collections/SORTEDCOLL0/series?page=0'))).toBe(true);
  });

  // Komga searches the names of collections and read lists through its index: every word, in any
  // order, accents and case ignored, with the same query language as series and books.
  it('?search= finds read lists and collections by words in any order, accents ignored', async () => {
    const bookIds = [readyBooks()[0]!.id];
    c.server.app.folio.repos.readLists.save({ id: 'SEARCHLIST', name: 'Pokémon Heroes of Marvel', summary: '', ordered: true, bookIds, created: 9, lastModified: 9 });
    c.server.app.folio.repos.collections.save({ id: 'SEARCHCOLL', name: 'Pokémon Heroes of Marvel', ordered: false, seriesIds: [alpha().id], created: 9, lastModified: 9 });
    const found = async (url: string) => (await get(url)).json() as Page<{ id: string }>;
    for (const [list, id] of [['readlists', 'SEARCHLIST'], ['collections', 'SEARCHCOLL']] as const) {
      expect((await found(`/api/v1/${list}?search=${encodeURIComponent('marvel pokemon')}`)).content.map((l) => l.id), list).toEqual([id]);
      expect((await found(`/api/v1/${list}?search=${encodeURIComponent('"heroes of marvel"')}`)).content.map((l) => l.id), list).toEqual([id]);
      expect((await found(`/api/v1/${list}?search=${encodeURIComponent('marvel NOT pokemon')}`)).content, list).toEqual([]);
      expect((await get(`/api/v1/${list}?search=${encodeURIComponent('('.repeat(40) + 'x')}`)).statusCode, list).toBe(400);
    }
  });

  it('GET /api/v1/collections is by name whatever the sort asked, and says so', async () => {
    const response = await get('/api/v1/collections?page=0&sort=createdDate,desc');
    expect(names(response)).toEqual(['Sorted A', 'Sorted b', 'Sorted c']);
    expect(sorted(response)).toBe(true);
  });
});
