import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';
import { shapeProblems } from './openapi-shape.ts';

/**
 * Third-party Komga clients not covered by komga-mobile-calls.test.ts, replayed request by request
 * against the real server (real SQLite, generated CBZs):
 *
 * - Komelia and komf, which both speak through Snd-R's komga-client (Ktor): Basic sent on every
 *   call before any challenge, `Accept: application/json` added to every call by the JSON plugin
 *   (page images included), search bodies written by kotlinx.serialization (a `type` member on each
 *   condition, `fulltextSearch` spelled with a lower-case t), `library_id` joined with ", " on the
 *   on-deck call, `unpaged=false` sent beside page and size, metadata PATCHes that leave out what
 *   they do not change, and poster uploads as Ktor writes multipart (an unquoted part name, no part
 *   Content-Type, a `selected` field). komf may use an API key (`X-API-Key`) instead of Basic.
 * - Paperback's Komga source: `sort=titleSort` (no direction, no `metadata.` prefix) or
 *   `sort=lastModified,desc`, filters repeated (`tag=a&tag=b`), chapters as
 *   `?unpaged=true&media_status=READY&deleted=false`, pages with `?convert=png` when the type is not
 *   one it shows.
 * - OPDS 1.2 readers (KOReader, Panels, Chunky): the first call without credentials must be
 *   challenged with Basic (the reader then prompts and retries), page streaming through the PSE
 *   link counting from 0, `pse:lastRead` to resume, the download with a byte range.
 */
let c: CompatServer;
let apiKey: string;
const BASIC = { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) };
// What Ktor's ContentNegotiation + Auth(basic, sendWithoutRequest) put on every komga-client call.
const KTOR = { ...BASIC, accept: 'application/json', 'accept-charset': 'UTF-8', 'user-agent': 'Komelia/0.15' };

beforeAll(async () => {
  c = await startCompatServer();
  const created = await c.send('POST', '/api/v2/users/me/api-keys', { body: { comment: 'komf' }, contentType: 'application/json' });
  apiKey = created.json().key;
});
afterAll(async () => {
  await c.server.close();
});

const call = (method: string, url: string, headers: Record<string, string>, payload?: string | Buffer) =>
  c.server.app.inject({ method: method as 'GET', url, headers, payload });
const ok = (response: LightMyRequestResponse, status = 200) => {
  expect(response.statusCode, `${response.statusCode}: ${response.body.slice(0, 300)}`).toBe(status);
  return response;
};
const ready = () => c.books.filter((b) => b.media.status === 'READY');
const alpha = () => c.series.find((s) => s.name === 'Alpha')!;

