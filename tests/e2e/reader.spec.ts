import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BLUE, CYAN, GREEN, MAGENTA, RED, YELLOW, createCbz, type PageSpec, type Rgb,
} from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, getBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import sharp from 'sharp';
import { isClose, sampleColour } from './support/pixels.ts';
import { pollUntil } from '../support/poll.ts';

/**
 * The reader against the real server: right-to-left double pages, incognito, the end-of-book flow
 * and webtoon scrolling, each checked by what is painted and by what the server stored.
 */
let folio: RunningFolio;
let libraryRoot: string;

const page = (color: Rgb, width = 600, height = 900): PageSpec => ({ width, height, color, format: 'png' });

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-reader-'));
  const manga = { series: 'Manga', manga: 'YesAndRightToLeft' as const };
  await createCbz(path.join(libraryRoot, 'Manga', 'Manga 01.cbz'), [RED, GREEN, BLUE, YELLOW, MAGENTA].map((c) => page(c)), {
    comicInfo: { ...manga, number: '1', title: 'Manga 01' },
  });
  await createCbz(path.join(libraryRoot, 'Comic', 'Comic 01.cbz'), [RED, GREEN, BLUE].map((c) => page(c)));
  await createCbz(path.join(libraryRoot, 'Comic', 'Comic 02.cbz'), [YELLOW, MAGENTA].map((c) => page(c)));
  // Tall strips: 8 × (400 × 2000).
  await createCbz(
    path.join(libraryRoot, 'Strip', 'Strip 01.cbz'),
    [RED, GREEN, BLUE, YELLOW, MAGENTA, CYAN, RED, GREEN].map((c) => page(c, 400, 2000)),
  );
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

let libraryReady = false;
test.beforeEach(async ({ page: browserPage }) => {
  const request = browserPage.context().request;
  if (!libraryReady) {
    await claimAndLogIn(request, folio.url);
    await addLibraryAndWait(request, folio.url, libraryRoot);
    libraryReady = true;
  } else {
    await logIn(request, folio.url, ADMIN);
  }
});

async function openReader(p: Page, bookName: string, query = ''): Promise<string> {
  const book = await findBook(p.context().request, folio.url, bookName);
  await p.goto(`${folio.url}/book/${book.id}/read${query}`);
  return book.id;
}

/** The decode pool's decodes of one page (its `folio:decode` User Timing measures), in ms since the time origin. */
function pageDecodes(p: Page, bookId: string, pageNumber: number): Promise<{ start: number; width: number | null }[]> {
  return p.evaluate(
    (path) =>
      performance
        .getEntriesByName('folio:decode')
        .map((entry) => entry as PerformanceMeasure)
        .filter((entry) => new URL(entry.detail?.url ?? '', location.href).pathname === path)
        .map((entry) => ({ start: entry.startTime, width: entry.detail?.size?.width ?? null })),
    `/api/v1/books/${bookId}/pages/${pageNumber}`,
  );
}

/**
 * The page's own requests for `path` (its Resource Timing entries): a decode worker's requests are in
 * the worker's timeline, not the page's, so none here means the bytes went straight to a worker.
 */
function mainThreadRequests(p: Page, path: string): Promise<number> {
  return p.evaluate(
    (wanted) => performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname === wanted).length,
    path,
  );
}

/** Every request the page makes for `path` (its full URL), from now on, as Playwright reports them. */
function requestsTo(p: Page, path: string): string[] {
  const seen: string[] = [];
  p.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request.url());
  });
  return seen;
}

/**
 * The page's downloads of `path` that came over the network (the HTTP cache's answers have no body
 * bytes on the wire), as they finish.
 */
function networkDownloads(p: Page, path: string): Promise<number>[] {
  const downloads: Promise<number>[] = [];
  p.on('requestfinished', (request) => {
    if (new URL(request.url()).pathname === path) downloads.push(request.sizes().then((sizes) => sizes.responseBodySize));
  });
  return downloads;
}

/**
 * The reader's page as a server that does not write the start page's image sends it (a page of
 * unknown size): the start page's number and series stay, its image, its preload and its size go.
 * The boot module then fetches and decodes the page itself and paints it on a canvas of its own.
 */
async function withoutOpeningImage(p: Page): Promise<void> {
  await p.route(
    (url) => /^\/book\/[^/]+\/read$/.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text())
        .replace(/<link rel="preload" as="image"[^>]*>/, '')
        .replace(/<img id="folio-opening-page"[^>]*>/, '')
        .replace(/ data-folio-width="\d+" data-folio-height="\d+"/, '');
      await route.fulfill({ response, body });
    },
  );
}

/** Cookie-authenticated changes carry the XHR marker (the server's CSRF guard). */
const xhr = { 'X-Requested-With': 'XMLHttpRequest' };

