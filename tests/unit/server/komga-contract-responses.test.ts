import { copyFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, createCbz, createSampleLibrary, renderPage } from '../../fixtures/index.ts';
import { createReflowableEpub } from '../../fixtures/epub.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { basic, insertUser, multipartFile, startServer, type TestServer } from './helpers.ts';
import { documentsContentType, getOperations, jsonResponseSchema, queryParameters, responseProblems } from './support/contract-responses.ts';

/**
 * Every GET operation of Komga's contract, called on a real server holding real data (two
 * libraries; series and books with full metadata, links and authors; an EPUB and a PDF; read
 * progress; a collection and a read list; a restricted user; API keys; history; page hashes):
 * bare, with every documented query parameter (values that match the data, lists in both of
 * Spring's spellings), and as a reader restricted by library, label and age. Each must answer 200
 * and, where the contract gives a JSON schema, match it strictly (support/contract-responses.ts):
 * types, enum values, date formats, nullability, presence, no extra members, Spring's page
 * envelope, a documented content type. Komga's clients decode these answers with typed models
 * (kotlinx, Moshi, TypeScript), so a member missing, renamed or mistyped breaks them silently.
 */
let server: TestServer;
const ids: Record<string, string> = {};

async function send(method: string, url: string, payload?: unknown, headers: Record<string, string> = server.admin): Promise<LightMyRequestResponse> {
  const response = await server.app.inject({ method: method as 'GET', url, headers, payload: payload as object });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} → ${response.statusCode}: ${response.body}`);
  return response;
}

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  await createSampleLibrary(root);
  const page = (color: [number, number, number]) => ({ width: 600, height: 900, color, format: 'png' as const });
  await createCbz(join(root, 'Rich', 'Rich 01.cbz'), [page(RED), page(GREEN)], {
    comicInfo: {
      title: 'Rich one', series: 'Rich', number: '1', volume: 1, summary: 'A summary', year: 2021, month: 3, day: 4,
      writer: 'Ann Writer', penciller: 'Pen Ciller', publisher: 'Pub House', genre: 'Drama, Action', tags: 'tag-a, tag-b',
      languageIso: 'en', manga: 'No', ageRating: 'Teen', count: 3, seriesGroup: 'Group', storyArc: 'Arc One', storyArcNumber: '1',
    },
  });
  await createReflowableEpub(join(root, 'Novel', 'Novel.epub'), [
    { title: 'One', body: '<p>First chapter.</p>' },
    { title: 'Two', body: '<p>Second chapter.</p>' },
  ], { title: 'Novel' });
  await writePdf(join(root, 'Paper', 'Paper.pdf'), [{ width: 300, height: 400, color: BLUE }]);
  await createCbz(join(root, 'Rich', 'Rich 1.5.cbz'), [page(BLUE)], { comicInfo: { series: 'Rich', number: '1.5' } });
  await createCbz(join(root, '_oneshots', 'One Shot.cbz'), [page(RED)]);
  await createCbz(join(root, 'Gone', 'Gone 01.cbz'), [page(GREEN)]);
  const library = (await send('POST', '/api/v1/libraries', { name: 'Comics', root, hashPages: true, oneshotsDirectory: '_oneshots' })).json() as { id: string };
  await server.app.folio.tasks.idle();
  // A series whose folder went away: kept in the trash (deleted: true) until the trash is emptied.
  await rm(join(root, 'Gone'), { recursive: true });
  await send('POST', `/api/v1/libraries/${library.id}/scan`);
  await server.app.folio.tasks.idle();
  // A second library whose books repeat the first's: duplicates and unknown page hashes.
  const copies = join(server.dir, 'copies');
  await mkdir(join(copies, 'Alpha copy'), { recursive: true });
  await copyFile(join(root, 'Alpha', 'Alpha 01.cbz'), join(copies, 'Alpha copy', 'Alpha 01.cbz'));
  await send('POST', '/api/v1/libraries', { name: 'Copies', root: copies, hashPages: true, hashFiles: true });
  await server.app.folio.tasks.idle();

  const series = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content;
  const state = (name: string) => series.find((s) => s.name === name);
  if (!state('Gone')?.deleted || !state('One Shot')?.oneshot) throw new Error(`expected a deleted series and a oneshot: ${series.map((s) => s.name).join(', ')}`);
  const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true&sort=name')).content;
  const book = (name: string) => books.find((b) => b.name === name)!;
  const alpha = series.find((s) => s.name === 'Alpha')!;
  Object.assign(ids, {
    libraryId: library.id,
    seriesId: alpha.id,
    bookId: book('Alpha 01').id,
    secondBookId: book('Alpha 02').id,
    epubId: book('Novel').id,
    pdfId: book('Paper').id,
    richId: book('Rich 01').id,
  });
  // Metadata a client may have set: links, alternate titles, ISBN, authors.
  await send('PATCH', `/api/v1/series/${alpha.id}/metadata`, {
    status: 'ONGOING', language: 'fr', readingDirection: 'LEFT_TO_RIGHT', ageRating: 12, totalBookCount: 5,
    genres: ['Drama'], tags: ['series-tag'], sharingLabels: ['kids'], publisher: 'Alpha Pub',
    links: [{ label: 'Site', url: 'https://example.org/alpha' }], alternateTitles: [{ label: 'ja', title: 'アルファ' }],
  });
  await send('PATCH', `/api/v1/books/${ids.bookId}/metadata`, {
    summary: 'Book summary', releaseDate: '2020-02-03', isbn: '9780306406157', tags: ['book-tag'],
    authors: [{ name: 'Bob Author', role: 'writer' }], links: [{ label: 'Shop', url: 'https://example.org/shop' }],
  });
  await send('PATCH', `/api/v1/books/${ids.bookId}/read-progress`, { page: 2 });
  await send('PATCH', `/api/v1/books/${ids.secondBookId}/read-progress`, { completed: true });
  await send('PUT', `/api/v1/books/${ids.epubId}/progression`, {
    modified: '2024-01-02T03:04:05Z', device: { id: 'probe', name: 'Probe' },
    locator: { href: 'OEBPS/text/ch0002.xhtml', type: 'application/xhtml+xml', locations: { progression: 0.5, totalProgression: 0.75, position: 2 } },
  });
  ids.collectionId = ((await send('POST', '/api/v1/collections', { name: 'Favourites', ordered: true, seriesIds: [alpha.id] })).json() as { id: string }).id;
  ids.readlistId = ((await send('POST', '/api/v1/readlists', { name: 'Reading', summary: 'Mine', ordered: true, bookIds: [ids.bookId, ids.secondBookId, ids.richId] })).json() as { id: string }).id;
  ids.userId = await insertUser(server, 'reader@example.org', 'reader password', ['PAGE_STREAMING']);
  await send('PATCH', `/api/v2/users/${ids.userId}`, { ageRestriction: { age: 16, restriction: 'ALLOW_ONLY' }, labelsAllow: ['kids'], sharedLibraries: { all: false, libraryIds: [library.id] } });
  await server.get('/api/v2/users/me', { authorization: basic('reader@example.org', 'wrong password') });
  await server.get('/api/v2/users/me', { authorization: basic('reader@example.org', 'reader password') });
  const key = (await send('POST', '/api/v2/users/me/api-keys', { comment: 'probe key' })).json() as { id: string; key: string };
  ids.apiKeyId = key.id;
  ids.adminId = ((await send('GET', '/api/v2/users/me')).json() as { id: string }).id;
  await send('GET', '/api/v1/libraries', undefined, { 'x-api-key': key.key });
  await send('PATCH', '/api/v1/client-settings/global', { 'folio.global': { value: 'g', allowUnauthorized: true } });
  await send('PATCH', '/api/v1/client-settings/user', { 'folio.user': { value: 'u' } });
  // History: a deleted book file.
  await send('DELETE', `/api/v1/books/${book('Beta 01').id}/file`);
  await server.app.folio.tasks.idle();
  // Page hashes: one known, one still unknown.
  const unknown = (await server.json<Page<{ hash: string; size: number | null }>>('/api/v1/page-hashes/unknown')).content;
  if (unknown.length < 2) throw new Error(`expected unknown page hashes, got ${JSON.stringify(unknown)}`);
  await send('PUT', '/api/v1/page-hashes', { hash: unknown[0]!.hash, size: unknown[0]!.size, action: 'DELETE_MANUAL' });
  ids.knownHash = unknown[0]!.hash;
  ids.unknownHash = unknown[1]!.hash;
  // Uploaded posters: series, collections and read lists have none of their own otherwise.
  const poster = multipartFile(await renderPage({ width: 300, height: 450, color: GREEN, format: 'png' }));
  for (const url of [`/api/v1/series/${alpha.id}/thumbnails`, `/api/v1/collections/${ids.collectionId}/thumbnails`, `/api/v1/readlists/${ids.readlistId}/thumbnails`]) {
    const response = await server.app.inject({ method: 'POST', url, headers: { ...server.admin, ...poster.headers }, payload: poster.payload });
    if (response.statusCode !== 200) throw new Error(`${url} → ${response.statusCode}: ${response.body}`);
  }
  for (const [kind, owner] of [['books', ids.bookId], ['series', alpha.id], ['collections', ids.collectionId], ['readlists', ids.readlistId]] as const) {
    const list = await server.json<{ id: string }[]>(`/api/v1/${kind}/${owner}/thumbnails`);
    if (!list[0]) throw new Error(`${kind} ${owner} has no poster`);
    ids[`${kind}Thumbnail`] = list[0].id;
  }
  ids.fontFamily = (await server.json<string[]>('/api/v1/fonts/families'))[0] ?? 'none';
}, 120_000);
afterAll(async () => {
  await server.close();
});

/** Path variables by name; `{id}` by the collection it is under. Some operations want a particular book. */
function pathFor(path: string): string {
  const bookFor: Record<string, string> = {
    '/api/v1/books/{bookId}/previous': ids.secondBookId!,
    '/api/v1/readlists/{id}/books/{bookId}/previous': ids.secondBookId!,
    '/api/v1/books/{bookId}/manifest/epub': ids.epubId!,
    '/api/v1/books/{bookId}/positions': ids.epubId!,
    '/api/v1/books/{bookId}/progression': ids.epubId!,
    '/api/v1/books/{bookId}/manifest/pdf': ids.pdfId!,
  };
  const kind = path.split('/')[3]!;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'bookId') return bookFor[path] ?? ids.bookId!;
    // The admin's id for users: its API key's activity is what `apikey_id` asks for.
    if (name === 'id') return { collections: ids.collectionId, readlists: ids.readlistId, users: ids.adminId }[kind] ?? 'unknown';
    if (name === 'thumbnailId') return ids[`${kind}Thumbnail`]!;
    if (name === 'pageHash') return path.includes('/unknown/') ? ids.unknownHash! : ids.knownHash!;
    if (name === 'pageNumber') return '1';
    return ids[name] ?? `unknown-${name}`;
  });
}

/** Operations the sweep does not call, and why. */
const NOT_SWEPT: Record<string, string> = {
  '/api/logout': 'ends the session the sweep uses; auth.test.ts',
  '/api/v1/login/set-cookie': 'answers 204 with a cookie; auth.test.ts',
  '/api/v1/transient-books/{id}/pages/{pageNumber}': 'needs a scanned import folder; import.test.ts',
  '/api/v1/books/{bookId}/resource/{resource}': 'an EPUB resource by its archive path; readium.test.ts',
  '/api/v1/fonts/resource/{fontFamily}/{fontFile}': 'Folio ships no fonts (families is empty)',
  '/api/v1/fonts/resource/{fontFamily}/css': 'Folio ships no fonts (families is empty)',
};

/**
 * A value for each documented query parameter that matches the data above, so filtered answers
 * still hold items to check. Lists are sent as Spring reads them in both spellings (repeated and
 * comma-separated, by the parameter's position) and sorts as two `sort` parameters.
 */
function queryFor(path: string): string {
  const values: Record<string, string[]> = {
    search: ['Alpha'],
    library_id: [ids.libraryId!],
    collection_id: [ids.collectionId!],
    series_id: [ids.seriesId!],
    readlist_id: [ids.readlistId!],
    media_status: ['READY', 'ERROR'],
    read_status: ['IN_PROGRESS', 'READ'],
    status: ['ONGOING', 'ENDED'],
    released_after: ['2000-01-01'],
    publisher: ['Alpha Pub'],
    language: ['fr'],
    genre: ['Drama'],
    age_rating: ['12', 'None'],
    release_year: ['2020', '2021'],
    sharing_label: ['kids'],
    author: ['Bob Author,writer'],
    role: ['writer'],
    include: ['BOTH'],
    search_regex: ['^A,TITLE'],
    deleted: ['false'],
    complete: ['false'],
    oneshot: ['false'],
    unpaged: ['false'],
    page: ['0'],
    size: ['5'],
    action: ['DELETE_MANUAL', 'IGNORE'],
    resize: ['100'],
    convert: ['png'],
    zero_based: ['false'],
    contentNegotiation: ['true'],
    apikey_id: [ids.apiKeyId!],
    'remember-me': ['false'],
  };
  // Books carry the book's tag; series lists and the tag pick lists the series'.
  const tags = /\/books(\/|$)/.test(path) ? ['book-tag'] : ['series-tag'];
  const searches: [RegExp, string][] = [
    [/authors/, 'Bob'], [/genres/, 'Dra'], [/languages/, 'fr'], [/tags/, 'series'], [/sharing-labels/, 'kid'],
    [/publishers/, 'Alpha'], [/collections/, 'Fav'], [/readlists/, 'Read'], [/./, 'Alpha'],
  ];
  values.search = [searches.find(([pattern]) => pattern.test(path))![1]];
  const sorts: Record<string, string[]> = {
    '/api/v1/history': ['timestamp,desc', 'type'],
    '/api/v1/page-hashes': ['deleteCount,desc', 'hash'],
    '/api/v1/page-hashes/unknown': ['matchCount,desc', 'hash'],
    '/api/v1/page-hashes/{pageHash}': ['url,asc', 'pageNumber'],
    '/api/v1/series': ['metadata.titleSort,desc', 'created'],
    '/api/v2/users/authentication-activity': ['dateTime,desc', 'email'],
    '/api/v2/users/me/authentication-activity': ['dateTime,desc', 'email'],
  };
  const parts: string[] = [];
  for (const [i, { name, schema }] of queryParameters('GET', path).entries()) {
    const list = name === 'tag' ? tags : name === 'sort' ? (sorts[path] ?? ['metadata.numberSort,desc', 'name']) : values[name];
    if (!list) throw new Error(`no value for ${path} ?${name}`);
    const encoded = list.map(encodeURIComponent);
    if (schema.type !== 'array') parts.push(`${name}=${encoded[0]}`);
    else if (i % 2 === 0 || name === 'sort' || name === 'author') parts.push(...encoded.map((v) => `${name}=${v}`));
    else parts.push(`${name}=${encoded.join(',')}`);
  }
  return parts.join('&');
}

async function check(path: string, url: string, headers: Record<string, string> = server.admin): Promise<LightMyRequestResponse> {
  const response = await server.get(url, headers);
  expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
  // Files and images are served with their own type, which springdoc does not list: only JSON types are compared.
  if (!jsonResponseSchema('GET', path)) return response;
  expect(documentsContentType('GET', path, String(response.headers['content-type'])), `${url}: ${response.headers['content-type']}`).toBe(true);
  expect(responseProblems('GET', path, response.json()), url).toEqual([]);
  return response;
}

/** Filtered lists the data leaves empty, and why. */
const EMPTY_WHEN_FILTERED: Record<string, string> = {
  '/api/v1/books/ondeck': 'on deck needs a series with read books and none in progress; Alpha has one in progress',
  '/api/v1/series/updated': 'no series gained books after its creation',
};

const swept = getOperations.filter((path) => !(path in NOT_SWEPT));

describe('the response checker', () => {
  it('finds each kind of difference (so the sweeps below can fail)', async () => {
    const book = (await server.get(`/api/v1/books/${ids.bookId}`)).json() as Record<string, unknown>;
    expect(responseProblems('GET', '/api/v1/books/{bookId}', book)).toEqual([]);
    const { url: _url, ...withoutUrl } = book;
    const metadata = book.metadata as Record<string, unknown>;
    expect(responseProblems('GET', '/api/v1/books/{bookId}', withoutUrl)).toEqual(["/ must have required property 'url'"]);
    expect(responseProblems('GET', '/api/v1/books/{bookId}', { ...book, extra: 1 })).toEqual(['/ must NOT have additional properties: extra']);
    expect(responseProblems('GET', '/api/v1/books/{bookId}', { ...book, created: '2020-01-02T03:04:05.123Z' })).toEqual(['/created must match format "date-time" ("2020-01-02T03:04:05.123Z")']);
    expect(responseProblems('GET', '/api/v1/books/{bookId}', { ...book, sizeBytes: '12' })).toEqual(['/sizeBytes must be integer']);
    // A nullable member is written as null by Jackson, never left out.
    const { isbn: _isbn, ...withoutIsbn } = metadata;
    expect(responseProblems('GET', '/api/v1/books/{bookId}', { ...book, metadata: withoutIsbn })).toEqual(["/metadata must have required property 'isbn'"]);
    expect(responseProblems('GET', '/api/v1/books/{bookId}', { ...book, readProgress: null })).toEqual([]);
    const page = (await server.get('/api/v1/books?size=1')).json() as Record<string, unknown>;
    const { pageable: _pageable, ...withoutPageable } = page;
    expect(responseProblems('GET', '/api/v1/books', withoutPageable)).toEqual(["/ must have required property 'pageable'"]);
    expect(responseProblems('GET', '/api/v1/books', { ...page, totalElements: null })).toEqual(['/totalElements must be integer']);
  });
});

describe('every GET of the contract answers its documented JSON', () => {
  for (const path of swept) {
    it(`GET ${path}`, async () => {
      await check(path, pathFor(path));
    });
  }
});

describe('every GET of the contract takes its documented query parameters', () => {
  for (const path of swept.filter((p) => queryParameters('GET', p).length > 0)) {
    it(`GET ${path}`, async () => {
      const response = await check(path, `${pathFor(path)}?${queryFor(path)}`);
      // The values match the data, so a filter read wrongly shows as an empty answer.
      if (!jsonResponseSchema('GET', path) || path in EMPTY_WHEN_FILTERED) return;
      const body = response.json() as unknown[] | { content?: unknown[] };
      const items = Array.isArray(body) ? body : body.content;
      if (items) expect(items.length, `${path}: no item matched`).toBeGreaterThan(0);
    });
  }
});

/** What a reader restricted by library, label and age may be refused: admin-only operations, hidden books. */
const REFUSED_TO_READER: Record<string, number> = {
  '/actuator/info': 403,
  '/api/v1/announcements': 403,
  '/api/v1/releases': 403,
  '/api/v1/settings': 403,
  '/api/v1/books/duplicates': 403,
  '/api/v1/page-hashes': 403,
  '/api/v1/page-hashes/unknown': 403,
  '/api/v1/page-hashes/unknown/{pageHash}/thumbnail': 403,
  '/api/v1/page-hashes/{pageHash}': 403,
  '/api/v1/page-hashes/{pageHash}/thumbnail': 403,
  '/api/v2/users': 403,
  '/api/v2/users/authentication-activity': 403,
  '/api/v2/users/{id}/authentication-activity/latest': 403,
  // No FILE_DOWNLOAD role.
  '/api/v1/books/{bookId}/file': 403,
  '/api/v1/books/{bookId}/file/*': 403,
  '/api/v1/series/{seriesId}/file': 403,
  '/api/v1/readlists/{id}/file': 403,
  // The EPUB and the PDF have neither an age rating nor the reader's label.
  '/api/v1/books/{bookId}/manifest/epub': 404,
  '/api/v1/books/{bookId}/manifest/pdf': 404,
  '/api/v1/books/{bookId}/positions': 404,
  '/api/v1/books/{bookId}/progression': 404,
};

describe('every GET of the contract, as a restricted reader', () => {
  for (const path of swept) {
    it(`GET ${path}`, async () => {
      const reader = { authorization: basic('reader@example.org', 'reader password') };
      const refused = REFUSED_TO_READER[path];
      if (refused === undefined) return void (await check(path, pathFor(path), reader));
      const response = await server.get(pathFor(path), reader);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(refused);
    });
  }
});

describe('write operations answer their documented JSON', () => {
  const checked = async (method: string, path: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<unknown> => {
    const response = await server.app.inject({ method: method as 'POST', url, headers: { ...server.admin, ...headers }, payload: payload as object });
    expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBeLessThan(300);
    expect(documentsContentType(method, path, String(response.headers['content-type'])), `${url}: ${response.headers['content-type']}`).toBe(true);
    expect(responseProblems(method, path, response.json()), `${method} ${url}`).toEqual([]);
    return response.json();
  };

  it('searches (POST /list)', async () => {
    const condition = { condition: { allOf: [{ libraryId: { operator: 'is', value: ids.libraryId } }] } };
    expect(((await checked('POST', '/api/v1/books/list', '/api/v1/books/list?sort=metadata.releaseDate,desc', condition)) as Page<BookDto>).content).not.toEqual([]);
    expect(((await checked('POST', '/api/v1/series/list', '/api/v1/series/list?unpaged=true', condition)) as Page<SeriesDto>).content).not.toEqual([]);
    expect(await checked('POST', '/api/v1/series/list/alphabetical-groups', '/api/v1/series/list/alphabetical-groups', condition)).not.toEqual([]);
  });

  it('creations: library, collection, read list, user, API key, poster', async () => {
    const empty = join(server.dir, 'empty');
    await mkdir(empty, { recursive: true });
    await checked('POST', '/api/v1/libraries', '/api/v1/libraries', { name: 'Empty', root: empty });
    await server.app.folio.tasks.idle();
    await checked('POST', '/api/v1/collections', '/api/v1/collections', { name: 'Another', ordered: false, seriesIds: [ids.seriesId] });
    await checked('POST', '/api/v1/readlists', '/api/v1/readlists', { name: 'Another list', summary: '', ordered: false, bookIds: [ids.bookId] });
    await checked('POST', '/api/v2/users', '/api/v2/users', { email: 'new@example.org', password: 'a password', roles: ['FILE_DOWNLOAD'] });
    await checked('POST', '/api/v2/users/me/api-keys', '/api/v2/users/me/api-keys', { comment: 'another key' });
    const poster = multipartFile(await renderPage({ width: 300, height: 450, color: RED, format: 'png' }));
    await checked('POST', '/api/v1/books/{bookId}/thumbnails', `/api/v1/books/${ids.bookId}/thumbnails?selected=false`, poster.payload, poster.headers);
  });

  it('filesystem, transient books, ComicRack match, tasks', async () => {
    await checked('POST', '/api/v1/filesystem', '/api/v1/filesystem', { path: server.dir, showFiles: true });
    const inbox = join(server.dir, 'inbox');
    await createCbz(join(inbox, 'Inbox 01.cbz'), [{ width: 10, height: 10, color: GREEN, format: 'png' }]);
    const [transient] = (await checked('POST', '/api/v1/transient-books', '/api/v1/transient-books', { path: inbox })) as { id: string }[];
    await checked('POST', '/api/v1/transient-books/{id}/analyze', `/api/v1/transient-books/${transient!.id}/analyze`);
    const boundary = 'contract-cbl';
    const cbl = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="l.cbl"\r\n\r\n<ReadingList><Name>L</Name><Books><Book Series="Alpha" Number="1"/><Book Series="Nowhere" Number="9"/></Books></ReadingList>\r\n--${boundary}--\r\n`;
    await checked('POST', '/api/v1/readlists/match/comicrack', '/api/v1/readlists/match/comicrack', cbl, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(typeof (await checked('DELETE', '/api/v1/tasks', '/api/v1/tasks'))).toBe('number');
  });
});

describe('shallow ETags (REFERENCE §0): every 2xx GET under /api but downloads', () => {
  for (const path of swept.filter((p) => p.startsWith('/api/') && !/\/file(\/\*)?$/.test(p))) {
    it(`GET ${path}`, async () => {
      const url = pathFor(path);
      const first = await server.get(url);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag;
      expect(etag, `${url} has no ETag`).toBeTruthy();
      const again = await server.get(url, { ...server.admin, 'if-none-match': String(etag) });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
    });
  }
});
