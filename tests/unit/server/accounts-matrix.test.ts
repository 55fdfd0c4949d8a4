import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, startServer, type TestServer } from './helpers.ts';
import { send } from './accounts-helpers.ts';

/**
 * Access matrix: every kind of caller against the account routes and the content routes (series,
 * books, pages, libraries). Content: library A holds Kids (age 6, label family), Teen (14),
 * Mature (18, label adult) and Unrated; library B holds Other (10, label family). Hidden items
 * must answer 404 and never show up in lists or counts.
 */
const SERIES = ['Kids', 'Teen', 'Mature', 'Unrated', 'Other'] as const;
type SeriesName = (typeof SERIES)[number];

interface Caller {
  name: string;
  /** null = anonymous. */
  email: string | null;
  body?: Record<string, unknown>;
  admin?: boolean;
  streaming: boolean;
  visible: SeriesName[];
  libraries: ('A' | 'B')[];
}

const everything: SeriesName[] = [...SERIES];
const CALLERS: Caller[] = [
  { name: 'anonymous', email: null, streaming: false, visible: [], libraries: [] },
  { name: 'USER', email: 'user@x.org', body: { roles: ['PAGE_STREAMING'] }, streaming: true, visible: everything, libraries: ['A', 'B'] },
  { name: 'no PAGE_STREAMING', email: 'nostream@x.org', body: { roles: [] }, streaming: false, visible: everything, libraries: ['A', 'B'] },
  {
    name: 'one library',
    email: 'onelib@x.org',
    body: { roles: ['PAGE_STREAMING'], sharedLibraries: { all: false, libraryIds: ['<A>'] } },
    streaming: true,
    visible: ['Kids', 'Teen', 'Mature', 'Unrated'],
    libraries: ['A'],
  },
  {
    name: 'age ALLOW_ONLY 12',
    email: 'allow12@x.org',
    body: { roles: ['PAGE_STREAMING'], ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' } },
    streaming: true,
    visible: ['Kids', 'Other'],
    libraries: ['A', 'B'],
  },
  {
    name: 'age EXCLUDE 16',
    email: 'exclude16@x.org',
    body: { roles: ['PAGE_STREAMING'], ageRestriction: { age: 16, restriction: 'EXCLUDE' } },
    streaming: true,
    visible: ['Kids', 'Teen', 'Unrated', 'Other'],
    libraries: ['A', 'B'],
  },
  {
    name: 'labels allow family',
    email: 'family@x.org',
    body: { roles: ['PAGE_STREAMING'], labelsAllow: ['Family'] },
    streaming: true,
    visible: ['Kids', 'Other'],
    libraries: ['A', 'B'],
  },
  {
    name: 'labels exclude adult',
    email: 'noadult@x.org',
    body: { roles: ['PAGE_STREAMING'], labelsExclude: ['adult'] },
    streaming: true,
    visible: ['Kids', 'Teen', 'Unrated', 'Other'],
    libraries: ['A', 'B'],
  },
  {
    // Allow-only rules are alternatives: age ≤ 12 OR labelled adult; plus library A only.
    name: 'age 12 or label adult, library A',
    email: 'combo@x.org',
    body: {
      roles: ['PAGE_STREAMING'],
      ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
      labelsAllow: ['adult'],
      sharedLibraries: { all: false, libraryIds: ['<A>'] },
    },
    streaming: true,
    visible: ['Kids', 'Mature'],
    libraries: ['A'],
  },
  { name: 'ADMIN', email: 'admin@example.org', admin: true, streaming: true, visible: everything, libraries: ['A', 'B'] },
];

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
let server: TestServer;
const libraryIds: Record<'A' | 'B', string> = { A: '', B: '' };
const seriesIds = {} as Record<SeriesName, string>;
const bookIds = {} as Record<SeriesName, string>;
let collectionId = '';
let readListId = '';
let matureCollectionId = '';
const headersOf = (c: Caller) => (c.email === null ? XHR : c.admin ? { ...XHR, ...server.admin } : { ...XHR, authorization: basic(c.email, 'pw') });

beforeAll(async () => {
  server = await startServer();
  const page = { width: 60, height: 90, color: RED, format: 'png' as const };
  const a = join(server.dir, 'a');
  const b = join(server.dir, 'b');
  for (const name of ['Kids', 'Teen', 'Mature', 'Unrated']) await createCbz(join(a, name, `${name} 01.cbz`), [page, page]);
  await createCbz(join(b, 'Other', 'Other 01.cbz'), [page, page]);
  libraryIds.A = (await addLibrary(server, a, 'A')).id;
  libraryIds.B = (await addLibrary(server, b, 'B')).id;

  const series = await server.json<{ content: { id: string; name: string }[] }>('/api/v1/series?unpaged=true');
  for (const s of series.content) seriesIds[s.name as SeriesName] = s.id;
  const books = await server.json<{ content: { id: string; seriesId: string }[] }>('/api/v1/books?unpaged=true');
  for (const name of SERIES) bookIds[name] = books.content.find((bk) => bk.seriesId === seriesIds[name])!.id;

  const metadata: Record<SeriesName, { ageRating: number | null; sharingLabels: string[] }> = {
    Kids: { ageRating: 6, sharingLabels: ['family'] },
    Teen: { ageRating: 14, sharingLabels: [] },
    Mature: { ageRating: 18, sharingLabels: ['adult'] },
    Unrated: { ageRating: null, sharingLabels: [] },
    Other: { ageRating: 10, sharingLabels: ['family'] },
  };
  for (const name of SERIES) {
    const r = await send(server, 'PATCH', `/api/v1/series/${seriesIds[name]}/metadata`, server.admin, metadata[name]);
    expect(r.statusCode).toBe(204);
  }

  // A collection and a read list mixing a harmless series/book with a mature one.
  const collection = await send(server, 'POST', '/api/v1/collections', server.admin, { name: 'Mixed', ordered: true, seriesIds: [seriesIds.Kids, seriesIds.Mature] });
  expect(collection.statusCode, collection.body).toBe(200);
  collectionId = collection.json().id;
  const readList = await send(server, 'POST', '/api/v1/readlists', server.admin, { name: 'Mixed', ordered: true, bookIds: [bookIds.Mature, bookIds.Kids] });
  expect(readList.statusCode, readList.body).toBe(200);
  readListId = readList.json().id;
  const matureOnly = await send(server, 'POST', '/api/v1/collections', server.admin, { name: 'Mature only', ordered: false, seriesIds: [seriesIds.Mature] });
  matureCollectionId = matureOnly.json().id;

  for (const c of CALLERS) {
    if (!c.body) continue;
    const body = JSON.parse(JSON.stringify(c.body).replaceAll('<A>', libraryIds.A));
    const r = await send(server, 'POST', '/api/v2/users', server.admin, { email: c.email, password: 'pw', ...body });
    expect(r.statusCode, r.body).toBe(201);
    // A first login, so every user has authentication activity.
    expect((await server.get('/api/v2/users/me', { authorization: basic(c.email!, 'pw') })).statusCode).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await server.close();
});

const sorted = (names: string[]) => [...names].sort();

describe.each(CALLERS)('$name', (c) => {
  const anonymous = c.email === null;
  const expectStatus = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, status: number, body?: unknown) => {
    const r = await send(server, method, url, headersOf(c), body);
    expect(r.statusCode, `${method} ${url}: ${r.body.slice(0, 200)}`).toBe(status);
    return r;
  };

  it('account routes', async () => {
    const self = anonymous ? 401 : 200;
    const adminOnly = anonymous ? 401 : c.admin ? 200 : 403;
    await expectStatus('GET', '/api/v2/users/me', self);
    await expectStatus('GET', '/api/v2/users/me/api-keys', self);
    await expectStatus('GET', '/api/v2/users/me/authentication-activity', self);
    await expectStatus('GET', '/api/v2/users', adminOnly);
    await expectStatus('GET', '/api/v2/users/authentication-activity', adminOnly);
    await expectStatus('POST', '/api/v2/users', anonymous ? 401 : c.admin ? 400 : 403, { email: 'bad' });
    const target = (await server.json<{ id: string; email: string }[]>('/api/v2/users')).find((u) => u.email === 'nostream@x.org')!.id;
    // An empty PATCH changes nothing (and so expires no session).
    await expectStatus('PATCH', `/api/v2/users/${target}`, anonymous ? 401 : c.admin ? 204 : 403, {});
    // One's own password by id is open to every user, as in Komga (then the empty body is a 400).
    await expectStatus('PATCH', `/api/v2/users/${target}/password`, anonymous ? 401 : c.admin || c.email === 'nostream@x.org' ? 400 : 403, {});
    await expectStatus('DELETE', '/api/v2/users/UNKNOWN', anonymous ? 401 : c.admin ? 404 : 403);
    await expectStatus('GET', `/api/v2/users/${target}/authentication-activity/latest`, anonymous ? 401 : c.admin || c.email === 'nostream@x.org' ? 200 : 403);
  });

  it('libraries: only shared ones, root hidden from non-admins', async () => {
    if (anonymous) {
      await expectStatus('GET', '/api/v1/libraries', 401);
      await expectStatus('GET', `/api/v1/libraries/${libraryIds.A}`, 401);
      return;
    }
    const list = (await expectStatus('GET', '/api/v1/libraries', 200)).json() as { id: string; root: string }[];
    expect(sorted(list.map((l) => l.id))).toEqual(sorted(c.libraries.map((l) => libraryIds[l])));
    for (const l of list) expect(l.root === '').toBe(!c.admin);
    for (const key of ['A', 'B'] as const) {
      await expectStatus('GET', `/api/v1/libraries/${libraryIds[key]}`, c.libraries.includes(key) ? 200 : 404);
    }
  });

  it('series and book lists show exactly the visible items, counts included', async () => {
    if (anonymous) {
      for (const url of ['/api/v1/series', '/api/v1/books', '/api/v1/series/new', '/api/v1/books/latest']) await expectStatus('GET', url, 401);
      await expectStatus('POST', '/api/v1/series/list', 401, {});
      return;
    }
    const expected = sorted(c.visible);
    const visibleSeriesIds = sorted(c.visible.map((n) => seriesIds[n]));
    const visibleBookIds = sorted(c.visible.map((n) => bookIds[n]));
    type P = { content: { id: string; name?: string; seriesId?: string }[]; totalElements: number };

    for (const url of ['/api/v1/series?unpaged=true', '/api/v1/series/new?unpaged=true', '/api/v1/series/latest?unpaged=true']) {
      const page = (await expectStatus('GET', url, 200)).json() as P;
      expect(sorted(page.content.map((s) => s.name!)), url).toEqual(expected);
      expect(page.totalElements, url).toBe(expected.length);
    }
    // Paging must count only visible items as well.
    const firstPage = (await expectStatus('GET', '/api/v1/series?size=1', 200)).json() as P;
    expect(firstPage.totalElements).toBe(expected.length);
    const listed = (await expectStatus('POST', '/api/v1/series/list?unpaged=true', 200, {})).json() as P;
    expect(sorted(listed.content.map((s) => s.id))).toEqual(visibleSeriesIds);
    const searched = (await expectStatus('GET', '/api/v1/series?search=Mature', 200)).json() as P;
    expect(searched.totalElements).toBe(c.visible.includes('Mature') ? 1 : 0);
    const groups = (await expectStatus('GET', '/api/v1/series/alphabetical-groups', 200)).json() as { count: number }[];
    expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(expected.length);

    for (const url of ['/api/v1/books?unpaged=true', '/api/v1/books/latest?unpaged=true']) {
      const page = (await expectStatus('GET', url, 200)).json() as P;
      expect(sorted(page.content.map((b) => b.id)), url).toEqual(visibleBookIds);
      expect(page.totalElements, url).toBe(visibleBookIds.length);
    }
    const books = (await expectStatus('POST', '/api/v1/books/list?unpaged=true', 200, {})).json() as P;
    expect(sorted(books.content.map((b) => b.id))).toEqual(visibleBookIds);
    // Filtering by a hidden library or series id yields nothing rather than the hidden items.
    const byLibrary = (await expectStatus('GET', `/api/v1/series?library_id=${libraryIds.B}`, 200)).json() as P;
    expect(byLibrary.totalElements).toBe(c.visible.includes('Other') ? 1 : 0);
  });

  it('series, book and page items: 404 when hidden, PAGE_STREAMING needed for page bytes', async () => {
    for (const name of SERIES) {
      const visible = c.visible.includes(name);
      const status = anonymous ? 401 : visible ? 200 : 404;
      const s = seriesIds[name];
      const b = bookIds[name];
      await expectStatus('GET', `/api/v1/series/${s}`, status);
      await expectStatus('GET', `/api/v1/series/${s}/books`, status);
      await expectStatus('GET', `/api/v1/series/${s}/thumbnail`, status);
      await expectStatus('GET', `/api/v1/books/${b}`, status);
      await expectStatus('GET', `/api/v1/books/${b}/pages`, status);
      await expectStatus('GET', `/api/v1/books/${b}/thumbnail`, status);
      await expectStatus('GET', `/api/v1/books/${b}/pages/1/thumbnail`, status);
      await expectStatus('GET', `/api/v1/books/${b}/pages/1`, anonymous ? 401 : !visible ? 404 : c.streaming ? 200 : 403);
      await expectStatus('PATCH', `/api/v1/books/${b}/read-progress`, anonymous ? 401 : visible ? 204 : 404, { completed: false, page: 1 });
    }
    await expectStatus('GET', '/api/v1/series/UNKNOWN', anonymous ? 401 : 404);
    await expectStatus('GET', '/api/v1/books/UNKNOWN', anonymous ? 401 : 404);
  });

  it('pick lists (sharing labels, age ratings) only reflect visible series', async () => {
    if (anonymous) {
      await expectStatus('GET', '/api/v1/sharing-labels', 401);
      return;
    }
    const labels = (await expectStatus('GET', '/api/v1/sharing-labels', 200)).json() as string[];
    const expectedLabels = new Set<string>();
    if (c.visible.includes('Kids') || c.visible.includes('Other')) expectedLabels.add('family');
    if (c.visible.includes('Mature')) expectedLabels.add('adult');
    expect(sorted(labels)).toEqual(sorted([...expectedLabels]));
    const ratings = (await expectStatus('GET', '/api/v2/age-ratings?unpaged=true', 200)).json() as { content: number[] };
    const RATING: Record<SeriesName, number | null> = { Kids: 6, Teen: 14, Mature: 18, Unrated: null, Other: 10 };
    const expectedRatings = c.visible.map((n) => RATING[n]).filter((r): r is number => r !== null);
    expect([...ratings.content].sort((x, y) => x - y)).toEqual(expectedRatings.sort((x, y) => x - y));
  });

  it('collections and read lists only expose visible members', async () => {
    if (anonymous) {
      await expectStatus('GET', `/api/v1/collections/${collectionId}/series`, 401);
      await expectStatus('GET', `/api/v1/readlists/${readListId}/books`, 401);
      return;
    }
    const members = c.visible.filter((n) => n === 'Kids' || n === 'Mature');
    type P = { content: { id: string }[]; totalElements: number };
    if (members.length === 0) {
      await expectStatus('GET', `/api/v1/collections/${collectionId}/series`, 404);
      await expectStatus('GET', `/api/v1/readlists/${readListId}/books`, 404);
    } else {
      const series = (await expectStatus('GET', `/api/v1/collections/${collectionId}/series?unpaged=true`, 200)).json() as P;
      expect(sorted(series.content.map((s) => s.id))).toEqual(sorted(members.map((n) => seriesIds[n])));
      expect(series.totalElements).toBe(members.length);
      const books = (await expectStatus('GET', `/api/v1/readlists/${readListId}/books?unpaged=true`, 200)).json() as P;
      expect(sorted(books.content.map((b) => b.id))).toEqual(sorted(members.map((n) => bookIds[n])));
    }
    const collections = (await expectStatus('GET', '/api/v1/collections?unpaged=true', 200)).json() as P;
    expect(collections.content.some((col) => col.id === matureCollectionId)).toBe(c.visible.includes('Mature'));
    await expectStatus('GET', `/api/v1/collections/${matureCollectionId}`, c.visible.includes('Mature') ? 200 : 404);
  });

  it('every other route family (OPDS, Tachiyomi/Mihon, Readium) applies the same restriction', async () => {
    for (const name of SERIES) {
      const visible = c.visible.includes(name);
      const status = anonymous ? 401 : visible ? 200 : 404;
      const s = seriesIds[name];
      const b = bookIds[name];
      await expectStatus('GET', `/opds/v1.2/series/${s}`, status);
      await expectStatus('GET', `/api/v2/series/${s}/read-progress/tachiyomi`, status);
      await expectStatus('GET', `/api/v1/books/${b}/manifest`, status);
      await expectStatus('GET', `/api/v1/books/${b}/manifest/divina`, status);
      // The read-progress test above saved a progress for every visible book.
      await expectStatus('GET', `/api/v1/books/${b}/progression`, status);
    }
    if (anonymous) {
      for (const url of ['/opds/v1.2/catalog', '/opds/v1.2/series', '/opds/v1.2/libraries', '/opds/v1.2/ondeck']) await expectStatus('GET', url, 401);
      return;
    }
    const titles = (xml: string) => [...xml.matchAll(/<entry>[\s\S]*?<title>([^<]*)<\/title>/g)].map((m) => m[1]!);
    const all = (await expectStatus('GET', '/opds/v1.2/series', 200)).body;
    expect(sorted(titles(all))).toEqual(sorted(c.visible));
    const searched = (await expectStatus('GET', '/opds/v1.2/series?search=Mature', 200)).body;
    expect(titles(searched)).toEqual(c.visible.includes('Mature') ? ['Mature'] : []);
    for (const key of ['A', 'B'] as const) {
      const feed = await expectStatus('GET', `/opds/v1.2/libraries/${libraryIds[key]}`, c.libraries.includes(key) ? 200 : 404);
      if (feed.statusCode === 200) {
        const inLibrary = c.visible.filter((n) => (key === 'B' ? n === 'Other' : n !== 'Other'));
        expect(sorted(titles(feed.body)), key).toEqual(sorted(inLibrary));
      }
    }
    const libraries = (await expectStatus('GET', '/opds/v1.2/libraries', 200)).body;
    expect(titles(libraries).length).toBe(c.libraries.length);
  });
});

/** Reads an event stream until `done` holds for its text. */
async function readStream(url: string, headers: Record<string, string>, done: (text: string) => boolean): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += new TextDecoder().decode(value);
  }
  controller.abort();
  return text;
}

