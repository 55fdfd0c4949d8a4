import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, Route } from 'playwright';
import type {} from '@vitest/browser-playwright';
import type { BrowserCommand } from 'vitest/node';
import { createBrokenCbz, createCbz, type ComicInfoSpec, type Rgb } from '../../fixtures/comics.ts';
import { pollUntil } from '../../support/poll.ts';
import { apiCall } from '../../unit/server/support/spawned-server.ts';
import { SERVER_URL_VARIABLE } from './folio-proxy.ts';

export const ADMIN = { email: 'admin@example.org', password: 'correct horse battery staple' };
export const SESSION_VARIABLE = 'FOLIO_BROWSER_TEST_SESSION';
export const LIBRARY_ROOT_VARIABLE = 'FOLIO_BROWSER_TEST_LIBRARIES';

/** A 600 × 900 page of one colour, or a page of its own size made of equal horizontal bands. */
export type SeedPage = Rgb | { width: number; height: number; bands: Rgb[] };

export interface SeedBook {
  /** File name without extension: the book's name. */
  name: string;
  /** PNG pages. */
  pages: SeedPage[];
  comicInfo?: ComicInfoSpec;
}

export interface SeedSeries {
  folder: string;
  books: SeedBook[];
}

/** Writes a CBZ of the book's PNG pages. */
async function writeBook(path: string, book: SeedBook): Promise<void> {
  await createCbz(
    path,
    book.pages.map((page) =>
      Array.isArray(page)
        ? { width: 600, height: 900, color: page, format: 'png' as const }
        : { width: page.width, height: page.height, color: page.bands[0] ?? [0, 0, 0], bands: page.bands, format: 'png' as const },
    ),
    book.comicInfo ? { comicInfo: book.comicInfo } : {},
  );
}

function server(): { url: string; cookie: string; root: string } {
  const url = process.env[SERVER_URL_VARIABLE];
  const cookie = process.env[SESSION_VARIABLE];
  const root = process.env[LIBRARY_ROOT_VARIABLE];
  if (!url || !cookie || !root) throw new Error('The browser tests\' Folio server is not running (folio-global-setup.ts)');
  return { url, cookie, root };
}

/**
 * Writes a library of generated archives (the archives are files on the server's disk, so this runs
 * in Node), adds it through the REST API and resolves once every book is analysed: its id.
 */
export const seedLibrary: BrowserCommand<[name: string, series: SeedSeries[]]> = async (_context, name, series) => {
  const { url, cookie, root } = server();
  const folder = join(root, name);
  await mkdir(folder, { recursive: true });
  for (const { folder: seriesFolder, books } of series) {
    for (const book of books) await writeBook(join(folder, seriesFolder, `${book.name}.cbz`), book);
  }
  const expected = series.reduce((sum, s) => sum + s.books.length, 0);
  const library = await apiCall<{ id: string }>(url, cookie, '/api/v1/libraries', {
    method: 'POST',
    body: JSON.stringify({ name, root: folder }),
  });
  const done = `/api/v1/books?library_id=${library.id}&media_status=READY&media_status=ERROR&media_status=UNSUPPORTED&size=1`;
  await pollUntil(`library ${name}: ${expected} books analysed`, async () => {
    const page = await apiCall<{ totalElements: number }>(url, cookie, done);
    return page.totalElements >= expected;
  });
  return library.id;
};

/**
 * A folder outside the libraries holding generated books and, for each name in `broken`, a file
 * named like an archive that is not one (for the import screen): its absolute path.
 */
export const writeImportFolder: BrowserCommand<[name: string, books: SeedBook[], broken: string[]]> = async (_context, name, books, broken) => {
  const folder = join(server().root, name);
  for (const book of books) await writeBook(join(folder, `${book.name}.cbz`), book);
  for (const file of broken) await createBrokenCbz(join(folder, `${file}.cbz`));
  return folder;
};

/** An empty folder on the server's disk, for a library to be made of: its absolute path. */
export const makeFolder: BrowserCommand<[name: string]> = async (_context, name) => {
  const folder = join(server().root, name);
  await mkdir(folder, { recursive: true });
  return folder;
};

/**
 * Makes the browser answer requests whose URL matches `pattern` (and, when given, whose method is
 * `method`) with `status` and `body`, without reaching the server: for the few failures a real
 * server cannot be asked to produce on demand. Only the calling test file's requests are answered
 * (the files share one page, each in its frame); a worker's request, which names no frame, is
 * answered when it matches.
 */
export const failRequests: BrowserCommand<[pattern: string, status: number, body: string, method?: string]> = async (
  context,
  pattern,
  status,
  body,
  method,
) => {
  const ownFrame = context.testPath ? encodeURIComponent(context.testPath) : undefined;
  const failure = {
    answered: 0,
    handler: async (route: Route) => {
      const request = route.request();
      if ((method && request.method() !== method) || !fromFrame(request, ownFrame)) return route.fallback();
      // Counted first: the page may see the answer before the route's promise settles here.
      failure.answered += 1;
      // Status 0: no answer at all, as when the server is down or the network is gone.
      if (status === 0) await route.abort('connectionrefused');
      else await route.fulfill({ status, body, contentType: 'application/json' });
    },
  };
  failing.set(`${method ?? '*'} ${pattern}`, failure);
  await context.page.route(new RegExp(pattern), failure.handler);
};

