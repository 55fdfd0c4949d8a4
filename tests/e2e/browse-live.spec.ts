import { expect, test, type Page } from '@playwright/test';
import { renderPage } from '../fixtures/comics.ts';
import { FEATURED, writeBrowseLibrary } from './support/browse-library.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * Live refresh: while a page is open, changes made elsewhere (a scan started through the API,
 * another client's reading, an edit) reach it through the event stream and the page updates
 * itself, without reloading (a marker set on `window` survives).
 *
 * Each test first waits for one change to show up, which proves the stream is connected, before
 * the change under test; otherwise an event sent before the stream opened would be lost.
 */
const server = useBrowseServer('live');
const api = () => server.api();
const cards = (page: Page, list: string) =>
  page.getByRole('list', { name: list, exact: true }).getByRole('listitem').getByRole('link');

async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
  });
}

async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
}

/** Writes more books or series into the library folder and has the server scan it. */
async function addAndScan(series: Parameters<typeof writeBrowseLibrary>[1]) {
  await writeBrowseLibrary(server.root, series);
  await api().send('POST', `/api/v1/libraries/${server.library.id}/scan`);
}

test('series page: another client reading, then a scan adding a book, both show up while the page is open', async ({ page }) => {
  const series = await api().seriesByTitle('Delta Files');
  await page.goto(`${server.folio.url}/series/${series.id}`);
  await expect(cards(page, 'Books')).toHaveCount(4);
  await expect(page.getByText('4 books', { exact: true })).toBeVisible();
  await markPage(page);

  await api().markRead((await api().bookByName('Delta 01')).id);
  await expect(page.getByText('1 read')).toBeVisible();

  await addAndScan([{ ...FEATURED[3]!, books: 5 }]);
  await expect(cards(page, 'Books')).toHaveCount(5);
  await expect(cards(page, 'Books').last()).toHaveText('Delta 05');
  await expect(page.getByText(/^5 books · 1 read$/)).toBeVisible();
  await expectNotReloaded(page);
});

test('browse page: a series renamed elsewhere, then a new series found by a scan, appear in the grid', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
  const footer = page.getByRole('navigation', { name: 'Pagination' });
  await expect(footer).toContainText('1–4 of 4');
  await markPage(page);

  const crimson = await api().seriesByTitle('Crimson Tide');
  await api().send('PATCH', `/api/v1/series/${crimson.id}/metadata`, { title: 'Crimson Tides' });
  await expect(cards(page, 'Series')).toContainText(['Crimson Tides']);

  await addAndScan([{ folder: 'Foxtrot', books: 1, info: { series: 'Foxtrot Lane' } }]);
  await expect(footer).toContainText('1–5 of 5');
  await expect(cards(page, 'Series').last()).toHaveText('Foxtrot Lane');
  await expectNotReloaded(page);
});

test('dashboard: a book added by a scan appears in Recently Added Books', async ({ page }) => {
  await page.goto(`${server.folio.url}/dashboard`);
  const recentBooks = page.getByRole('region', { name: 'Recently Added Books' }).getByRole('listitem').getByRole('link');
  await expect(recentBooks.first()).toBeVisible();
  await markPage(page);

  // Reading elsewhere fills Keep Reading: proof that the stream is connected.
  await api().markPage((await api().bookByName('Aurora 01')).id, 1);
  await expect(page.getByRole('region', { name: 'Keep Reading' }).getByRole('link', { name: 'Aurora 01' })).toBeVisible();

  await addAndScan([{ folder: 'Golf', books: 1, info: { series: 'Golf Course' } }]);
  await expect(recentBooks.first()).toHaveText('Golf 01');
  await expectNotReloaded(page);
});

test('collection page: series added to the collection elsewhere appear in it', async ({ page }) => {
  const [aurora, harbor] = [await api().seriesByTitle('Aurora Knights'), await api().seriesByTitle('Blue Harbor')];
  const collection = await api().send<{ id: string }>('POST', '/api/v1/collections', {
    name: 'Shared shelf',
    ordered: true,
    seriesIds: [aurora.id],
  });
  await page.goto(`${server.folio.url}/collections/${collection.id}`);
  await expect(cards(page, 'Series')).toHaveText(['Aurora Knights']);
  await markPage(page);

  await api().send('PATCH', `/api/v1/collections/${collection.id}`, { name: 'Shared shelf, renamed' });
  await expect(page.getByRole('heading', { name: 'Shared shelf, renamed', level: 1 })).toBeVisible();

  await api().send('PATCH', `/api/v1/collections/${collection.id}`, { seriesIds: [harbor.id, aurora.id] });
  await expect(cards(page, 'Series')).toHaveText(['Blue Harbor', 'Aurora Knights']);
  await expectNotReloaded(page);
});

