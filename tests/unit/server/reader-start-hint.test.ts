import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageUrl, pageVersion } from '../../../src/api/books.ts';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createCbz, RED } from '../../fixtures/index.ts';
import { createTextEpub } from '../../fixtures/epub.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/*
 * index.html for a reader's address names, for a signed-in browser, the page the reader opens at
 * (server/http/reader-start-hint.ts): a preload the client then asks for under the same address.
 */
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const INDEX = '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Folio</title></head><body><div id="root"></div></body></html>';

let dir: string;
let server: TestServer;
let comic: BookDto;
let novel: BookDto;
let adminCookie: Record<string, string>;

/** Logs in the way the web client does (Basic on /api/v2/users/me) and returns the session cookie. */
async function sessionCookie(email: string, password: string): Promise<Record<string, string>> {
  const response = await server.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: basic(email, password), ...XHR } });
  expect(response.statusCode).toBe(200);
  const session = response.cookies.find((cookie) => cookie.name === 'KOMGA-SESSION');
  expect(session).toBeDefined();
  return { cookie: `KOMGA-SESSION=${session!.value}` };
}

/** The preload links of the page served for `path`. */
async function hints(path: string, headers: Record<string, string>): Promise<string[]> {
  const response = await server.get(path, headers);
  expect(response.statusCode).toBe(200);
  expect(response.body).toContain('<title>Folio</title>');
  return response.body.match(/<link rel="preload"[^>]*>/g) ?? [];
}

const hintedPage = (links: string[]) => {
  expect(links).toHaveLength(1);
  return Number(/data-folio-start-page="(\d+)"/.exec(links[0]!)?.[1]);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-start-hint-'));
  const clientDir = join(dir, 'client');
  await mkdir(clientDir, { recursive: true });
  await writeFile(join(clientDir, 'index.html'), INDEX);
  server = await startServer({ dir, clientDir });
  const library = join(server.dir, 'library');
  await createCbz(join(library, 'Comic', 'Comic 01.cbz'), [1, 2, 3].map(() => ({ width: 60, height: 90, color: RED, format: 'jpeg' as const })));
  await createTextEpub(join(library, 'Novel', 'Novel.epub'), [2000, 1000]);
  await addLibrary(server, library);
  const books = (await server.json<Page<BookDto>>('/api/v1/books?size=50')).content;
  comic = books.find((book) => book.name === 'Comic 01')!;
  novel = books.find((book) => book.name === 'Novel')!;
  expect(comic.media.status).toBe('READY');
  expect(novel.media.mediaProfile).toBe('EPUB');
  adminCookie = await sessionCookie(ADMIN_EMAIL, ADMIN_PASSWORD);
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the reader start hint in index.html', () => {
  it('preloads the start page under the very address the client builds, first thing in the head, for this caller only', async () => {
    const response = await server.get(`/book/${comic.id}/read`, adminCookie);
    const links = response.body.match(/<link rel="preload"[^>]*>/g) ?? [];
    expect(hintedPage(links)).toBe(1);
    // The client's own URL for that page (api/books.ts): the preload is what its fetch asks for.
    const href = /href="([^"]+)"/.exec(links[0]!)![1]!.replace(/&amp;/g, '&');
    expect(href).toBe(pageUrl(comic.id, 1, undefined, pageVersion(comic)));
    expect(links[0]).toContain('as="fetch"');
    expect(links[0]).toContain('crossorigin="use-credentials"');
    expect(links[0]).toContain(`data-folio-book="${comic.id}"`);
    expect(links[0]).toContain(`data-folio-series="${comic.seriesId}"`);
    expect(response.body.indexOf('<link rel="preload"')).toBe(response.body.indexOf('<head>') + '<head>'.length);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    // The address it names is served, and may be kept for good.
    const page = await server.get(href, adminCookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toContain('immutable');
  });

  it('names the page the reader opens at: ?page= when it is a page, else the page in progress, else page 1', async () => {
    expect(hintedPage(await hints(`/book/${comic.id}/read?page=3&incognito=true`, adminCookie))).toBe(3);
    expect(hintedPage(await hints(`/book/${comic.id}/read?page=9`, adminCookie))).toBe(1);
    const progress = (body: object) =>
      server.app.inject({ method: 'PATCH', url: `/api/v1/books/${comic.id}/read-progress`, headers: { ...server.admin, ...XHR }, payload: body });
    expect((await progress({ page: 2, completed: false })).statusCode).toBe(204);
    expect(hintedPage(await hints(`/book/${comic.id}/read`, adminCookie))).toBe(2);
    expect(hintedPage(await hints(`/book/${comic.id}/read?page=3`, adminCookie))).toBe(3);
    expect((await progress({ completed: true })).statusCode).toBe(204);
    expect(hintedPage(await hints(`/book/${comic.id}/read`, adminCookie))).toBe(1);
  });

  it('says nothing to a browser without a live session, nor through other credentials', async () => {
    expect(await hints(`/book/${comic.id}/read`, {})).toEqual([]);
    expect(await hints(`/book/${comic.id}/read`, { cookie: 'KOMGA-SESSION=bm90LWEtc2Vzc2lvbg==' })).toEqual([]);
    expect(await hints(`/book/${comic.id}/read`, server.admin)).toEqual([]);
  });

  it('says nothing the page route would refuse: no streaming role, a library not shared, a text EPUB, an unknown or hostile id', async () => {
    await insertUser(server, 'nostream@example.org', 'reader password', []);
    expect(await hints(`/book/${comic.id}/read`, await sessionCookie('nostream@example.org', 'reader password'))).toEqual([]);

    const readerId = await insertUser(server, 'elsewhere@example.org', 'reader password', ['PAGE_STREAMING']);
    const cookie = await sessionCookie('elsewhere@example.org', 'reader password');
    expect(hintedPage(await hints(`/book/${comic.id}/read`, cookie))).toBe(1);
    const restrict = await server.app.inject({
      method: 'PATCH',
      url: `/api/v2/users/${readerId}`,
      headers: { ...server.admin, ...XHR },
      payload: { sharedLibraries: { all: false, libraryIds: [] } },
    });
    expect(restrict.statusCode).toBe(204);
    expect(await hints(`/book/${comic.id}/read`, cookie)).toEqual([]);

    expect(await hints(`/book/${novel.id}/read`, adminCookie)).toEqual([]);
    expect(await hints('/book/NOSUCHBOOK/read', adminCookie)).toEqual([]);
    const hostile = await server.get(`/book/${encodeURIComponent('"><script>alert(1)</script>')}/read`, adminCookie);
    expect(hostile.statusCode).toBe(200);
    expect(hostile.body).toBe(INDEX);
  });
});
