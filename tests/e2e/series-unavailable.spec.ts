import { expect, test } from '@playwright/test';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RED, createCbz } from '../fixtures/comics.ts';
import en from '../../locales/en.json' with { type: 'json' };
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, findSeries, logIn } from './support/api.ts';
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
  // The page also holds the selection toolbar's live region (empty until it has something to say).
  await expect(page.getByRole('status').filter({ hasText: "This series' folder is gone; it stays listed until the library's trash is emptied." })).toBeVisible();
});

test('a library whose folder cannot be reached marks its series and books Unavailable on the dashboard, as Komga\'s cards do, its book page and reader say why, and all is available again once it is back', async ({ page }) => {
  const claimed = ((await (await page.request.get(`${folio.url}/api/v1/claim`)).json()) as { isClaimed: boolean }).isClaimed;
  if (claimed) await logIn(page.request, folio.url, ADMIN);
  else await claimAndLogIn(page.request, folio.url);
  const mount = await mkdtemp(path.join(tmpdir(), 'folio-e2e-unmounted-'));
  const libraryRoot = path.join(mount, 'disk');
  try {
    await createCbz(path.join(libraryRoot, 'Far Saga', 'Far Saga 01.cbz'), [{ width: 60, height: 90, color: RED, format: 'png' }]);
    const library = await addLibraryAndWait(page.request, folio.url, libraryRoot, 'External disk');
    await page.goto(`${folio.url}/libraries/${library.id}/recommended`);
    const seriesRow = page.getByRole('region', { name: en.dashboard.sections.recently_added_series });
    const seriesCard = seriesRow.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Far Saga' }) });
    await expect(seriesCard).toBeVisible();
    await expect(seriesCard.getByText(en.content.unavailable)).toHaveCount(0);

    // The disk goes away: the scan finds no folder and marks the whole library unavailable.
    await rename(libraryRoot, `${libraryRoot}.gone`);
    const scan = await page.request.post(`${folio.url}/api/v1/libraries/${library.id}/scan`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    expect(scan.ok()).toBe(true);
    await expect(seriesCard.getByText(en.content.unavailable)).toBeVisible();
    const bookCard = page.getByRole('region', { name: en.dashboard.sections.recently_added_books }).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Far Saga 01' }) });
    await expect(bookCard.getByText(en.content.unavailable)).toBeVisible();
    // Its book says why it cannot be read and offers no reading (every page answered 404).
    const book = await findBook(page.request, folio.url, 'Far Saga 01');
    await page.goto(`${folio.url}/book/${book.id}`);
    await expect(page.getByRole('status').filter({ hasText: en.content.library_unavailable })).toBeVisible();
    await expect(page.getByRole('link', { name: en.book.read, exact: true })).toHaveCount(0);
    await page.goto(`${folio.url}/book/${book.id}/read`);
    await expect(page.getByText(en.content.library_unavailable)).toBeVisible();
    await page.goto(`${folio.url}/libraries/${library.id}/recommended`);

    await rename(`${libraryRoot}.gone`, libraryRoot);
    await page.request.post(`${folio.url}/api/v1/libraries/${library.id}/scan`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    await expect(seriesCard.getByText(en.content.unavailable)).toHaveCount(0);
  } finally {
    await rm(mount, { recursive: true, force: true });
  }
});
