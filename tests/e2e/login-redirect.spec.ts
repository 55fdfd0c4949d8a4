import { expect, request as playwrightRequest, test, type Browser, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { BLUE, GREEN, createCbz } from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * A signed-out visit goes through the login and comes back to the whole address it asked for (path,
 * query and #hash), and only ever to an address of this app, however the redirect is written.
 */
let folio: RunningFolio;
let libraryRoot: string;
const ids = { series: '', book: '' };

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-login-redirect-'));
  const page = (color: [number, number, number]) => ({ width: 300, height: 450, color, format: 'png' as const });
  await createCbz(path.join(libraryRoot, 'Saga', 'Saga 01.cbz'), [GREEN, BLUE].map(page));
  folio = await startFolio();
  const api = await playwrightRequest.newContext();
  await claimAndLogIn(api, folio.url);
  await addLibraryAndWait(api, folio.url, libraryRoot);
  const book = await findBook(api, folio.url, 'Saga 01');
  await api.dispose();
  ids.book = book.id;
  ids.series = book.seriesId;
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

/** A signed-out page (its own context, no cookies) that the test logs in from the login screen. */
async function signedOut(browser: Browser, run: (p: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

async function logInHere(p: Page): Promise<void> {
  await p.getByLabel(en.login.email).fill(ADMIN.email);
  await p.getByLabel(en.login.password).fill(ADMIN.password);
  await p.getByRole('button', { name: en.login.submit }).click();
}

/** The address past the origin: path, query and hash. */
const address = (p: Page) => {
  const url = new URL(p.url());
  return `${url.pathname}${url.search}${url.hash}`;
};

for (const [name, target] of [
  ['a series page', () => `/series/${ids.series}?tab=books#volume-2`],
  ['the reader', () => `/book/${ids.book}/read?page=2#spread`],
] as const) {
  test(`signed out on ${name}: after the login the address comes back with its query and #hash`, async ({ browser }) => {
    await signedOut(browser, async (p) => {
      await p.goto(`${folio.url}${target()}`);
      await expect(p).toHaveURL(/\/login\?redirect=/);
      expect(new URL(p.url()).searchParams.get('redirect')).toBe(target());
      await logInHere(p);
      await expect.poll(() => address(p)).toBe(target());
    });
  });
}

for (const redirect of [
  '//evil.example/x',
  '/\\evil.example/x',
  '/\t/evil.example/x',
  '/%2F%2Fevil.example/x',
  '/%5Cevil.example/x',
  'javascript:alert(document.domain)',
  'https://evil.example/x',
]) {
  test(`a redirect to ${JSON.stringify(redirect)} lands on the dashboard of this server`, async ({ browser }) => {
    await signedOut(browser, async (p) => {
      const leaving: string[] = [];
      p.on('request', (request) => {
        if (!request.url().startsWith(folio.url) && !request.url().startsWith('data:')) leaving.push(request.url());
      });
      await p.goto(`${folio.url}/login?${new URLSearchParams({ redirect }).toString()}`);
      await logInHere(p);
      await expect(p).toHaveURL(`${folio.url}/dashboard`);
      expect(leaving).toEqual([]);
    });
  });
}
