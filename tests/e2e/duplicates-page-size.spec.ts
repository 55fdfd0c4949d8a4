import { expect, request as playwrightRequest, test } from '@playwright/test';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BookDto, Page as ApiPage } from '../../src/api/types.ts';
import { pollUntil } from '../support/poll.ts';
import { RED, createCbz } from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * The duplicates screens page by 10 unless the user chooses another page size, which this browser
 * remembers (SPEC §3 per-user preferences "duplicates page size", §9 default 10).
 */
let folio: RunningFolio;
let root: string;
const COPIES = 12;

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-dup-size-'));
  const original = path.join(root, 'Copy 01', 'Copy 01.cbz');
  await createCbz(original, [{ width: 60, height: 90, color: RED, format: 'png' }]);
  // Byte-identical files in their own series: one file hash shared by every book.
  for (let n = 2; n <= COPIES; n++) {
    const name = `Copy ${String(n).padStart(2, '0')}`;
    await mkdir(path.join(root, name));
    await copyFile(original, path.join(root, name, `${name}.cbz`));
  }
  folio = await startFolio();
  const api = await playwrightRequest.newContext();
  await claimAndLogIn(api, folio.url);
  await addLibraryAndWait(api, folio.url, root);
  await pollUntil(
    'every copy hashed and listed as a duplicate',
    async () => {
      const response = await api.get(`${folio.url}/api/v1/books/duplicates?size=1`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      return response.ok() && ((await response.json()) as ApiPage<BookDto>).totalElements === COPIES;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  await api.dispose();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test('duplicate files: 10 per page by default; a chosen page size applies and is remembered', async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
  await page.goto(`${folio.url}/media-management/duplicate-files`);
  const paging = page.getByRole('navigation', { name: 'Pagination' });
  await expect(paging).toContainText(`1–10 of ${COPIES}`);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(11);

  await page.getByLabel('Per page').selectOption('20');
  await expect(paging).toContainText(`1–${COPIES} of ${COPIES}`);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(COPIES + 1);

  await page.goto(`${folio.url}/media-management/duplicate-pages/known`);
  await page.goto(`${folio.url}/media-management/duplicate-files`);
  await expect(page.getByLabel('Per page')).toHaveValue('20');
  await expect(paging).toContainText(`1–${COPIES} of ${COPIES}`);
});