/** A multipart body byte for byte as Ktor's MultiPartFormDataContent writes komga-client's poster upload. */
function ktorPosterUpload(file: Buffer, selected: boolean) {
  const boundary = '-1a2b3c4d5e-ktor-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=file; filename="thumbnail"\r\nContent-Length: ${file.length}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name=selected\r\nContent-Length: ${String(selected).length}\r\n\r\n${selected}\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('Komelia (komga-client over Ktor)', () => {
  it('login, libraries, then the series browse as a POST search with kotlinx type members and fulltextSearch', async () => {
    const me = ok(await call('GET', '/api/v2/users/me', KTOR)).json();
    expect(shapeProblems(me, 'UserDto')).toEqual([]);
    expect(ok(await call('GET', '/api/v1/libraries', KTOR)).json().map((l: { id: string }) => l.id)).toEqual([c.library.id]);

    const json = { ...KTOR, 'content-type': 'application/json' };
    const byLibrary = {
      condition: { type: 'AllOfSeries', allOf: [{ type: 'LibraryId', libraryId: { operator: 'is', value: c.library.id } }, { type: 'Deleted', deleted: { operator: 'isFalse' } }] },
    };
    const all = ok(await call('POST', '/api/v1/series/list?size=50&page=0&unpaged=false&sort=metadata.titleSort,asc', json, JSON.stringify(byLibrary))).json();
    expect(shapeProblems(all, 'PageSeriesDto')).toEqual([]);
    expect(all.content.map((s: { id: string }) => s.id)).toEqual(c.series.map((s) => s.id));

    const searched = ok(await call('POST', '/api/v1/series/list?size=50&page=0&unpaged=false', json, JSON.stringify({ ...byLibrary, fulltextSearch: 'alpha' }))).json();
    expect(searched.content.map((s: { name: string }) => s.name)).toEqual(['Alpha']);

    const books = ok(
      await call('POST', '/api/v1/books/list?unpaged=true&sort=metadata.numberSort,asc', json, JSON.stringify({
        condition: { type: 'AllOfBook', allOf: [{ type: 'SeriesId', seriesId: { operator: 'is', value: alpha().id } }, { type: 'Deleted', deleted: { operator: 'isFalse' } }] },
      })),
    ).json();
    expect(shapeProblems(books, 'PageBookDto')).toEqual([]);
    expect(books.content.map((b: { id: string }) => b.id)).toEqual(c.books.filter((b) => b.seriesId === alpha().id).map((b) => b.id));
  });

  it('home screen calls: on deck with library ids joined by ", ", new and updated series, latest books', async () => {
    const onDeck = ok(await call('GET', `/api/v1/books/ondeck?size=20&page=0&unpaged=false&library_id=OTHER,%20${c.library.id}`, KTOR)).json();
    expect(shapeProblems(onDeck, 'PageBookDto')).toEqual([]);
    for (const url of ['/api/v1/series/new', '/api/v1/series/updated']) {
      const page = ok(await call('GET', `${url}?library_id=${c.library.id}&oneshot=false&deleted=false&size=20&page=0&unpaged=false`, KTOR)).json();
      expect(shapeProblems(page, 'PageSeriesDto'), url).toEqual([]);
    }
    expect(shapeProblems(ok(await call('GET', '/api/v1/books/latest?size=20&page=0&unpaged=false', KTOR)).json(), 'PageBookDto')).toEqual([]);
  });

  it('reader: pages, each image with the JSON Accept the client adds to everything, siblings, progress PATCH shapes', async () => {
    const [first, second] = c.books.filter((b) => b.seriesId === alpha().id);
    const pages = ok(await call('GET', `/api/v1/books/${first!.id}/pages`, KTOR)).json();
    const image = ok(await call('GET', `/api/v1/books/${first!.id}/pages/1`, KTOR));
    expect(image.headers['content-type']).toBe(pages[0].mediaType);
    expect(ok(await call('GET', `/api/v1/books/${first!.id}/next`, KTOR)).json().id).toBe(second!.id);
    expect(ok(await call('GET', `/api/v1/books/${second!.id}/previous`, KTOR)).json().id).toBe(first!.id);
    expect((await call('GET', `/api/v1/books/${first!.id}/previous`, KTOR)).statusCode).toBe(404);
    expect(ok(await call('GET', `/api/v1/books/${first!.id}/progression`, { ...KTOR, accept: '*/*' }), 204).body).toBe('');

    const json = { ...KTOR, 'content-type': 'application/json' };
    const progress = `/api/v1/books/${first!.id}/read-progress`;
    ok(await call('PATCH', progress, json, JSON.stringify({ page: 2, completed: false })), 204);
    expect(ok(await call('GET', `/api/v1/books/${first!.id}`, KTOR)).json().readProgress).toMatchObject({ page: 2, completed: false });
    ok(await call('PATCH', progress, json, JSON.stringify({ completed: true })), 204);
    expect(ok(await call('GET', `/api/v1/books/${first!.id}`, KTOR)).json().readProgress).toMatchObject({ page: pages.length, completed: true });
    ok(await call('DELETE', progress, KTOR), 204);
    expect(ok(await call('GET', `/api/v1/books/${first!.id}`, KTOR)).json().readProgress).toBeNull();
  });
});