/**
 * Whether the request comes from the test file's frame. A worker's request names no test frame (it
 * is reported on the page or on none): it is answered when it matches, the pattern being the test's.
 */
function fromFrame(request: Request, ownFrame: string | undefined): boolean {
  if (!ownFrame) return true;
  let frameUrl: string;
  try {
    frameUrl = request.frame().url();
  } catch (error) {
    if (error instanceof Error && /frame/i.test(error.message)) return true;
    throw error;
  }
  return !frameUrl.includes('iframeId=') || frameUrl.includes(ownFrame);
}

const failing = new Map<string, { answered: number; handler: (route: Route) => Promise<void> }>();

/** How many requests the failure for `pattern` has answered so far. */
export const failedRequests: BrowserCommand<[pattern: string, method?: string]> = async (_context, pattern, method) =>
  failing.get(`${method ?? '*'} ${pattern}`)?.answered ?? 0;

/** Lets requests matching `pattern` reach the server again (other tests' failures stay). */
export const restoreRequests: BrowserCommand<[pattern: string, method?: string]> = async (context, pattern, method) => {
  const key = `${method ?? '*'} ${pattern}`;
  const failure = failing.get(key);
  failing.delete(key);
  if (failure) await context.page.unroute(new RegExp(pattern), failure.handler);
};

/**
 * A session of `email` made from Node, out of the page's sight: the browser's cookie jar, which
 * every test file shares, keeps the administrator's session. Its id, for `actAs`.
 */
export const logInElsewhere: BrowserCommand<[email: string, password: string]> = async (_context, email, password) => {
  const response = await fetch(`${server().url}/api/v2/users/me`, {
    headers: { Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`, 'X-Auth-Token': '', 'X-Requested-With': 'XMLHttpRequest' },
  });
  const token = response.headers.get('x-auth-token');
  if (!response.ok || !token) throw new Error(`logging in as ${email}: HTTP ${response.status}, token ${token ? 'sent' : 'missing'}`);
  return token;
};

/** Headers a forwarded answer must not carry into the page: cookies would reach the shared jar. */
const NOT_FORWARDED = new Set(['set-cookie', 'content-encoding', 'content-length', 'transfer-encoding', 'connection']);

const acting = new Map<string, (route: Route) => Promise<void>>();

/**
 * Until called with null, the calling test file's requests to the server carry the session
 * `token` (X-Auth-Token, which the server prefers to the cookie) instead of the cookie every file
 * shares, so the file can end its own session without ending the others'. The event stream goes
 * on to the server as it is with the header added (an answer in header mode sets no cookie); every
 * other request is sent from Node and its answer handed back without Set-Cookie, since a logout
 * clears the session cookie, which here is everybody's. The server answers every request itself.
 */
export const actAs: BrowserCommand<[token: string | null]> = async (context, token) => {
  const ownFrame = context.testPath ? encodeURIComponent(context.testPath) : undefined;
  if (!ownFrame) throw new Error('actAs needs the calling test file');
  const previous = acting.get(ownFrame);
  if (previous) await context.page.unroute(SERVER_REQUESTS, previous);
  acting.delete(ownFrame);
  if (token === null) return;
  const handler = async (route: Route) => {
    const request = route.request();
    if (!fromOwnFrameOnly(request, ownFrame)) return route.fallback();
    const url = new URL(request.url());
    if (url.pathname.startsWith('/sse/')) return route.continue({ headers: { ...request.headers(), 'x-auth-token': token } });
    const headers = Object.fromEntries(Object.entries(await request.allHeaders()).filter(([name]) => !['host', 'cookie', 'content-length'].includes(name)));
    const body = request.postDataBuffer();
    const answer = await fetch(new URL(url.pathname + url.search, server().url), {
      method: request.method(),
      headers: { ...headers, 'x-auth-token': token },
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
    await route.fulfill({
      status: answer.status,
      headers: Object.fromEntries([...answer.headers].filter(([name]) => !NOT_FORWARDED.has(name))),
      body: Buffer.from(await answer.arrayBuffer()),
    });
  };
  acting.set(ownFrame, handler);
  await context.page.route(SERVER_REQUESTS, handler);
};

const SERVER_REQUESTS = /\/(api|sse)\//;

/** Whether the request comes from the test file's own frame (a worker's, naming no frame, does not). */
function fromOwnFrameOnly(request: Request, ownFrame: string): boolean {
  try {
    return request.frame().url().includes(ownFrame);
  } catch (error) {
    if (error instanceof Error && /frame/i.test(error.message)) return false;
    throw error;
  }
}

/**
 * A REST call sent from Node, not from the page: as the administrator (the run's session) or, with
 * `token`, as that session. For what a test file acting as its own user (`actAs`) needs done by
 * somebody else. Answers the status and the body's text.
 */
export const callFromNode: BrowserCommand<[method: string, path: string, body?: string, token?: string]> = async (_context, method, path, body, token) => {
  const { url, cookie } = server();
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'X-Requested-With': 'XMLHttpRequest',
      ...(token ? { 'X-Auth-Token': token } : { cookie }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, body: await response.text() };
};