/**
 * Runs `body` with `bookName` in progress at `pageNumber` (no ?page= in an address: the start page
 * comes from the book), and removes that progress afterwards.
 */
async function inProgressAt(p: Page, bookName: string, pageNumber: number, body: (bookId: string) => Promise<void>): Promise<void> {
  const request = p.context().request;
  const book = await findBook(request, folio.url, bookName);
  const progress = `${folio.url}/api/v1/books/${book.id}/read-progress`;
  expect((await request.patch(progress, { data: { page: pageNumber, completed: false }, headers: xhr })).ok()).toBe(true);
  try {
    await body(book.id);
  } finally {
    await request.delete(progress, { headers: xhr });
  }
}

/**
 * Holds back the reader's code (its chunk) until `pageNumber` of `bookId` has been decoded, or 15 s
 * went by; resolves to whether the decode came first. The reader's view cannot exist without its
 * code: a decode seen while it is held was started ahead of the view, not by it.
 */
async function holdReaderCodeUntilDecoded(p: Page, bookId: string, pageNumber: number): Promise<() => Promise<boolean>> {
  let decodedFirst: Promise<boolean> | null = null;
  await p.route(/\/assets\/ReaderScreen-[^/]*\.js$/, async (route) => {
    decodedFirst ??= pollUntil(`a decode of page ${pageNumber}`, async () => (await pageDecodes(p, bookId, pageNumber)).length > 0, {
      timeoutMs: 15_000,
    }).then(() => true, (error: unknown) => {
      console.warn(String(error));
      return false;
    });
    await decodedFirst;
    await route.continue();
  });
  return async () => {
    if (!decodedFirst) throw new Error('the reader code was never asked for');
    return decodedFirst;
  };
}

test('right-to-left double pages: the first page of a pair is on the right, progress follows the spread', async ({ page: p }) => {
  const bookId = await openReader(p, 'Manga 01');
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  expect(isClose(await sampleColour(canvas), RED)).toBe(true);

  // d: single → double. The cover stays alone; the next spread pairs pages 2 and 3.
  await p.keyboard.press('d');
  // Right to left (from the series' ComicInfo): ← is "next".
  await p.keyboard.press('ArrowLeft');
  await expect(canvas).toHaveAttribute('data-painted-page', '3');
  expect(isClose(await sampleColour(canvas, 0.7, 0.5), GREEN)).toBe(true); // page 2 on the right
  expect(isClose(await sampleColour(canvas, 0.3, 0.5), BLUE)).toBe(true); // page 3 on the left

  await expect
    .poll(async () => (await getBook(p.context().request, folio.url, bookId)).readProgress)
    .toMatchObject({ page: 3, completed: false });
});

test('incognito reading paints pages but saves no progress', async ({ page: p }) => {
  const saves: string[] = [];
  p.on('request', (request) => {
    if (request.url().includes('/read-progress')) saves.push(`${request.method()} ${request.url()}`);
  });
  const bookId = await openReader(p, 'Comic 01', '?incognito=true');
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  await p.keyboard.press('ArrowRight');
  await p.keyboard.press('ArrowRight');
  await expect(canvas).toHaveAttribute('data-painted-page', '3');
  expect(isClose(await sampleColour(canvas), BLUE)).toBe(true);
  // Closing the tab is when a reader that saves sends what its debounce still holds, within the
  // pagehide event itself; a request the page makes after that is reported after any such save.
  await p.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
  const after = p.waitForRequest((request) => request.url().endsWith('/api/v2/users/me?after-pagehide'));
  await p.evaluate(() => fetch('/api/v2/users/me?after-pagehide', { credentials: 'include' }));
  await after;
  expect(saves).toEqual([]);
  expect((await getBook(p.context().request, folio.url, bookId)).readProgress).toBeNull();
});

test('end of book: a first press warns, a second one opens the next book at its first page', async ({ page: p }) => {
  await openReader(p, 'Comic 01', '?page=3');
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '3');
  const next = await findBook(p.context().request, folio.url, 'Comic 02');
  // A second press within 400 ms counts as a held key and is ignored (EdgeGuard); a person pauses.
  // The page's clock is set for each press instead of waiting for it to get there.
  const start = Date.now();
  await p.clock.setFixedTime(start);
  await p.keyboard.press('ArrowRight');
  await expect(p.getByTestId('reader-edge-message')).toBeVisible();
  await p.clock.setFixedTime(start + 600);
  await p.keyboard.press('ArrowRight');
  await expect(p).toHaveURL(new RegExp(`/book/${next.id}/read`));
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  expect(isClose(await sampleColour(canvas), YELLOW)).toBe(true);
});

