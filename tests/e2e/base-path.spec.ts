import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BLUE, GREEN, RED, createCbz, type Rgb } from '../fixtures/comics.ts';
import { createReflowableEpub, prose } from '../fixtures/epub.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { startPrefixProxy } from './support/prefix-proxy.ts';
import { isClose, sampleColour } from './support/pixels.ts';

/**
 * The built web client under a sub-path (--base-path /folio), as behind https://example.org/folio/:
 * the whole journey works there — first account, a library, the reader — and the page never asks
 * for anything outside /folio (its files, the API, the event stream, the decode workers' pages).
 */
let folio: RunningFolio;
let libraryRoot: string;
const BASE = '/folio';

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-base-path-'));
  const page = (color: Rgb) => ({ width: 600, height: 900, color, format: 'png' as const });
  await createCbz(path.join(libraryRoot, 'Alpha', 'Alpha 01.cbz'), [RED, GREEN, BLUE].map(page));
  await createReflowableEpub(
    path.join(libraryRoot, 'Novels', 'Novel.epub'),
    [{ title: 'One', body: `<h1>One</h1><p>Opening words under the base path.</p><img src="../images/red.png" alt="A red plate"/>${prose(3000)}` }],
    { title: 'Novel', images: [{ name: 'red.png', spec: { width: 300, height: 200, color: RED, format: 'png' } }] },
  );
  folio = await startFolio({ args: ['--base-path', BASE] });
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test('under a base path: claim, open a library, read a book, reload the reader; nothing is asked for outside it', async ({ page }) => {
  expect(new URL(folio.url).pathname).toBe(BASE);
  const origin = new URL(folio.url).origin;
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'http:' && url.origin === origin && url.pathname !== '/' && !url.pathname.startsWith(`${BASE}/`)) outside.push(request.url());
  });
  const eventStreams: string[] = [];
  page.on('request', (request) => new URL(request.url()).pathname === `${BASE}/sse/v1/events` && eventStreams.push(request.url()));
  const workerScripts: string[] = [];
  page.on('worker', (worker) => worker.url().includes('decode.worker') && workerScripts.push(worker.url()));

  // The bare host name leads to the client under the base path, which offers to create the first account.
  await page.goto(`${origin}/`);
  await expect(page).toHaveURL(new RegExp(`^${origin}${BASE}/login`));
  await expect(page.getByRole('heading', { name: 'Create the first account' })).toBeVisible();
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  // The session cookie belongs to the base path only.
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'KOMGA-SESSION');
  expect(session?.path).toBe(BASE);

  // A library added through the API with the page's own cookie, then opened from the navigation.
  await addLibraryAndWait(page.context().request, folio.url, libraryRoot);
  await page.reload();
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Comics' }).click();
  await expect(page).toHaveURL(new RegExp(`^${origin}${BASE}/libraries/[^/]+/`));
  await page.getByRole('link', { name: 'Alpha', exact: true }).click();
  await page.getByRole('link', { name: 'Alpha 01', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${origin}${BASE}/book/[^/]+$`));
  await page.getByRole('link', { name: 'Read', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${origin}${BASE}/book/[^/]+/read`));

  // Pages painted by the decode workers, whose script is under the base path too.
  const canvas = page.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  expect(isClose(await sampleColour(canvas), RED)).toBe(true);
  await page.keyboard.press('ArrowRight');
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);

  // A cold load of the reader's address (the boot module opens the book from it) lands on the saved page.
  await expect.poll(async () => {
    const bookId = new URL(page.url()).pathname.split('/')[3];
    const response = await page.request.get(`${folio.url}/api/v1/books/${bookId}`);
    return ((await response.json()) as { readProgress: { page: number } | null }).readProgress?.page;
  }).toBe(2);
  await page.goto(page.url().split('?')[0]!);
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  expect(isClose(await sampleColour(canvas), GREEN)).toBe(true);

  expect(workerScripts.length).toBeGreaterThan(0);
  for (const worker of workerScripts) expect(new URL(worker).pathname.startsWith(`${BASE}/assets/`), worker).toBe(true);
  expect(eventStreams.length).toBeGreaterThan(0);
  expect(outside).toEqual([]);
});

test('under a base path, a text EPUB opens from its manifest\'s links and shows its text and images', async ({ page }) => {
  // The first test creates the account and the library through the page; run alone, this one does.
  const request = page.context().request;
  const claimed = ((await (await request.get(`${folio.url}/api/v1/claim`)).json()) as { isClaimed: boolean }).isClaimed;
  if (claimed) {
    await logIn(request, folio.url, ADMIN);
  } else {
    await claimAndLogIn(request, folio.url);
    await addLibraryAndWait(request, folio.url, libraryRoot);
  }
  const origin = new URL(folio.url).origin;
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'http:' && url.origin === origin && !url.pathname.startsWith(`${BASE}/`)) outside.push(request.url());
  });
  const book = await findBook(page.context().request, folio.url, 'Novel');
  await page.goto(`${folio.url}/book/${book.id}/read`);
  await expect(page.getByTestId('epub-frames')).toHaveAttribute('data-ready', 'true');
  const shown = page.frameLocator('[data-testid="epub-frames"] iframe:not([style*="visibility: hidden"])');
  await expect(shown.getByText('Opening words under the base path.')).toBeVisible();
  await expect(shown.getByRole('img', { name: 'A red plate' })).toBeVisible();
  expect(outside).toEqual([]);
});

test('behind a trusted proxy that strips the prefix and sends X-Forwarded-Prefix, the client works under the prefix', async ({ page }) => {
  // Folio at its root, trusting the proxy on loopback; the browser only ever sees /proxied.
  const rooted = await startFolio({ args: ['--trust-proxy', 'loopback'] });
  const proxy = await startPrefixProxy(rooted.url, '/proxied');
  try {
    const origin = new URL(proxy.url).origin;
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol === 'http:' && url.origin === origin && !url.pathname.startsWith('/proxied/')) outside.push(request.url());
    });
    await claimAndLogIn(page.context().request, proxy.url);
    await addLibraryAndWait(page.context().request, proxy.url, libraryRoot);
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'KOMGA-SESSION')?.path).toBe('/proxied');

    const book = await findBook(page.context().request, proxy.url, 'Alpha 01');
    await page.goto(`${proxy.url}/book/${book.id}`);
    await page.getByRole('link', { name: 'Read', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^${origin}/proxied/book/${book.id}/read`));
    const canvas = page.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', '1');
    expect(isClose(await sampleColour(canvas), RED)).toBe(true);
    expect(outside).toEqual([]);
  } finally {
    await proxy.stop();
    await rooted.stop();
  }
});
