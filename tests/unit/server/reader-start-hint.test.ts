import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCbz, RED, GREEN, BLUE } from '../../fixtures/comics.ts';
import { addLibrary, ADMIN_EMAIL, ADMIN_PASSWORD, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * The page for a cold load of a reader's address names the page the reader opens at and the book's
 * series (server/http/reader-hints.ts), for a caller who may read that page, and only for them.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const HINT = /<meta name="folio-start-page" content="(\d+)" data-folio-series="([^"]+)"([^>]*)>/;
const IMAGE = /<img id="folio-opening-page" src="([^"]+)" alt="" hidden fetchpriority="high" decoding="sync" elementtiming="folio-opening-page">/;
const PRELOAD = /<link rel="preload" as="image" href="([^"]+)" fetchpriority="high">/;

async function setUp(basePath?: string) {
  server = await startServer({ basePath });
  const clientDir = join(server.dir, 'no-client');
  await mkdir(clientDir, { recursive: true });
  await writeFile(join(clientDir, 'index.html'), '<!doctype html><html><head><title>Folio</title><script type="module" src="./assets/boot.js"></script></head><body></body></html>');
  const root = join(server.dir, 'library');
  await createCbz(join(root, 'Series', 'Book 1.cbz'), [RED, GREEN, BLUE].map((color) => ({ width: 40, height: 60, color, format: 'jpeg' as const })));
  const prefix = basePath ?? '';
  const s = server;
  const library = await (async () => {
    const response = await s.app.inject({ method: 'POST', url: `${prefix}/api/v1/libraries`, headers: s.admin, payload: { name: 'Comics', root } });
    if (response.statusCode !== 200) throw new Error(response.body);
    await s.app.folio.tasks.idle();
    return response.json() as { id: string };
  })();
  const books = (await s.json<{ content: { id: string }[] }>(`${prefix}/api/v1/books?library_id=${library.id}`)).content;
  return { bookId: books[0]!.id, libraryId: library.id, prefix };
}

/** Signs in as the web client does (Basic on /api/v2/users/me) and returns the session cookie. */
async function sessionCookie(email: string, password: string, prefix = ''): Promise<string> {
  const response = await server!.app.inject({ method: 'GET', url: `${prefix}/api/v2/users/me`, headers: { authorization: basic(email, password), ...XHR } });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((candidate) => candidate.name === 'KOMGA-SESSION');
  if (!cookie) throw new Error('no session cookie');
  return `KOMGA-SESSION=${cookie.value}`;
}

async function page(url: string, cookie?: string) {
  const response = await server!.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  expect(response.statusCode).toBe(200);
  expect(response.body).toContain('<title>Folio</title>');
  const hint = HINT.exec(response.body);
  const image = IMAGE.exec(response.body);
  const preload = PRELOAD.exec(response.body);
  if (!hint) {
    // Nothing about the book at all: neither its page's address nor its bytes.
    expect(response.body).not.toContain('folio-opening-page');
    expect(response.body).not.toContain('rel="preload"');
    expect(response.body).not.toContain('/api/v1/books/');
  }
  return {
    response,
    page: hint ? Number(hint[1]) : undefined,
    seriesId: hint?.[2],
    facts: hint?.[3] ?? '',
    image: image ? { src: image[1]!.replaceAll('&amp;', '&'), at: image.index } : undefined,
    preload: preload?.[1]?.replaceAll('&amp;', '&'),
  };
}

