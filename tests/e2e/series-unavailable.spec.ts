import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RED, createCbz } from '../fixtures/comics.ts';
import { addLibraryAndWait, claimAndLogIn, findSeries } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/** A series whose folder is gone (its only book deleted) against the real server. */
let folio: RunningFolio;
let root = '';

test.beforeAll(async () => {
  folio = await startFolio();
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-gone-'));
  await createCbz(path.join(root, 'Lone Saga', 'Lone Saga 01.cbz'), [{ width: 60, height: 90, color: RED, format: 'png' }]);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test('a series whose folder is gone says so on its page, as its book does, instead of looking like an ordinary series', async ({ page }) => {
  await claimAndLogIn(page.request, folio.url);
  await addLibraryAndWait(page.request, folio.url, root);
  const series = await findSeries(page.request, folio.url, 'Lone Saga');
  const books = (await (await page.request.get(`${folio.url}/api/v1/series/${series.id}/books`)).json()) as { content: { id: string }[] };
  const deleted = await page.request.delete(`${folio.url}/api/v1/books/${books.content[0]!.id}/file`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  expect(deleted.ok()).toBe(true);
  await expect
    .poll(async () => ((await (await page.request.get(`${folio.url}/api/v1/series/${series.id}`)).json()) as { deleted: boolean }).deleted)
    .toBe(true);
  await page.goto(`${folio.url}/series/${series.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Lone Saga' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText("This series' folder is gone; it stays listed until the library's trash is emptied.");
});