test('webtoon: tall strips open scrolling; scrolling down moves the current page and saves progress', async ({ page: p }) => {
  // The series has no direction of its own: analysis saw strips five times taller than wide.
  const bookId = await openReader(p, 'Strip 01');
  const strip = p.getByTestId('reader-webtoon');
  await expect(strip).toHaveAttribute('data-current-page', '1');
  await strip.hover();
  // Wheel down until the last page is the current one.
  await expect
    .poll(async () => {
      await p.mouse.wheel(0, 1200);
      return strip.getAttribute('data-current-page');
    }, { intervals: [50], timeout: 15_000 })
    .toBe('8');
  await expect
    .poll(async () => (await getBook(p.context().request, folio.url, bookId)).readProgress)
    .toMatchObject({ page: 8, completed: true });
});

test('cold open: the start page is downloaded once, beside the book\'s description, and preloads wait for it', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Comic 01');
  const pagePath = (n: number) => `/api/v1/books/${book.id}/pages/${n}`;
  // In the order the browser reported them: requests started and requests finished.
  const events: string[] = [];
  p.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/v1/books/') || /decode\.worker/.test(pathname)) events.push(`start ${pathname}`);
  });
  p.on('requestfinished', (request) => events.push(`end ${new URL(request.url()).pathname}`));
  const downloads = networkDownloads(p, pagePath(2));
  await p.goto(`${folio.url}/book/${book.id}/read?page=2&incognito=true`);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  await expect.poll(() => events.includes(`start ${pagePath(3)}`)).toBe(true);

  const first = (event: string) => events.indexOf(event);
  // Downloaded once: by the document's image of the page; the reader's decode got the same response
  // from the HTTP cache (the same versioned address) …
  const sizes = await Promise.all(downloads);
  expect(sizes.filter((bytes) => bytes > 0)).toHaveLength(1);
  expect(sizes.length).toBeLessThanOrEqual(2);
  // … beside the book's description, not after it.
  expect(first(`start ${pagePath(2)}`)).toBeLessThan(first(`end /api/v1/books/${book.id}`));
  // The preloads start only once the page on screen is there.
  expect(first(`end ${pagePath(2)}`)).toBeLessThan(first(`start ${pagePath(3)}`));
  expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);

  // Reading on rewrites ?page= in the address; that must not load the book (or its page) again.
  await p.keyboard.press('ArrowRight');
  await expect(canvas).toHaveAttribute('data-painted-page', '3');
  await expect.poll(() => new URL(p.url()).searchParams.get('page')).toBe('3');
  // Back to page 2 and its own rewrite (400 ms later at least): any load the first rewrite caused has started by then.
  await p.keyboard.press('ArrowLeft');
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  await expect.poll(() => new URL(p.url()).searchParams.get('page')).toBe('2');
  expect(events.filter((event) => event === `start /api/v1/books/${book.id}`)).toHaveLength(1);
  expect(events.filter((event) => event === `start ${pagePath(2)}`)).toHaveLength(sizes.length);
  expect(events.filter((event) => event === `start ${pagePath(3)}`)).toHaveLength(1);
});

test('cold open in another language: the book, its start page and the decode workers do not wait for the language file', async ({ page: p }) => {
  await p.addInitScript(() => localStorage.setItem('folio.locale', 'fr'));
  const book = await findBook(p.context().request, folio.url, 'Comic 01');
  const events: string[] = [];
  p.on('request', (request) => events.push(`start ${new URL(request.url()).pathname}`));
  p.on('requestfinished', (request) => events.push(`end ${new URL(request.url()).pathname}`));
  await p.goto(`${folio.url}/book/${book.id}/read?page=2&incognito=true`);
  await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', '2');
  expect(await p.evaluate(() => document.documentElement.lang)).toBe('fr');

  const first = (pattern: RegExp) => events.findIndex((event) => pattern.test(event));
  const frenchLoaded = first(/^end \/assets\/fr-[^/]*\.js$/);
  expect(frenchLoaded).toBeGreaterThan(-1);
  // Started before the French messages had even arrived: nothing of the first page waited for them.
  expect(first(new RegExp(`^start /api/v1/books/${book.id}$`))).toBeLessThan(frenchLoaded);
  expect(first(new RegExp(`^start /api/v1/books/${book.id}/pages/2$`))).toBeLessThan(frenchLoaded);
  expect(first(/^start .*decode\.worker/)).toBeLessThan(frenchLoaded);
});