test('collection and read list pages: deleted elsewhere, the page leaves for the list of collections or read lists', async ({ page }) => {
  const aurora = await api().seriesByTitle('Aurora Knights');
  const collection = await api().send<{ id: string }>('POST', '/api/v1/collections', { name: 'Short-lived shelf', ordered: false, seriesIds: [aurora.id] });
  await page.goto(`${server.folio.url}/collections/${collection.id}`);
  await expect(cards(page, 'Series')).toHaveText(['Aurora Knights']);
  await markPage(page);
  // The stream is connected once a change made elsewhere shows.
  await api().send('PATCH', `/api/v1/collections/${collection.id}`, { name: 'Short-lived shelf, renamed' });
  await expect(page.getByRole('heading', { name: 'Short-lived shelf, renamed', level: 1 })).toBeVisible();
  await api().send('DELETE', `/api/v1/collections/${collection.id}`);
  await expect(page).toHaveURL(/\/libraries\/all\/collections$/);
  await expect(page.getByText('Short-lived shelf, renamed')).toHaveCount(0);
  await expectNotReloaded(page);

  const book = await api().bookByName('Aurora 01');
  const readList = await api().send<{ id: string }>('POST', '/api/v1/readlists', { name: 'Short-lived list', summary: '', ordered: true, bookIds: [book.id] });
  await page.goto(`${server.folio.url}/readlists/${readList.id}`);
  await expect(cards(page, 'Books')).toHaveCount(1);
  await markPage(page);
  await api().send('PATCH', `/api/v1/readlists/${readList.id}`, { name: 'Short-lived list, renamed' });
  await expect(page.getByRole('heading', { name: 'Short-lived list, renamed', level: 1 })).toBeVisible();
  await api().send('DELETE', `/api/v1/readlists/${readList.id}`);
  await expect(page).toHaveURL(/\/libraries\/all\/readlists$/);
  await expect(page.getByText('Short-lived list, renamed')).toHaveCount(0);
  await expectNotReloaded(page);
});

test('browse page: a series card drawn before its poster existed shows the poster once the server announces it', async ({ page }) => {
  const aurora = await api().seriesByTitle('Aurora Knights');
  // During a library's first scan a card asks for its poster before the book is analysed, and the
  // server answers 404: the first request for this card's poster gets that answer here.
  let refused = false;
  await page.route(`**/api/v1/series/${aurora.id}/thumbnail*`, async (route) => {
    if (refused) return route.continue();
    refused = true;
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
  const card = page.getByRole('list', { name: 'Series', exact: true }).getByRole('listitem').filter({ hasText: 'Aurora Knights' });
  await expect(card.locator('img')).toHaveCount(0);

  // A change that shows up proves the event stream is connected (one sent before it opened is lost:
  // send another until one shows).
  const harbor = await api().seriesByTitle('Blue Harbor');
  let edits = 0;
  await expect(async () => {
    const title = `Blue Harbor ${++edits}`;
    await api().send('PATCH', `/api/v1/series/${harbor.id}/metadata`, { title });
    await expect(cards(page, 'Series')).toContainText([title], { timeout: 2_000 });
  }).toPass();
  await expect(card.locator('img')).toHaveCount(0);

  // The poster the scan would have drawn: one uploaded for the series' first book, which the server
  // announces with ThumbnailBookAdded.
  const first = await api().bookByName('Aurora 01');
  const upload = await page.context().request.post(`${server.folio.url}/api/v1/books/${first.id}/thumbnails`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    multipart: { file: { name: 'poster.png', mimeType: 'image/png', buffer: await renderPage({ width: 200, height: 300, color: [0, 128, 255], format: 'png' }) }, selected: 'true' },
  });
  expect(upload.ok()).toBe(true);
  await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});

test('book page: the book file deleted elsewhere shows as unavailable, with no Read action left', async ({ page }) => {
  const book = await api().bookByName('Harbor 02');
  await page.goto(`${server.folio.url}/book/${book.id}`);
  await expect(page.getByRole('link', { name: 'Read', exact: true })).toBeVisible();
  await markPage(page);
  // The stream is connected once a change made elsewhere shows.
  await api().markRead(book.id);
  await expect(page.getByRole('button', { name: 'Mark as unread' })).toBeVisible();

  await api().send('DELETE', `/api/v1/books/${book.id}/file`);
  await expect(page.getByRole('status').filter({ hasText: "This book's file is gone" })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Read', exact: true })).toHaveCount(0);
  await expectNotReloaded(page);
});
