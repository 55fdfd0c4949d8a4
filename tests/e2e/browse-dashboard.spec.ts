import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LibraryDto } from '../../src/api/types.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './support/api.ts';
import { FEATURED, folioApi, writeBrowseLibrary } from './support/browse-library.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * The dashboard rows (SPEC §2) against the real server, each checked for exactly what it should
 * hold, and the library "Recommended" tab limited to its library.
 *
 * Library "Comics": the four featured series (Delta's books were released three days ago).
 * Library "Shelf": one series, "Zen Garden", whose second book a later scan finds. Reading state set through the API, in this order:
 *   Aurora 01 read, Aurora 02 at page 1 (→ Keep Reading), Harbor 01 read (→ On Deck: Harbor 02),
 *   Crimson 01 read.
 */
let folio: RunningFolio;
let roots: string[] = [];
let setup: APIRequestContext;
let comics: LibraryDto;

test.beforeAll(async () => {
  const [comicsRoot, shelfRoot] = await Promise.all([
    mkdtemp(path.join(tmpdir(), 'folio-e2e-dashboard-')),
    mkdtemp(path.join(tmpdir(), 'folio-e2e-dashboard-shelf-')),
  ]);
  roots = [comicsRoot, shelfRoot];
  await writeBrowseLibrary(comicsRoot, FEATURED);
  await writeBrowseLibrary(shelfRoot, [{ folder: 'Zen', books: 1, info: { series: 'Zen Garden' } }]);
  folio = await startFolio();
  setup = await playwrightRequest.newContext();
  await claimAndLogIn(setup, folio.url);
  comics = await addLibraryAndWait(setup, folio.url, comicsRoot, 'Comics');
  const shelf = await addLibraryAndWait(setup, folio.url, shelfRoot, 'Shelf');
  const api = folioApi(setup, folio.url);
  await api.waitForTitles([...FEATURED.map((s) => s.info?.series ?? s.folder), 'Zen Garden']);
  // A second book found by a later scan makes Zen Garden the one "updated" series.
  await writeBrowseLibrary(shelfRoot, [{ folder: 'Zen', books: 2, info: { series: 'Zen Garden' } }]);
  await api.send('POST', `/api/v1/libraries/${shelf.id}/scan`);
  await expect.poll(async () => (await api.seriesByTitle('Zen Garden')).booksCount).toBe(2);
  await api.markInOrder([
    ['Aurora 01', 'read'],
    ['Aurora 02', 1],
    ['Harbor 01', 'read'],
    ['Crimson 01', 'read'],
  ]);
});

test.afterAll(async () => {
  // Disposing writes this context's trace; a concurrent Playwright run sharing test-results/ may
  // have removed its folder, which says nothing about Folio.
  await setup?.dispose().catch((error: unknown) => console.warn(`setup context: ${String(error)}`));
  await folio?.stop();
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

test.beforeEach(async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
});

const row = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const rowLinks = (page: Page, name: string) => row(page, name).getByRole('listitem').getByRole('link');
const sorted = (values: string[]) => [...values].sort();

test('the dashboard shows each row with exactly what it should hold', async ({ page }) => {
  await page.goto(`${folio.url}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();

  await expect(rowLinks(page, 'Keep Reading')).toHaveText(['Aurora 02']);
  await expect(rowLinks(page, 'On Deck')).toHaveText(['Harbor 02']);
  await expect(rowLinks(page, 'Recently Read Books')).toHaveText(['Crimson 01', 'Harbor 01', 'Aurora 01']);
  await expect.poll(async () => sorted(await rowLinks(page, 'Recently Released Books').allInnerTexts())).toEqual([
    'Delta 01',
    'Delta 02',
    'Delta 03',
    'Delta 04',
  ]);
  const everySeries = ['Aurora Knights', 'Blue Harbor', 'Crimson Tide', 'Delta Files', 'Zen Garden'];
  await expect.poll(async () => sorted(await rowLinks(page, 'Recently Added Series').allInnerTexts())).toEqual(everySeries);
  // Updated means changed after it was first added (REFERENCE §6.1).
  await expect(rowLinks(page, 'Recently Updated Series')).toHaveText(['Zen Garden']);
  // 12 books in all, newest first.
  await expect(rowLinks(page, 'Recently Added Books')).toHaveCount(12);
  await expect(rowLinks(page, 'Recently Added Books').first()).toHaveText('Zen 02');
});

test('a book card leads to its book; marking it read moves it from Keep Reading to Recently Read', async ({ page }) => {
  await page.goto(`${folio.url}/dashboard`);
  await rowLinks(page, 'Keep Reading').filter({ hasText: 'Aurora 02' }).click();
  await expect(page).toHaveURL(/\/book\//);
  await expect(page.getByRole('heading', { name: 'Aurora 02', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Mark as read' }).click();
  // A book in progress offers both actions; once read, only "Mark as unread" is left.
  await expect(page.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark as unread' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }).click();
  await expect(rowLinks(page, 'Recently Read Books')).toHaveText(['Aurora 02', 'Crimson 01', 'Harbor 01', 'Aurora 01']);
  // An empty row is not shown at all.
  await expect(row(page, 'Keep Reading')).toHaveCount(0);
  // Aurora Knights now has read books and none in progress: its next unread book is on deck.
  await expect.poll(async () => sorted(await rowLinks(page, 'On Deck').allInnerTexts())).toEqual(['Aurora 03', 'Harbor 02']);
});

test("a library's Recommended tab shows the rows for that library only", async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${comics.id}/recommended`);
  await expect(page.getByRole('navigation', { name: 'Library views' }).getByRole('link', { name: 'Recommended' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect.poll(async () => sorted(await rowLinks(page, 'Recently Added Series').allInnerTexts())).toEqual([
    'Aurora Knights',
    'Blue Harbor',
    'Crimson Tide',
    'Delta Files',
  ]);
  await expect(rowLinks(page, 'Recently Added Books')).toHaveCount(10);
  await expect(row(page, 'Recently Updated Series')).toHaveCount(0);

  // /libraries/{id} goes back to the tab last used for that library.
  await page.goto(`${folio.url}/libraries/${comics.id}`);
  await expect(page).toHaveURL(new RegExp(`/libraries/${comics.id}/recommended`));
});

test('routes: /libraries opens Browse of all libraries; titles name the series or book; unknown ids say so', async ({ page }) => {
  await page.goto(`${folio.url}/libraries`);
  await expect(page).toHaveURL(/\/libraries\/all\/series$/);
  await expect(page.getByRole('heading', { name: 'All libraries', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('1–5 of 5');

  await page.getByRole('link', { name: 'Delta Files' }).click();
  await expect(page.getByRole('heading', { name: 'Delta Files', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Delta Files – Folio');
  await page.getByRole('link', { name: 'Delta 02' }).click();
  await expect(page).toHaveTitle('Delta 02 – Folio');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveTitle('Folio');

  await page.goto(`${folio.url}/series/NO-SUCH-SERIES`);
  await expect(page.getByRole('alert')).toBeVisible();
  await page.goto(`${folio.url}/book/NO-SUCH-BOOK`);
  await expect(page.getByRole('alert')).toBeVisible();
  await page.goto(`${folio.url}/libraries/NO-SUCH-LIBRARY/series`);
  await expect(page.getByText('This library does not exist or is not shared with you.')).toBeVisible();
});