test('from the book page under Save-Data: the reader code and decode workers load while it is shown, and Read asks for the start page at once', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Comic 02');
  // Save-Data: the screen fetches no book or page on speculation, so Read starts them.
  await (await p.context().newCDPSession(p)).send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
  const events: string[] = [];
  p.on('request', (request) => events.push(`start ${new URL(request.url()).pathname}`));
  p.on('requestfinished', (request) => events.push(`end ${new URL(request.url()).pathname}`));
  const pagePath = `/api/v1/books/${book.id}/pages/1`;
  let pageAsked!: () => void;
  const pageAskedPromise = new Promise<void>((resolve) => (pageAsked = resolve));
  p.on('request', (request) => {
    if (new URL(request.url()).pathname === pagePath) pageAsked();
  });
  await p.goto(`${folio.url}/book/${book.id}`);
  // Once the screen is idle: the reader's chunk and the decode workers' script, before any click.
  await expect.poll(() => events.some((event) => /^end \/assets\/ReaderScreen-[^/]*\.js$/.test(event))).toBe(true);
  await expect.poll(() => events.some((event) => /^end .*decode\.worker/.test(event))).toBe(true);

  // The reader's fresh copy of the book is held back until page 1 has been asked for (at most 15 s):
  // a reader that asked for the page only once the book came back never asks for it while it is held.
  let pageAskedWhileBookHeld: boolean | undefined;
  await p.route((url) => url.pathname === `/api/v1/books/${book.id}`, async (route) => {
    const asked = await Promise.race([pageAskedPromise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))]);
    pageAskedWhileBookHeld ??= asked;
    await route.continue();
  });
  const clickedAt = events.length;
  await p.getByRole('link', { name: 'Read', exact: true }).click();
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1', { timeout: 30_000 });
  expect(isClose(await sampleColour(canvas), YELLOW)).toBe(true);
  const afterClick = events.slice(clickedAt);
  // The page the book opens at is asked beside the reader's fresh copy of the book, not after it came back …
  expect(afterClick).toContain(`start ${pagePath}`);
  expect(pageAskedWhileBookHeld).toBe(true);
  // … and the workers already running decode it: no worker script is loaded again.
  expect(afterClick.filter((event) => /decode\.worker/.test(event))).toEqual([]);
});

test('from the book page: the start page is fetched once and decoded once, and its decode does not wait for the reader\'s view', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Comic 02');
  const pagePath = `/api/v1/books/${book.id}/pages/1`;
  const fetched = requestsTo(p, pagePath);
  const decodedWhileHeld = await holdReaderCodeUntilDecoded(p, book.id, 1);
  await p.goto(`${folio.url}/book/${book.id}`);
  // The book screen starts the decode workers once idle; the click waits until one is up.
  await expect.poll(() => p.evaluate(() => performance.getEntriesByName('folio:decode-worker-ready').length)).toBeGreaterThan(0);
  await p.getByRole('link', { name: 'Read', exact: true }).click();
  const canvas = p.getByTestId('reader-canvas');
  // Past the 15 s the reader's code may be held for.
  await expect(canvas).toHaveAttribute('data-painted-page', '1', { timeout: 30_000 });
  expect(isClose(await sampleColour(canvas), YELLOW)).toBe(true);

  // Decoded as soon as the book's page list and the bytes were there, while the reader's code still loaded …
  expect(await decodedWhileHeld()).toBe(true);
  // … once, at the size the view drew it (the view took that decode), from the one download.
  const decodes = await pageDecodes(p, book.id, 1);
  expect(decodes).toHaveLength(1);
  expect(decodes[0]!.width).toBe(await canvas.evaluate((element: HTMLCanvasElement) => Math.round((element.height * 600) / 900)));
  expect(fetched).toHaveLength(1);
  // The one download was a decode worker's: the bytes went to its decoder without the main thread
  // (on a cold load, before any worker is up, the main thread fetches them).
  expect(await mainThreadRequests(p, pagePath)).toBe(0);
});

test('on the book page, once idle, the book is fetched and a decode worker downloads the page it opens at; reading then fetches neither again', async ({ page: p }) => {
  // In progress at page 2 of 3: the page downloaded ahead is the one the book opens at.
  await inProgressAt(p, 'Comic 01', 2, async (bookId) => {
    const pagePath = `/api/v1/books/${bookId}/pages/2`;
    const fetched = requestsTo(p, pagePath);
    const pageLists = requestsTo(p, `/api/v1/books/${bookId}/pages`);
    const streamOpen = p.waitForResponse((r) => new URL(r.url()).pathname === '/sse/v1/events');
    await p.goto(`${folio.url}/book/${bookId}`);
    await streamOpen;
    await expect.poll(() => fetched.length, { timeout: 15_000 }).toBe(1);
    // The views loaded before the live event stream opened are read once more as it opens (an
    // event sent in between would be missed otherwise): the page list once or twice, whichever
    // came first in this run (it failed 1 CI run in 2 expecting exactly one). Reading adds none.
    await expect.poll(() => pageLists.length).toBeGreaterThanOrEqual(1);
    expect(new URL(p.url()).pathname).toBe(`/book/${bookId}`);
    // A worker's download, not the main thread's: the decode will run where the bytes are.
    expect(await mainThreadRequests(p, pagePath)).toBe(0);

    const listed = pageLists.length;
    expect(listed).toBeLessThanOrEqual(2);
    await p.getByRole('link', { name: 'Read', exact: true }).click();
    const canvas = p.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
    expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);
    expect(fetched).toHaveLength(1);
    expect(pageLists).toHaveLength(listed);
    expect(await pageDecodes(p, bookId, 2)).toHaveLength(1);
  });
});