describe('komf (metadata fetcher)', () => {
  const KEY = () => ({ 'x-api-key': apiKey, accept: 'application/json', 'user-agent': 'komf/1.0' });

  it('reads libraries and each library’s series 500 at a time with an API key, then a series’ books unpaged', async () => {
    expect(ok(await call('GET', `/api/v1/libraries/${c.library.id}`, KEY())).json().id).toBe(c.library.id);
    const body = { condition: { type: 'AllOfSeries', allOf: [{ type: 'LibraryId', libraryId: { operator: 'is', value: c.library.id } }] } };
    const page = ok(await call('POST', '/api/v1/series/list?size=500&page=0&unpaged=false', { ...KEY(), 'content-type': 'application/json' }, JSON.stringify(body))).json();
    expect(page.totalElements).toBe(c.series.length);
    expect(page.totalPages).toBe(1);
    const books = ok(
      await call('POST', '/api/v1/books/list?unpaged=true', { ...KEY(), 'content-type': 'application/json' }, JSON.stringify({
        condition: { type: 'AllOfBook', allOf: [{ type: 'SeriesId', seriesId: { operator: 'is', value: alpha().id } }] },
      })),
    ).json();
    expect(books.content.length).toBe(c.books.filter((b) => b.seriesId === alpha().id).length);
  });

  it('PATCHes series and book metadata with only the fields it fetched, locks included, then resets them', async () => {
    const json = { ...KEY(), 'content-type': 'application/json' };
    const series = alpha();
    ok(await call('PATCH', `/api/v1/series/${series.id}/metadata`, json, JSON.stringify({
      status: 'ENDED', title: 'Alpha Fetched', titleSort: 'Alpha Fetched', alternateTitles: [{ label: 'Romaji', title: 'Arufa' }],
      summary: 'From a provider', publisher: 'Provider Press', readingDirection: 'RIGHT_TO_LEFT', genres: ['Action'], tags: ['tagged'],
      totalBookCount: 2, links: [{ label: 'AniList', url: 'https://anilist.co/manga/1' }], statusLock: true, titleLock: true, linksLock: true,
    })), 204);
    const patched = ok(await call('GET', `/api/v1/series/${series.id}`, KEY())).json();
    expect(patched.metadata).toMatchObject({ status: 'ENDED', title: 'Alpha Fetched', readingDirection: 'RIGHT_TO_LEFT', totalBookCount: 2, statusLock: true, titleLock: true });
    expect(patched.metadata.alternateTitles).toEqual([{ label: 'Romaji', title: 'Arufa' }]);

    const book = c.books.find((b) => b.seriesId === series.id)!;
    ok(await call('PATCH', `/api/v1/books/${book.id}/metadata`, json, JSON.stringify({
      title: 'Chapter One', summary: '', number: '1', numberSort: 1.0, releaseDate: '2020-01-02',
      authors: [{ name: 'Someone', role: 'writer' }], tags: ['x'], isbn: '9780306406157', links: [{ label: 'Site', url: 'https://example.org' }], titleLock: true,
    })), 204);
    expect(ok(await call('GET', `/api/v1/books/${book.id}`, KEY())).json().metadata).toMatchObject({ title: 'Chapter One', releaseDate: '2020-01-02', isbn: '9780306406157', titleLock: true });

    // komf's reset: name back as title, empty texts and lists, every lock off.
    ok(await call('PATCH', `/api/v1/series/${series.id}/metadata`, json, JSON.stringify({
      status: 'ONGOING', title: series.name, titleSort: series.name, summary: '', publisher: '', language: '', genres: [], tags: [],
      statusLock: false, titleLock: false, titleSortLock: false, summaryLock: false, publisherLock: false, readingDirectionLock: false,
      ageRatingLock: false, languageLock: false, genresLock: false, tagsLock: false, totalBookCountLock: false, linksLock: false,
    })), 204);
    expect(ok(await call('GET', `/api/v1/series/${series.id}`, KEY())).json().metadata).toMatchObject({ title: series.name, statusLock: false, genres: [] });
  });

  it('uploads posters as Ktor writes multipart (selected or not), lists, selects and deletes them; then asks for a refresh', async () => {
    const book = ready()[0]!;
    const png = ok(await call('GET', `/api/v1/books/${book.id}/pages/1?convert=png`, KEY())).rawPayload;
    for (const [kind, id] of [['series', alpha().id], ['books', book.id]] as const) {
      // komf asks for the series cover to be shown, and adds a book cover beside the generated one.
      const selected = kind === 'series';
      const upload = ktorPosterUpload(png, selected);
      const posted = ok(await call('POST', `/api/v1/${kind}/${id}/thumbnails`, { ...KEY(), 'content-type': upload.contentType }, upload.payload)).json();
      expect(shapeProblems(posted, kind === 'series' ? 'ThumbnailSeriesDto' : 'ThumbnailBookDto'), kind).toEqual([]);
      expect(posted).toMatchObject({ type: 'USER_UPLOADED', selected });
      const listed = ok(await call('GET', `/api/v1/${kind}/${id}/thumbnails`, KEY())).json();
      expect(listed.map((t: { id: string }) => t.id)).toContain(posted.id);
      ok(await call('PUT', `/api/v1/${kind}/${id}/thumbnails/${posted.id}/selected`, KEY()), 202);
      expect(ok(await call('GET', `/api/v1/${kind}/${id}/thumbnails`, KEY())).json().find((t: { id: string }) => t.id === posted.id).selected).toBe(true);
      ok(await call('DELETE', `/api/v1/${kind}/${id}/thumbnails/${posted.id}`, KEY()), 202);
    }
    ok(await call('POST', `/api/v1/series/${alpha().id}/metadata/refresh`, KEY()), 202);
    await c.server.app.folio.tasks.idle();
  });

  it('a wrong API key is a bare 401', async () => {
    const refused = await call('GET', '/api/v1/libraries', { 'x-api-key': 'not-a-key' });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe('');
  });
});

