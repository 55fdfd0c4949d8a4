import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN, addLibraryAndWait, logIn } from './support/api.ts';
import { writeBrowseLibrary } from './support/browse-library.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * A collection's series and a read list's books filter like a library's series (SPEC §7: the
 * filters of GET /collections/{id}/series and /readlists/{id}/books), the filters kept in the URL;
 * a read list shows its summary. At desktop size and on a 390×844 phone.
 */
const server = useBrowseServer('group-filters');
const ids = { collection: '', readList: '', shelvesCollection: '', shelvesReadList: '' };
let secondRoot: string | undefined;

test.beforeAll(async () => {
  const api = server.api();
  const series = await Promise.all(['Aurora Knights', 'Blue Harbor', 'Crimson Tide'].map((t) => api.seriesByTitle(t)));
  ids.collection = (await api.send<{ id: string }>('POST', '/api/v1/collections', { name: 'Picks', ordered: false, seriesIds: series.map((s) => s.id) })).id;
  const books = await Promise.all(['Aurora 01', 'Aurora 02', 'Harbor 01'].map((n) => api.bookByName(n)));
  ids.readList = (
    await api.send<{ id: string }>('POST', '/api/v1/readlists', {
      name: 'Tour',
      summary: 'Three stops across two series.',
      ordered: true,
      bookIds: books.map((b) => b.id),
    })
  ).id;
  await api.markRead((await api.bookByName('Crimson 01')).id);
  await api.markRead((await api.bookByName('Harbor 01')).id);

  // A second library, and a collection and a read list that span both.
  secondRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-group-filters-second-'));
  await writeBrowseLibrary(secondRoot, [{ folder: 'Echo', books: 1, info: { series: 'Echo Bay' } }]);
  const admin = await playwrightRequest.newContext();
  try {
    await logIn(admin, server.folio.url, ADMIN);
    await addLibraryAndWait(admin, server.folio.url, secondRoot, 'Side shelf');
  } finally {
    await admin.dispose();
  }
  await api.waitForTitles(['Echo Bay']);
  const spanning = await Promise.all(['Aurora Knights', 'Echo Bay'].map((t) => api.seriesByTitle(t)));
  ids.shelvesCollection = (
    await api.send<{ id: string }>('POST', '/api/v1/collections', { name: 'Shelves', ordered: false, seriesIds: spanning.map((s) => s.id) })
  ).id;
  const spanningBooks = await Promise.all(['Aurora 01', 'Echo 01'].map((n) => api.bookByName(n)));
  ids.shelvesReadList = (
    await api.send<{ id: string }>('POST', '/api/v1/readlists', { name: 'Hop', summary: '', ordered: true, bookIds: spanningBooks.map((b) => b.id) })
  ).id;
});

test.afterAll(async () => {
  if (secondRoot) await rm(secondRoot, { recursive: true, force: true });
});

const cards = (page: Page, list: string) => page.getByRole('list', { name: list, exact: true }).getByRole('listitem').getByRole('link');

async function pick(page: Page, legend: string, option: string) {
  await page.getByRole('group', { name: legend, exact: true }).getByLabel(option, { exact: true }).check();
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  const size = `${viewport.width}×${viewport.height}`;

  test(`a collection's series filter by genre, language and read status (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/collections/${ids.collection}`);
    await expect(cards(page, 'Series')).toHaveCount(3);
    await page.getByRole('button', { name: 'Filters' }).click();
    await pick(page, 'Genre', 'Fantasy');
    await expect(cards(page, 'Series')).toHaveText(['Aurora Knights']);
    expect(page.url()).toContain('genre=Fantasy');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(cards(page, 'Series')).toHaveCount(3);
    await pick(page, 'Language', 'French');
    await expect(cards(page, 'Series')).toHaveText(['Blue Harbor']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await pick(page, 'Read status', 'Read');
    await expect(cards(page, 'Series')).toHaveText(['Crimson Tide']);
    // The URL restores the filter.
    await page.reload();
    await expect(cards(page, 'Series')).toHaveText(['Crimson Tide']);
  });

  test(`a read list shows its summary; its books filter by book tag, author and read status (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/readlists/${ids.readList}`);
    await expect(page.getByText('Three stops across two series.')).toBeVisible();
    const books = cards(page, 'Books');
    await expect(books).toHaveCount(3);
    await page.getByRole('button', { name: 'Filters' }).click();
    await pick(page, 'Tag', 'knights');
    await expect(books).toHaveCount(2);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await pick(page, 'Author', 'Bruno Plume');
    await expect(books).toHaveCount(1);
    await expect(books.first()).toContainText('Harbor 01');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await pick(page, 'Read status', 'Unread');
    await expect(books).toHaveCount(2);
    expect(page.url()).toContain('read_status=UNREAD');
  });

  // SPEC §7: GET /collections/{id}/series and /readlists/{id}/books take library_id, and the
  // collection and read list screens offer it as a filter, like "All libraries" does.
  test(`a collection's series and a read list's books filter by library (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/collections/${ids.shelvesCollection}`);
    await expect(cards(page, 'Series')).toHaveCount(2);
    await page.getByRole('button', { name: 'Filters' }).click();
    await pick(page, 'Library', 'Side shelf');
    await expect(cards(page, 'Series')).toHaveText(['Echo Bay']);
    expect(page.url()).toContain('library_id=');

    await page.goto(`${server.folio.url}/readlists/${ids.shelvesReadList}`);
    const books = cards(page, 'Books');
    await expect(books).toHaveCount(2);
    await page.getByRole('button', { name: 'Filters' }).click();
    await pick(page, 'Library', 'Comics');
    await expect(books).toHaveCount(1);
    await expect(books.first()).toContainText('Aurora 01');
  });
}