test('on the book page, once idle, the page the book opens at is decoded too, at the size the reader draws it, without pointing at Read; Read paints that decode', async ({ page: p }) => {
  await inProgressAt(p, 'Comic 01', 2, async (bookId) => {
    await p.goto(`${folio.url}/book/${bookId}`);
    // Nobody points at Read (touch screens have no hover): the screen being shown is enough.
    await expect.poll(async () => (await pageDecodes(p, bookId, 2)).length, { timeout: 15_000 }).toBe(1);
    expect(new URL(p.url()).pathname).toBe(`/book/${bookId}`);

    await p.getByRole('link', { name: 'Read', exact: true }).click();
    const canvas = p.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
    expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);
    // The view took the decode made on the book page: none of its own, at the size it draws.
    const decodes = await pageDecodes(p, bookId, 2);
    expect(decodes).toHaveLength(1);
    expect(decodes[0]!.width).toBe(await canvas.evaluate((element: HTMLCanvasElement) => Math.round((element.height * 600) / 900)));
  });
});

test('on the book page, marking the book read after it was fetched ahead opens it at page 1, not at the page fetched ahead', async ({ page: p }) => {
  await inProgressAt(p, 'Comic 01', 2, async (bookId) => {
    const fetched = requestsTo(p, `/api/v1/books/${bookId}/pages/2`);
    await p.goto(`${folio.url}/book/${bookId}`);
    // Fetched ahead while in progress at page 2 …
    await expect.poll(() => fetched.length, { timeout: 15_000 }).toBe(1);
    // … then marked read on the screen: a read book opens at page 1.
    await p.getByRole('button', { name: 'Mark as read' }).click();
    // In progress, both actions show; once read, "Mark as read" is gone.
    await expect(p.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
    await expect(p.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
    await p.getByRole('link', { name: 'Read', exact: true }).click();
    const canvas = p.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', '1', { timeout: 30_000 });
    expect(isClose(await sampleColour(canvas), RED)).toBe(true);
  });
});

test('pointing at Read starts decoding the page the book opens at; the click takes that decode over', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Comic 02');
  await p.goto(`${folio.url}/book/${book.id}`);
  await expect.poll(() => p.evaluate(() => performance.getEntriesByName('folio:decode-worker-ready').length)).toBeGreaterThan(0);
  await p.getByRole('link', { name: 'Read', exact: true }).hover();
  await expect.poll(async () => (await pageDecodes(p, book.id, 1)).length, { timeout: 15_000 }).toBe(1);
  expect(new URL(p.url()).pathname).toBe(`/book/${book.id}`);

  await p.getByRole('link', { name: 'Read', exact: true }).click();
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1', { timeout: 30_000 });
  expect(isClose(await sampleColour(canvas), YELLOW)).toBe(true);
  expect(await pageDecodes(p, book.id, 1)).toHaveLength(1);
});

test('cold open at the saved page: that page is fetched once and decoded once, and its decode does not wait for the reader\'s view', async ({ page: p }) => {
  // A book in progress at page 2 of 3 (no ?page= in the address: the start page comes from the book).
  await inProgressAt(p, 'Comic 01', 2, async (bookId) => {
    const pagePath = `/api/v1/books/${bookId}/pages/2`;
    const fetched = requestsTo(p, pagePath);
    // The early path the page's own image replaces where it can (its routing also turns the HTTP cache off).
    await withoutOpeningImage(p);
    const decodedWhileHeld = await holdReaderCodeUntilDecoded(p, bookId, 2);
    await p.goto(`${folio.url}/book/${bookId}/read?incognito=true`);
    const canvas = p.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
    expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);

    expect(await decodedWhileHeld()).toBe(true);
    expect(await pageDecodes(p, bookId, 2)).toHaveLength(1);
    expect(fetched).toHaveLength(1);
  });
});