describe('Paperback’s Komga source', () => {
  const PB = { ...BASIC, 'user-agent': 'Paperback-iOS/0.8' };

  it('search: sort=titleSort (a bare, unknown key: answered, not refused) or lastModified,desc; repeated filters', async () => {
    for (const sort of ['titleSort', 'lastModified,desc']) {
      const page = ok(await call('GET', `/api/v1/series?page=0&size=40&sort=${encodeURIComponent(sort)}`, PB)).json();
      expect(page.content.length, sort).toBe(c.series.length);
    }
    const found = ok(await call('GET', '/api/v1/series?page=0&size=40&search=alp&sort=titleSort', PB)).json();
    expect(found.content.map((s: { name: string }) => s.name)).toEqual(['Alpha']);
    const libraries = ok(await call('GET', `/api/v1/series?page=0&size=40&library_id=${c.library.id}&library_id=OTHER&sort=titleSort`, PB)).json();
    expect(libraries.totalElements).toBe(c.series.length);
    // An empty last page tells the source to stop.
    expect(ok(await call('GET', '/api/v1/series?page=1&size=40&sort=titleSort', PB)).json().content).toEqual([]);
  });

  it('chapters, then each page (convert=png for a type it does not show) and the series cover', async () => {
    const chapters = ok(await call('GET', `/api/v1/series/${alpha().id}/books?unpaged=true&media_status=READY&deleted=false`, PB)).json();
    expect(chapters.content.length).toBe(2);
    const book = chapters.content[0];
    const pages = ok(await call('GET', `/api/v1/books/${book.id}/pages`, PB)).json();
    for (const page of pages) ok(await call('GET', `/api/v1/books/${book.id}/pages/${page.number}`, PB));
    expect(ok(await call('GET', `/api/v1/books/${book.id}/pages/1?convert=png`, PB)).headers['content-type']).toBe('image/png');
    expect(String(ok(await call('GET', `/api/v1/series/${alpha().id}/thumbnail`, PB)).headers['content-type'])).toMatch(/^image\//);
  });
});

describe('OPDS 1.2 readers (KOReader, Panels, Chunky)', () => {
  const ATOM = { accept: 'application/atom+xml, application/xml;q=0.9, */*;q=0.1' };

  it('every address they follow is challenged with Basic when sent without credentials', async () => {
    const book = ready()[0]!;
    for (const url of ['/opds/v1.2/catalog', '/opds/v1.2/search', `/opds/v1.2/books/${book.id}/pages/0`, `/opds/v1.2/books/${book.id}/thumbnail`, `/opds/v1.2/books/${book.id}/file/x.cbz`]) {
      const anonymous = await call('GET', url, ATOM);
      expect(anonymous.statusCode, url).toBe(401);
      expect(String(anonymous.headers['www-authenticate']), url).toMatch(/^Basic realm=/);
    }
  });

  it('a feed asked for with `size` (Spring paging, as Komga reads it) has that many entries, and its links keep the size', async () => {
    const headers = { ...ATOM, ...BASIC };
    const entryIds = (body: string) => [...body.matchAll(/<entry>.*?<id>([^<]+)<\/id>/g)].map((m) => m[1]);
    const first = ok(await call('GET', '/opds/v1.2/series?size=1', headers)).body;
    expect(entryIds(first)).toEqual([`series-${c.series[0]!.id}`]);
    expect(first).toContain('rel="next" href="http://localhost:80/opds/v1.2/series?page=1&amp;size=1"');
    const second = ok(await call('GET', '/opds/v1.2/series?page=1&size=1', headers)).body;
    expect(entryIds(second)).toEqual([`series-${c.series[1]!.id}`]);
    expect(second).toContain('rel="previous" href="http://localhost:80/opds/v1.2/series?page=0&amp;size=1"');
    const books = ok(await call('GET', `/opds/v1.2/series/${alpha().id}?size=1&page=1`, headers)).body;
    expect(entryIds(books)).toEqual([`book-${c.books.filter((b) => b.seriesId === alpha().id)[1]!.id}`]);
    // No size, or one Spring would not take: Folio's own page, links without a size.
    for (const url of ['/opds/v1.2/series', '/opds/v1.2/series?size=0', '/opds/v1.2/series?size=x']) {
      const whole = ok(await call('GET', url, headers)).body;
      expect(entryIds(whole), url).toHaveLength(c.series.length);
      expect(whole, url).not.toContain('size=');
    }
  });

  it('a series feed lists only the books that can be read, as Komga’s does: none for a series whose one book failed analysis', async () => {
    const headers = { ...ATOM, ...BASIC };
    const broken = c.books.find((b) => b.media.status !== 'READY')!;
    const feed = ok(await call('GET', `/opds/v1.2/series/${broken.seriesId}`, headers)).body;
    expect(feed).toContain(`<id>series-${broken.seriesId}</id>`);
    expect(feed).not.toContain('<entry>');
    const readable = ok(await call('GET', `/opds/v1.2/series/${alpha().id}`, headers)).body;
    expect([...readable.matchAll(/<entry>/g)]).toHaveLength(c.books.filter((b) => b.seriesId === alpha().id).length);
  });

  it('the OpenSearch search finds series by title (contained, any case or accent), as Komga’s does, not by publisher or tag', async () => {
    const headers = { ...ATOM, ...BASIC };
    const beta = c.series.find((s) => s.name === 'Beta')!;
    ok(await c.send('PATCH', `/api/v1/series/${beta.id}/metadata`, { body: { publisher: 'Alphabet Press', tags: ['alpha'] }, contentType: 'application/json' }), 204);
    const titles = async (search: string) =>
      [...ok(await call('GET', `/opds/v1.2/series?search=${encodeURIComponent(search)}`, headers)).body.matchAll(/<entry><title>([^<]+)/g)].map((m) => m[1]);
    expect(await titles('alpha')).toEqual(['Alpha']);
    expect(await titles('LPH')).toEqual(['Alpha']);
    expect(await titles('Alphà')).toEqual(['Alpha']);
    expect(await titles('press')).toEqual([]);
    expect(await titles('et')).toEqual(['Beta']);
    // The API's search stays full text (Komga's GET /api/v1/series?search=): the publisher matches there.
    const api = ok(await call('GET', '/api/v1/series?search=alphabet', BASIC)).json();
    expect(api.content.map((s: { name: string }) => s.name)).toEqual(['Beta']);
    ok(await c.send('PATCH', `/api/v1/series/${beta.id}/metadata`, { body: { publisher: '', tags: [] }, contentType: 'application/json' }), 204);
  });

  it('OpenSearch, a series feed, page streaming from 0 that resumes at pse:lastRead, and a ranged download', async () => {
    const headers = { ...ATOM, ...BASIC };
    const description = ok(await call('GET', '/opds/v1.2/search', headers)).body;
    const template = /template="([^"]+)"/.exec(description)![1]!;
    expect(template).toContain('{searchTerms}');
    const results = ok(await call('GET', new URL(template.replace('{searchTerms}', 'alpha')).pathname + '?search=alpha', headers)).body;
    expect(results).toContain(`/opds/v1.2/series/${alpha().id}`);

    const book = c.books.find((b) => b.seriesId === alpha().id)!;
    ok(await call('PATCH', `/api/v1/books/${book.id}/read-progress`, { ...BASIC, 'content-type': 'application/json' }, JSON.stringify({ page: 2 })), 204);
    const feed = ok(await call('GET', `/opds/v1.2/series/${alpha().id}`, headers)).body;
    const stream = new RegExp(`<link rel="http://vaemendis.net/opds-pse/stream" href="([^"]*/books/${book.id}/pages/\\{pageNumber\\}[^"]*)"[^>]*pse:count="(\\d+)"[^>]*pse:lastRead="(\\d+)"`).exec(feed);
    expect(stream, feed).not.toBeNull();
    expect(Number(stream![2])).toBe(book.media.pagesCount);
    expect(Number(stream![3])).toBe(2);
    // {pageNumber} counts from 0: page 0 of the stream is the API's page 1.
    const streamed = ok(await call('GET', new URL(stream![1]!.replace('{pageNumber}', '0')).pathname, BASIC)).rawPayload;
    const apiFirst = ok(await call('GET', `/api/v1/books/${book.id}/pages/1`, BASIC)).rawPayload;
    expect(streamed.equals(apiFirst)).toBe(true);

    const acquisition = new RegExp(`rel="http://opds-spec.org/acquisition" href="([^"]*/books/${book.id}/file/[^"]*)"`).exec(feed)![1]!;
    const ranged = ok(await call('GET', new URL(acquisition).pathname, { ...BASIC, range: 'bytes=0-3' }), 206);
    expect(ranged.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
  });
});