describe('start page hint on the reader address', () => {
  it('names the start page the client opens at, for a caller who may read it', async () => {
    const { bookId } = await setUp();
    const cookie = await sessionCookie(ADMIN_EMAIL, ADMIN_PASSWORD);
    const opened = await page(`/book/${bookId}/read?incognito=true`, cookie);
    expect(opened.page).toBe(1);
    // The book's series, which the client then asks for beside the book.
    const book = await server!.json<{ seriesId: string }>(`/api/v1/books/${bookId}`);
    expect(opened.seriesId).toBe(book.seriesId);
    expect(opened.response.headers['cache-control']).toBe('private, no-cache');
    expect(opened.response.headers['content-security-policy']).toBeDefined();
    // ?page= wins when it is one of the book's pages; the client's parse (a leading integer) is the server's.
    expect((await page(`/book/${bookId}/read?page=3`, cookie)).page).toBe(3);
    expect((await page(`/book/${bookId}/read?page=2abc&incognito=true`, cookie)).page).toBe(2);
    // Then the caller's unfinished progress; a page out of range falls back to it.
    const progress = await server!.app.inject({ method: 'PATCH', url: `/api/v1/books/${bookId}/read-progress`, headers: server!.admin, payload: { page: 2 } });
    expect(progress.statusCode).toBe(204);
    expect((await page(`/book/${bookId}/read`, cookie)).page).toBe(2);
    expect((await page(`/book/${bookId}/read?page=9&incognito=true`, cookie)).page).toBe(2);
    // A finished book opens at page 1.
    await server!.app.inject({ method: 'PATCH', url: `/api/v1/books/${bookId}/read-progress`, headers: server!.admin, payload: { completed: true } });
    expect((await page(`/book/${bookId}/read`, cookie)).page).toBe(1);
    // Other client routes never get it.
    const bookScreen = await page(`/book/${bookId}`, cookie);
    expect(bookScreen.page).toBeUndefined();
    expect(bookScreen.response.headers['cache-control']).toBe('no-cache');
  });

  it('names it under the base path too', async () => {
    const { bookId, prefix } = await setUp('/folio');
    const cookie = await sessionCookie(ADMIN_EMAIL, ADMIN_PASSWORD, prefix);
    const opened = await page(`/folio/book/${bookId}/read?page=2`, cookie);
    expect(opened.page).toBe(2);
    // The start page's image is asked for under the base path, where the API answers.
    expect(opened.image?.src).toMatch(new RegExp(`^/folio/api/v1/books/${bookId}/pages/2\\?v=`));
    const bytes = await server!.app.inject({ method: 'GET', url: opened.image!.src, headers: { cookie } });
    expect(bytes.statusCode).toBe(200);
  });

  it('writes the start page as an image of the document, at the reader\'s own cacheable address, with the facts the client lays it out by', async () => {
    const { bookId } = await setUp();
    const cookie = await sessionCookie(ADMIN_EMAIL, ADMIN_PASSWORD);
    const opened = await page(`/book/${bookId}/read?page=3&incognito=true`, cookie);
    expect(opened.page).toBe(3);
    // The page's listed size and the series' direction ('' when it has none): the client lays the page out from them.
    const pages = await server!.json<{ number: number; width: number; height: number }[]>(`/api/v1/books/${bookId}/pages`);
    expect(opened.facts).toContain(`data-folio-width="${pages[2]!.width}" data-folio-height="${pages[2]!.height}"`);
    expect(opened.facts).toContain('data-folio-direction=""');
    // The address is the web client's for that page (src/api/books.ts pageUrl with pageVersion).
    const book = await server!.json<{ sizeBytes: number; fileLastModified: string }>(`/api/v1/books/${bookId}`);
    const version = `${book.sizeBytes.toString(36)}.${book.fileLastModified}`;
    const expected = `/api/v1/books/${bookId}/pages/3?${new URLSearchParams({ v: version })}`;
    expect(opened.image?.src).toBe(expected);
    expect(opened.facts).toContain(`data-folio-version="${version}"`);
    // Asked for from the head too, and the image is the body's first element, ahead of the app's root.
    expect(opened.preload).toBe(expected);
    const body = /<body[^>]*>/.exec(opened.response.body)!;
    expect(opened.image!.at).toBe(body.index + body[0].length);
    // That address answers the page for the session the document was asked with, and may be kept.
    const bytes = await server!.app.inject({ method: 'GET', url: expected, headers: { cookie } });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/jpeg');
    expect(bytes.headers['cache-control']).toMatch(/immutable/);
    // A series read as a webtoon says so (the client then drops the image: its view scrolls a strip).
    const seriesId = opened.seriesId!;
    const repos = server!.app.folio.repos;
    repos.seriesMetadata.update({ ...repos.seriesMetadata.findBySeriesId(seriesId)!, readingDirection: 'WEBTOON' });
    expect((await page(`/book/${bookId}/read`, cookie)).facts).toContain('data-folio-direction="WEBTOON"');
  });

  it('says nothing to a caller who may not read the book, nor about a book that is not there', async () => {
    const { bookId, libraryId } = await setUp();
    const anonymous = await page(`/book/${bookId}/read`);
    expect(anonymous.page).toBeUndefined();
    expect(anonymous.response.headers['cache-control']).toBe('no-cache');
    const admin = await sessionCookie(ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const id of ['nope', `${bookId}x`]) expect((await page(`/book/${id}/read`, admin)).page).toBeUndefined();
    // A session cookie that names no session.
    expect((await page(`/book/${bookId}/read`, 'KOMGA-SESSION=bm8tc3VjaA==')).page).toBeUndefined();

    const repos = server!.app.folio.repos;
    const restrict = async (email: string, roles: string[], change: (user: NonNullable<ReturnType<typeof repos.users.findById>>) => void) => {
      const id = await insertUser(server!, email, 'a long enough password', roles);
      const user = repos.users.findById(id)!;
      change(user);
      repos.users.update(user);
      return sessionCookie(email, 'a long enough password');
    };
    const reader = await restrict('reader@example.org', ['PAGE_STREAMING'], () => {});
    expect((await page(`/book/${bookId}/read`, reader)).page).toBe(1); // the control: a plain reader gets it
    const noStreaming = await restrict('nostream@example.org', ['FILE_DOWNLOAD'], () => {});
    expect((await page(`/book/${bookId}/read`, noStreaming)).page).toBeUndefined();
    const otherLibraries = await restrict('other@example.org', ['PAGE_STREAMING'], (user) => {
      user.sharedAllLibraries = false;
      user.sharedLibraryIds = [`${libraryId}-other`];
    });
    expect((await page(`/book/${bookId}/read`, otherLibraries)).page).toBeUndefined();
    const labelled = await restrict('labels@example.org', ['PAGE_STREAMING'], (user) => {
      user.labelsAllow = ['kids'];
    });
    expect((await page(`/book/${bookId}/read`, labelled)).page).toBeUndefined();
  });
});