test('cold open at the saved page: the page names it, so its bytes and the series are asked for beside the book, not after it', async ({ page: p }) => {
  await inProgressAt(p, 'Comic 01', 2, async (bookId) => {
    const book = await getBook(p.context().request, folio.url, bookId);
    const asked: string[] = [];
    p.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const pagePath = `/api/v1/books/${bookId}/pages/2`;
    const seriesPath = `/api/v1/series/${book.seriesId}`;
    // The early path the page's own image replaces where it can (its routing also turns the HTTP cache off).
    await withoutOpeningImage(p);
    // The book is answered only once page 2 and the series were asked for, or after 15 s.
    let askedFirst: Promise<boolean> | null = null;
    await p.route((url) => url.pathname === `/api/v1/books/${bookId}`, async (route) => {
      askedFirst ??= pollUntil('page 2 and the series asked for', async () => asked.includes(pagePath) && asked.includes(seriesPath), { timeoutMs: 15_000 }).then(
        () => true,
        (error: unknown) => {
          console.warn(String(error));
          return false;
        },
      );
      await askedFirst;
      await route.continue();
    });
    await p.goto(`${folio.url}/book/${bookId}/read?incognito=true`);
    const canvas = p.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
    expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);
    expect(askedFirst).not.toBeNull();
    expect(await askedFirst).toBe(true);
    // Once each: the early download is the one decoded.
    expect(asked.filter((path) => path === pagePath)).toHaveLength(1);
    expect(await pageDecodes(p, bookId, 2)).toHaveLength(1);
  });
});

test('cold open without the page\'s image: the book and its start page are fetched and decoded by the boot module, while the main bundle is still held back', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Comic 01');
  const pagePath = `/api/v1/books/${book.id}/pages/2`;
  const fetched = requestsTo(p, pagePath);
  await withoutOpeningImage(p);
  // The main bundle (React, the app) is answered only once page 2 has been decoded, or after 15 s.
  let decodedFirst: Promise<boolean> | null = null;
  await p.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
    decodedFirst ??= pollUntil('a decode of page 2', async () => (await pageDecodes(p, book.id, 2)).length > 0, { timeoutMs: 15_000 }).then(
      () => true,
      (error: unknown) => {
        console.warn(String(error));
        return false;
      },
    );
    await decodedFirst;
    await route.continue();
  });
  await p.goto(`${folio.url}/book/${book.id}/read?page=2&incognito=true`);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
  expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);
  expect(decodedFirst).not.toBeNull();
  expect(await decodedFirst).toBe(true);
  // The main bundle, once it ran, started none of it again: one download, one decode.
  expect(fetched).toHaveLength(1);
  expect(await pageDecodes(p, book.id, 2)).toHaveLength(1);
});

/**
 * Holds the main bundle (React, the app) until the returned call: on a cold load the boot module alone
 * runs meanwhile.
 */
async function holdMainBundle(p: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await p.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The share of frames, from now until `done` holds, in which neither the first frame nor the reader's view showed the page. */
async function blankFramesUntil(p: Page, done: string): Promise<{ frames: number; blank: number }> {
  return p.evaluate(
    (doneSelector) =>
      new Promise<{ frames: number; blank: number }>((resolve) => {
        const counts = { frames: 0, blank: 0 };
        const deadline = performance.now() + 30_000;
        const sample = () => {
          counts.frames++;
          const shown = document.querySelector('[data-testid="reader-opening-image"][data-painted-page], [data-testid="reader-canvas"][data-painted-page]');
          if (!shown) counts.blank++;
          if (document.querySelector(doneSelector) || performance.now() > deadline) resolve(counts);
          else requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      }),
    done,
  );
}

test('cold open of a single page: the first frame is the document\'s own image of the page, where the reader then paints it', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Comic 01');
  const releaseApp = await holdMainBundle(p);
  await p.goto(`${folio.url}/book/${book.id}/read?page=2&incognito=true`, { waitUntil: 'commit' });
  const frame = p.getByTestId('reader-opening-image');
  await expect(frame).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
  // The app has not run: the frame is the document's image, placed by the boot module alone.
  expect(await p.evaluate(() => performance.getEntriesByName('folio:main').length)).toBe(0);
  await expect(p.getByTestId('reader-canvas')).toHaveCount(0);
  await expect(p.getByTestId('reader-opening-frame')).toHaveCount(0);
  // The page (600 × 900) fitted to the 1280 × 800 window and centred, as the engine lays it out, on black.
  const image = p.locator('#folio-opening-page');
  const box = await image.boundingBox();
  const viewport = p.viewportSize()!;
  const scale = Math.min(viewport.width / 600, viewport.height / 900);
  const expected = { width: 600 * scale, height: 900 * scale };
  expect(box).not.toBeNull();
  expect(Math.abs(box!.width - Math.round(expected.width))).toBeLessThanOrEqual(0.5);
  expect(Math.abs(box!.height - Math.round(expected.height))).toBeLessThanOrEqual(0.5);
  expect(Math.abs(box!.x - Math.round((viewport.width - expected.width) / 2))).toBeLessThanOrEqual(0.5);
  expect(Math.abs(box!.y - Math.round((viewport.height - expected.height) / 2))).toBeLessThanOrEqual(0.5);
  expect(isClose(await sampleColour(frame, 0.5, 0.5), GREEN)).toBe(true);
  expect(isClose(await sampleColour(frame, 0.02, 0.5), [0, 0, 0])).toBe(true);
  // The very address the reader decodes the page from (versioned: the HTTP cache keeps the answer).
  const src = await image.evaluate((element: HTMLImageElement) => element.src);
  expect(new URL(src).searchParams.get('v')).toBeTruthy();
  // The middle of the page, clear of the reader's toolbar (which comes with the app).
  const clip = { x: box!.x, y: box!.y + box!.height / 4, width: box!.width, height: box!.height / 2 };
  const before = await p.screenshot({ clip });

  const blank = blankFramesUntil(p, '[data-testid="reader-canvas"][data-painted-page="2"]');
  releaseApp();
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
  // The reader's view took over without a frame in between showing neither, and the image is gone.
  expect((await blank).blank).toBe(0);
  await expect(frame).toHaveCount(0);
  await expect(image).toHaveCount(0);
  // It shows what the image showed, on the same pixels.
  const after = await p.screenshot({ clip });
  expect(await meanAbsoluteDifference(before, after)).toBeLessThan(1);
  const decoded = await p.evaluate(
    (path) => performance.getEntriesByName('folio:decode').map((entry) => (entry as PerformanceMeasure).detail?.url as string).filter((url) => new URL(url, location.href).pathname === path),
    `/api/v1/books/${book.id}/pages/2`,
  );
  expect(decoded.map((url) => new URL(url, folio.url).href)).toEqual([src]);
});

/** Mean absolute difference per channel of two same-sized screenshots (0–255). */
async function meanAbsoluteDifference(a: Buffer, b: Buffer): Promise<number> {
  const [first, second] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer()));
  expect(first!.length).toBe(second!.length);
  let sum = 0;
  for (let index = 0; index < first!.length; index++) sum += Math.abs(first![index]! - second![index]!);
  return sum / first!.length;
}