describe('event stream', () => {
  it('each caller receives only events about what they can see', async () => {
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const callers = CALLERS.filter((c) => c.email !== null);
    // Every stream is open before anything happens; the last change (library A, seen by all) marks the end.
    const opened: Promise<void>[] = [];
    const streams = callers.map((c) => {
      let ready!: () => void;
      opened.push(new Promise<void>((r) => (ready = r)));
      return readStream(`${base}/sse/v1/events`, headersOf(c), (text) => {
        if (text.startsWith(':')) ready();
        return text.includes(`event:LibraryChanged\ndata:{"libraryId":"${libraryIds.A}"}`);
      });
    });
    await Promise.all(opened);
    for (const name of SERIES) {
      expect((await send(server, 'PATCH', `/api/v1/series/${seriesIds[name]}/metadata`, server.admin, { summary: `About ${name}` })).statusCode).toBe(204);
      expect((await send(server, 'PATCH', `/api/v1/books/${bookIds[name]}/metadata`, server.admin, { summary: `About ${name}` })).statusCode).toBe(204);
    }
    expect((await send(server, 'PATCH', `/api/v1/libraries/${libraryIds.B}`, server.admin, { name: 'B' })).statusCode).toBe(204);
    expect((await send(server, 'PATCH', `/api/v1/libraries/${libraryIds.A}`, server.admin, { name: 'A' })).statusCode).toBe(204);
    const texts = await Promise.all(streams);
    const idsIn = (text: string, event: string, key: string) =>
      [...text.matchAll(new RegExp(`event:${event}\ndata:(\\{[^\n]*\\})`, 'g'))].map((m) => JSON.parse(m[1]!)[key] as string);
    for (const [i, c] of callers.entries()) {
      const text = texts[i]!;
      expect(sorted(idsIn(text, 'SeriesChanged', 'seriesId')), c.name).toEqual(sorted(c.visible.map((n) => seriesIds[n])));
      expect(sorted(idsIn(text, 'BookChanged', 'bookId')), c.name).toEqual(sorted(c.visible.map((n) => bookIds[n])));
      expect(sorted(idsIn(text, 'LibraryChanged', 'libraryId')), c.name).toEqual(sorted(c.libraries.map((l) => libraryIds[l])));
      // No id of a hidden series or book anywhere in the stream.
      for (const name of SERIES.filter((n) => !c.visible.includes(n))) {
        expect(text, `${c.name}: ${name}`).not.toContain(seriesIds[name]);
        expect(text, `${c.name}: ${name}`).not.toContain(bookIds[name]);
      }
    }
  }, 60_000);
});
