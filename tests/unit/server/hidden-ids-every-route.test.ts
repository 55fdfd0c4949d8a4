import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEN, RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * Every route the server has, present and future, called by a restricted reader with the ids of
 * what is hidden from them (a series of a library not shared with them, a series excluded by its
 * sharing label, their books, a collection and a read list of hidden series only) answers exactly
 * as it does for an id nothing has, and its answer names nothing hidden. Routes are read from the
 * route table, so a route added later is checked without being listed here. The same calls as an
 * administrator must mostly succeed, or the ids put in would prove nothing.
 */
let server: TestServer;
let reader: Record<string, string>;
let hidden: Record<string, string[]>;
let hiddenNames: string[];

beforeAll(async () => {
  server = await startServer();
  const page = (color: [number, number, number]) => ({ width: 20, height: 30, color, format: 'png' as const });
  await createCbz(join(server.dir, 'shared', 'Open', 'Open 01.cbz'), [page(RED), page(GREEN)]);
  await createCbz(join(server.dir, 'shared', 'Labelled', 'Labelled 01.cbz'), [page(GREEN), page(RED)]);
  await createCbz(join(server.dir, 'other', 'Elsewhere', 'Elsewhere 01.cbz'), [page(RED), page(RED)]);
  const shared = await addLibrary(server, join(server.dir, 'shared'), 'Shared');
  const other = await addLibrary(server, join(server.dir, 'other'), 'Other');
  const series = (await server.json<{ content: { id: string; name: string }[] }>('/api/v1/series?unpaged=true')).content;
  const books = (await server.json<{ content: { id: string; name: string }[] }>('/api/v1/books?unpaged=true')).content;
  const seriesId = (name: string) => series.find((s) => s.name === name)!.id;
  const bookId = (name: string) => books.find((b) => b.name === name)!.id;
  const send = (method: 'POST' | 'PATCH', url: string, payload: object) => server.app.inject({ method, url, headers: server.admin, payload });
  expect((await send('PATCH', `/api/v1/series/${seriesId('Labelled')}/metadata`, { sharingLabels: ['private'] })).statusCode).toBe(204);
  const collection = await send('POST', '/api/v1/collections', { name: 'Hidden shelf', ordered: false, seriesIds: [seriesId('Labelled'), seriesId('Elsewhere')] });
  const readList = await send('POST', '/api/v1/readlists', { name: 'Hidden list', ordered: true, bookIds: [bookId('Labelled 01'), bookId('Elsewhere 01')] });
  const readerId = await insertUser(server, 'reader@example.org', 'reader password', ['PAGE_STREAMING', 'FILE_DOWNLOAD']);
  const restrict = await server.app.inject({
    method: 'PATCH',
    url: `/api/v2/users/${readerId}`,
    headers: server.admin,
    payload: { sharedLibraries: { all: false, libraryIds: [shared.id] }, labelsExclude: ['private'] },
  });
  expect(restrict.statusCode).toBe(204);
  reader = { authorization: basic('reader@example.org', 'reader password'), 'x-requested-with': 'XMLHttpRequest' };
  const seriesIds = [seriesId('Labelled'), seriesId('Elsewhere')];
  const bookIds = [bookId('Labelled 01'), bookId('Elsewhere 01')];
  const collectionId = (collection.json() as { id: string }).id;
  const readListId = (readList.json() as { id: string }).id;
  hidden = { series: seriesIds, book: bookIds, library: [other.id], collection: [collectionId], readList: [readListId] };
  hidden.any = Object.values(hidden).flat();
  hiddenNames = ['Labelled', 'Elsewhere', 'Hidden shelf', 'Hidden list', ...hidden.any];
}, 60_000);

afterAll(async () => {
  await server.close();
});

/** Which hidden ids a path parameter takes, by its name and what the path names before it. */
function idsFor(url: string, name: string): string[] | undefined {
  const before = url.slice(0, url.indexOf(`:${name}`));
  const kind =
    name === 'seriesId' ? 'series'
    : name === 'bookId' ? 'book'
    : name === 'libraryId' ? 'library'
    : name === 'collectionId' ? 'collection'
    : name === 'readListId' ? 'readList'
    : name !== 'id' ? undefined
    : /\/series\/$/.test(before) ? 'series'
    : /\/books\/$/.test(before) ? 'book'
    : /\/libraries\/$/.test(before) ? 'library'
    : /\/collections\/$/.test(before) ? 'collection'
    : /\/readlists\/$/.test(before) ? 'readList'
    : undefined;
  return kind && hidden[kind];
}

const NOTHING = 'D000000000000';
/** A value for a parameter that is no content id: a page number, a file name. */
const filler = (name: string) => (/number|page|index/i.test(name) ? '1' : 'x');

interface Call {
  method: string;
  hiddenUrl: string;
  unknownUrl: string;
}

function calls(): Call[] {
  const found: Call[] = [];
  for (const route of server.app.routeTable) {
    const url = String(route.url);
    // The event stream never ends; what it sends is sse.test.ts's.
    if (url.startsWith('/sse/')) continue;
    const names = [...url.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
    const idParams = names.filter((n) => idsFor(url, n));
    if (idParams.length === 0) continue;
    for (const method of [route.method].flat()) {
      if (method === 'OPTIONS') continue;
      for (const idParam of idParams) {
        for (const id of idsFor(url, idParam)!) {
          const fill = (value: string) =>
            names.reduce((u, n) => u.replace(`:${n}`, n === idParam ? value : idsFor(url, n) ? NOTHING : filler(n)), url).replace('*', 'x');
          found.push({ method, hiddenUrl: fill(id), unknownUrl: fill(NOTHING) });
        }
      }
    }
  }
  return found;
}

const call = (method: string, url: string, headers: Record<string, string>) =>
  server.app.inject({ method: method as 'GET', url, headers, ...(['GET', 'HEAD', 'DELETE'].includes(method) ? {} : { payload: {} }) });

describe('ids of hidden content, on every route', () => {
  it('answer as ids of nothing, naming nothing hidden', async () => {
    const all = calls();
    expect(all.length).toBeGreaterThan(150);
    const differences: string[] = [];
    for (const { method, hiddenUrl, unknownUrl } of all) {
      const asHidden = await call(method, hiddenUrl, reader);
      const asUnknown = await call(method, unknownUrl, reader);
      // The error body quotes the path asked for, which holds the id itself.
      const body = asHidden.body.split(hiddenUrl).join('');
      const named = hiddenNames.filter((name) => body.includes(name));
      if (asHidden.statusCode !== asUnknown.statusCode || named.length > 0) {
        differences.push(`${method} ${hiddenUrl}: ${asHidden.statusCode} (unknown id: ${asUnknown.statusCode})${named.length ? ` names ${named.join(', ')}` : ''}`);
      }
    }
    expect(differences).toEqual([]);
  }, 300_000);

  it('are real ids: the administrator is answered for them on most routes', async () => {
    const reads = calls().filter((c) => c.method === 'GET');
    let answered = 0;
    for (const { hiddenUrl } of reads) if ((await call('GET', hiddenUrl, server.admin)).statusCode < 300) answered++;
    expect(answered).toBeGreaterThan(reads.length / 2);
  }, 300_000);
});