for (const { name, bookName, settings, query, painted, samples, noImage } of [
  {
    name: 'a single page the server writes no image of',
    bookName: 'Comic 01',
    settings: {},
    query: '?page=2&incognito=true',
    painted: '2',
    samples: [{ x: 0.5, colour: GREEN }],
    noImage: true,
  },
  {
    // Right to left from the series' ComicInfo: page 2 on the right, page 3 on the left, white around.
    name: 'a right-to-left spread on white',
    bookName: 'Manga 01',
    settings: { pageLayout: 'double', background: 'white' },
    query: '?page=2&incognito=true',
    painted: '3',
    samples: [{ x: 0.7, colour: GREEN }, { x: 0.3, colour: BLUE }, { x: 0.02, colour: [255, 255, 255] as Rgb }],
  },
]) {
  test(`cold open of ${name}: the first frame is painted before the app runs, with the pixels the reader then paints`, async ({ page: p }) => {
    await p.addInitScript((saved) => localStorage.setItem('folio.reader', JSON.stringify(saved)), settings);
    if (noImage) await withoutOpeningImage(p);
    const book = await findBook(p.context().request, folio.url, bookName);
    const releaseApp = await holdMainBundle(p);
    const whoAmI = requestsTo(p, '/api/v2/users/me');
    await p.goto(`${folio.url}/book/${book.id}/read${query}`, { waitUntil: 'commit' });
    const frame = p.getByTestId('reader-opening-frame');
    await expect(frame).toHaveAttribute('data-painted-page', painted, { timeout: 30_000 });
    // The app has not run: the frame is the boot module's alone.
    expect(await p.evaluate(() => performance.getEntriesByName('folio:main').length)).toBe(0);
    await expect(p.getByTestId('reader-canvas')).toHaveCount(0);
    for (const { x, colour } of samples) expect(isClose(await sampleColour(frame, x, 0.5), colour), `${x}`).toBe(true);
    const framePixels = await frame.evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL());
    // No image of the start page (or a spread, whose pairing only the page list tells: it was dropped).
    await expect(p.locator('#folio-opening-page')).toHaveCount(0);
    await expect(p.getByTestId('reader-opening-image')).toHaveCount(0);

    releaseApp();
    const canvas = p.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', painted, { timeout: 30_000 });
    // The reader's view took over: the frame is gone, and the view shows exactly what it showed.
    await expect(frame).toHaveCount(0);
    expect(await canvas.evaluate((element: HTMLCanvasElement) => element.toDataURL())).toBe(framePixels);
    // One decode of the page, shared by the frame and the view; the session restored once, by the
    // boot module while the app was held, for the app's start-up to take.
    expect(await pageDecodes(p, book.id, 2)).toHaveLength(1);
    expect(whoAmI).toHaveLength(1);
  });
}

