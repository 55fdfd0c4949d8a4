import { expect, request as playwrightRequest, test } from '@playwright/test';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BookDto, Page as ApiPage } from '../../src/api/types.ts';
import { RED, createCbz } from '../fixtures/comics.ts';
import { pollUntil } from '../support/poll.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { tableOverflows } from './support/phone-overflow.ts';

/**
 * Media management on a 390×844 phone: the media analysis list (a book that is not a comic) and the
 * duplicate files (two byte-identical books) are cards that fit the screen, each value named, the
 * file path and the action on screen. They were tables scrolling sideways in their box (566 px in
 * 342), the path cut at the screen's edge.
 */
let folio: RunningFolio;
let root: string;

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-media-phone-'));
  const original = path.join(root, 'Twin One', 'Twin One 01.cbz');
  await createCbz(original, [{ width: 60, height: 90, color: RED, format: 'png' }]);
  await mkdir(path.join(root, 'Twin Two'));
  await copyFile(original, path.join(root, 'Twin Two', 'Twin Two 01.cbz'));
  await mkdir(path.join(root, 'Not A Comic'));
  await writeFile(path.join(root, 'Not A Comic', 'Not A Comic 01.cbz'), 'these bytes are no archive');
  folio = await startFolio();
  const api = await playwrightRequest.newContext();
  await claimAndLogIn(api, folio.url);
  await addLibraryAndWait(api, folio.url, root);
  await pollUntil(
    'both twins hashed and listed as duplicates',
    async () => {
      const response = await api.get(`${folio.url}/api/v1/books/duplicates?size=1`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      return response.ok() && ((await response.json()) as ApiPage<BookDto>).totalElements === 2;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  await api.dispose();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('media analysis and duplicate files are cards that fit a phone, each value named', async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
  await page.goto(`${folio.url}/media-management/analysis`);
  const broken = page.getByRole('row').filter({ hasText: 'Not A Comic 01' });
  await expect(broken).toBeVisible();
  expect(await tableOverflows(page)).toEqual([]);
  await expect(broken.locator('td', { hasText: 'Not A Comic 01.cbz' }).locator('[aria-hidden="true"]')).toHaveText('File');
  await expect(broken.getByRole('button', { name: /Analyse/ })).toBeInViewport({ ratio: 1 });

  await page.goto(`${folio.url}/media-management/duplicate-files`);
  const twin = page.getByRole('row').filter({ hasText: 'Twin Two 01' });
  await expect(twin).toBeVisible();
  expect(await tableOverflows(page)).toEqual([]);
  await expect(twin.locator('td', { hasText: 'Twin Two 01.cbz' }).locator('[aria-hidden="true"]')).toHaveText('File');
});
