import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { pollUntil } from '../../support/poll.ts';

export const ADMIN = { email: 'admin@example.org', password: 'correct horse battery staple' };

const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/**
 * Shortcuts for specs that test something other than login: they act through the real API with the
 * browser context's request object, so the session cookie lands in the same cookie jar as the page.
 */
export async function claimAndLogIn(request: APIRequestContext, url: string, user = ADMIN): Promise<void> {
  const claim = await request.post(`${url}/api/v1/claim`, {
    headers: { 'X-Komga-Email': user.email, 'X-Komga-Password': user.password },
  });
  if (!claim.ok()) throw new Error(`claim: ${claim.status()} ${await claim.text()}`);
  await logIn(request, url, user);
}

export async function logIn(request: APIRequestContext, url: string, user: { email: string; password: string }): Promise<void> {
  const me = await request.get(`${url}/api/v2/users/me`, { headers: { Authorization: basic(user.email, user.password) } });
  if (!me.ok()) throw new Error(`login: ${me.status()}`);
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  if (!response.ok()) throw new Error(`GET ${url}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Adds a library and waits until the scan has analysed every book it found. */
export async function addLibraryAndWait(request: APIRequestContext, url: string, root: string, name?: string): Promise<LibraryDto> {
  // Library names are unique (as in Komga): without a name asked for, the first free 'Comics', 'Comics 2', …
  if (name === undefined) {
    const taken = new Set((await getJson<LibraryDto[]>(request, `${url}/api/v1/libraries`)).map((l) => l.name));
    name = 'Comics';
    for (let n = 2; taken.has(name); n++) name = `Comics ${n}`;
  }
  // As the web clients do: cookie-authenticated changes carry X-Requested-With (CSRF guard).
  const created = await request.post(`${url}/api/v1/libraries`, { data: { name, root }, headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  if (!created.ok()) throw new Error(`library: ${created.status()} ${await created.text()}`);
  const library = (await created.json()) as LibraryDto;
  await pollUntil(
    `the scan of ${root}`,
    async () => {
      // Books first, then those still awaiting analysis: asked the other way round, a scan that
      // committed between the two calls read as done (nothing pending yet, then a book there).
      const all = await getJson<Page<BookDto>>(request, `${url}/api/v1/books?library_id=${library.id}&size=1`);
      const pending = await getJson<Page<BookDto>>(
        request,
        `${url}/api/v1/books?library_id=${library.id}&media_status=UNKNOWN&media_status=OUTDATED&size=1`,
      );
      return all.totalElements > 0 && pending.totalElements === 0;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  return library;
}

export async function findSeries(request: APIRequestContext, url: string, name: string): Promise<SeriesDto> {
  const page = await getJson<Page<SeriesDto>>(request, `${url}/api/v1/series?unpaged=true`);
  const series = page.content.find((s) => s.name === name);
  if (!series) throw new Error(`no series ${name}`);
  return series;
}

export async function findBook(request: APIRequestContext, url: string, name: string): Promise<BookDto> {
  const page = await getJson<Page<BookDto>>(request, `${url}/api/v1/books?unpaged=true`);
  const book = page.content.find((b) => b.name === name);
  if (!book) throw new Error(`no book ${name}`);
  return book;
}

export async function getBook(request: APIRequestContext, url: string, id: string): Promise<BookDto> {
  return getJson<BookDto>(request, `${url}/api/v1/books/${id}`);
}

/**
 * A fresh server's set-up for specs that test reading, not set-up: claims it as ADMIN and adds
 * `root` as a library, scanned, through a request context of its own (the pages log in themselves).
 */
export async function claimWithLibrary(url: string, root: string): Promise<LibraryDto> {
  const setup = await playwrightRequest.newContext();
  try {
    await claimAndLogIn(setup, url);
    return await addLibraryAndWait(setup, url, root);
  } finally {
    await setup.dispose();
  }
}