test('cold open: the opening spread is decoded without waiting for the series, whose direction still places it', async ({ page: p }) => {
  // Right to left from the series' ComicInfo, two pages a screen: page 2 on the right, page 3 on the left.
  await p.addInitScript(() => localStorage.setItem('folio.reader', JSON.stringify({ pageLayout: 'double' })));
  const book = await findBook(p.context().request, folio.url, 'Manga 01');
  // The series is answered only once both pages of the spread have been decoded, or after 15 s.
  let decodedFirst: Promise<boolean> | null = null;
  await p.route(`**/api/v1/series/${book.seriesId}`, async (route) => {
    decodedFirst ??= pollUntil(
      'decodes of pages 2 and 3',
      async () => (await pageDecodes(p, book.id, 2)).length > 0 && (await pageDecodes(p, book.id, 3)).length > 0,
      { timeoutMs: 15_000 },
    ).then(
      () => true,
      (error: unknown) => {
        console.warn(String(error));
        return false;
      },
    );
    await decodedFirst;
    await route.continue();
  });
  await p.goto(`${folio.url}/book/${book.id}/read?page=2&incognito=true`);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '3', { timeout: 30_000 });
  expect(decodedFirst).not.toBeNull();
  expect(await decodedFirst).toBe(true);
  expect(isClose(await sampleColour(canvas, 0.7, 0.5), GREEN)).toBe(true);
  expect(isClose(await sampleColour(canvas, 0.3, 0.5), BLUE)).toBe(true);
  // The early decodes were the ones painted: one decode of each page.
  expect(await pageDecodes(p, book.id, 2)).toHaveLength(1);
  expect(await pageDecodes(p, book.id, 3)).toHaveLength(1);
});

test('cold open: the decode workers start once the first frame is up, not beside the opening page\'s decode', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Comic 01');
  const releaseApp = await holdMainBundle(p);
  const workerScripts: string[] = [];
  p.on('request', (request) => {
    if (/decode\.worker/.test(new URL(request.url()).pathname)) workerScripts.push(request.url());
  });
  await p.goto(`${folio.url}/book/${book.id}/read?page=2&incognito=true`, { waitUntil: 'commit' });
  const frame = p.getByTestId('reader-opening-image');
  await expect(frame).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
  expect(isClose(await sampleColour(frame, 0.5, 0.5), GREEN)).toBe(true);
  // The browser decoded the document's image of the page; the workers, asked for when the frame was up, come now.
  await expect.poll(() => workerScripts.length, { timeout: 15_000 }).toBeGreaterThan(0);
  const frameAt = await p.evaluate(() => performance.getEntriesByName('folio:first-frame')[0]?.startTime ?? null);
  const workerAt = await p.evaluate(() => performance.getEntriesByType('resource').find((entry) => /decode\.worker/.test(entry.name))?.startTime ?? null);
  expect(frameAt).not.toBeNull();
  expect(workerAt).not.toBeNull();
  expect(workerAt!).toBeGreaterThanOrEqual(frameAt!);
  releaseApp();
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '2', { timeout: 30_000 });
  // Page 3 is preloaded by the workers, after the page on screen.
  await expect.poll(async () => (await pageDecodes(p, book.id, 3)).length, { timeout: 15_000 }).toBe(1);
});

test('cold open of a webtoon: no first frame is painted (its view scrolls a strip, not a spread)', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Strip 01');
  // Any first frame added to the document, at any moment, is counted.
  await p.addInitScript(() => {
    const state = window as unknown as { openingFrames: number };
    state.openingFrames = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof HTMLElement && ['reader-opening-frame', 'reader-opening-image'].includes(node.dataset.testid ?? '')) state.openingFrames++;
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await p.goto(`${folio.url}/book/${book.id}/read?incognito=true`);
  // The strip is the app's, which runs after the boot module has painted whatever it was going to.
  await expect(p.getByTestId('reader-webtoon')).toHaveAttribute('data-current-page', '1', { timeout: 30_000 });
  expect(await p.evaluate(() => (window as unknown as { openingFrames: number }).openingFrames)).toBe(0);
  // The document's image of page 1 was dropped (the series is a webtoon: the server said so).
  await expect(p.locator('#folio-opening-page')).toHaveCount(0);
});

test('cold open without a session: the early start fails quietly and the reader\'s address goes to the login screen', async ({ page: loggedIn, browser }) => {
  // The id comes from the logged-in context; the visit from a context without cookies.
  const bookId = (await findBook(loggedIn.context().request, folio.url, 'Comic 01')).id;
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    const problems: string[] = [];
    p.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // The browser itself logs each 401 answer as a failed resource; anything else logged as an error is ours.
    p.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    await p.goto(`${folio.url}/book/${bookId}/read?page=2`);
    await expect(p).toHaveURL(/\/login\?redirect=/);
    await expect(p.getByLabel(/password/i)).toBeVisible();
    expect(new URL(p.url()).searchParams.get('redirect')).toBe(`/book/${bookId}/read?page=2`);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});
