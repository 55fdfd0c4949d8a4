import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { GREEN, RED, createBrokenCbz, createCbz, lyingPng } from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Media analysis in real Chromium lists every book that needs an admin's eye: the unreadable one
 * (UNSUPPORTED) and the one that stays readable but has a page whose header lies (READY with ERR_1007),
 * never the healthy one.
 */
let folio: RunningFolio;
let root: string;
let api: APIRequestContext;

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-media-analysis-'));
  await createCbz(path.join(root, 'Fine', 'Fine 01.cbz'), [{ width: 60, height: 90, color: GREEN, format: 'png' }]);
  await createCbz(path.join(root, 'Liar', 'Liar 01.cbz'), [{ width: 60, height: 90, color: RED, format: 'png', name: 'page 1.png' }], {
    extraEntries: [{ name: 'page 2.png', data: lyingPng() }],
  });
  await createBrokenCbz(path.join(root, 'Broken', 'Broken 01.cbz'));
  folio = await startFolio();
  api = await playwrightRequest.newContext();
  await claimAndLogIn(api, folio.url);
  await addLibraryAndWait(api, folio.url, root);
});

test.afterAll(async () => {
  await api?.dispose();
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test('lists the unreadable book and the readable book with an undecodable page, with the ERR_1007 meaning', async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
  await page.goto(`${folio.url}/media-management/analysis`);
  const rows = page.getByRole('table').getByRole('row');
  const liar = rows.filter({ has: page.getByRole('rowheader', { name: 'Liar 01' }) });
  await expect(liar).toContainText(en.media.analysis.bad_pages);
  await expect(liar).toContainText(en.error_codes.ERR_1007);
  const broken = rows.filter({ has: page.getByRole('rowheader', { name: 'Broken 01' }) });
  await expect(broken).toContainText(en.media_status.UNSUPPORTED);
  // A header row plus exactly those two books: the healthy one is not there.
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('rowheader', { name: 'Fine 01' })).toHaveCount(0);
});

test('against a server that does not know the mediaComment condition (Komga), lists the problem statuses', async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
  // Komga's answer to an unknown condition type: 400. Only that search is answered so; every other
  // call reaches the real server.
  let refused = 0;
  await page.route('**/api/v1/books/list**', async (route) => {
    if (route.request().method() === 'POST' && (route.request().postData() ?? '').includes('mediaComment')) {
      refused += 1;
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ status: 400, error: 'Bad Request', message: 'Could not resolve type id' }) });
      return;
    }
    await route.continue();
  });
  await page.goto(`${folio.url}/media-management/analysis`);
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.filter({ has: page.getByRole('rowheader', { name: 'Broken 01' }) })).toContainText(en.media_status.UNSUPPORTED);
  await expect(rows).toHaveCount(2);
  expect(refused).toBeGreaterThan(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('analysing the unreadable book again: when it fails again, the screen says the analysis ended and offers the button again', async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
  await page.goto(`${folio.url}/media-management/analysis`);
  const broken = page.getByRole('table').getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Broken 01' }) });
  const analyse = broken.getByRole('button', { name: en.media.analysis.analyse_book.replace('{{name}}', 'Broken 01') });
  await expect(analyse).toHaveText(en.libraries.actions.analyze);
  await analyse.click();
  // The analysis fails again (the book stays UNSUPPORTED): the button is back (it said "Analysis
  // started" until the page was reloaded) and the end is said.
  await expect(analyse).toHaveText(en.libraries.actions.analyze);
  await expect(analyse).toBeEnabled();
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: en.media.analysis.finished.replace('{{name}}', 'Broken 01') })).toBeVisible();
  await expect(broken).toContainText(en.media_status.UNSUPPORTED);
});

test('analysing a book whose file went since the scan: the screen says it was not analysed and why, and offers the button again', async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
  await page.goto(`${folio.url}/media-management/analysis`);
  const liar = page.getByRole('table').getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Liar 01' }) });
  const analyse = liar.getByRole('button', { name: en.media.analysis.analyse_book.replace('{{name}}', 'Liar 01') });
  await expect(analyse).toHaveText(en.libraries.actions.analyze);
  // The file goes behind the server's back: the analysis records nothing, so no BookChanged comes.
  await rm(path.join(root, 'Liar', 'Liar 01.cbz'));
  await analyse.click();
  await expect(analyse).toHaveText(en.libraries.actions.analyze);
  await expect(analyse).toBeEnabled();
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: en.media.analysis.not_analysed_changed.replace('{{name}}', 'Liar 01') })).toBeVisible();
});
