import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LibraryDto } from '../../src/api/types.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './support/api.ts';
import { FEATURED, cardTitles, fillers, folioApi, writeBrowseLibrary } from './support/browse-library.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Browsing one library's series in real Chromium against the real server: the paging footer,
 * every filter, every sort key, the letter bar, and that the view lives in the URL.
 *
 * Library: the four featured series of browse-library.ts, 20 "Filler" series, and "Echo Point"
 * added by a second scan (so it is the newest); the five non-filler series get the series tag
 * "featured". A second library, "Shelf", holds one series, "Zen Garden". Reading state set through the API:
 *   Aurora Knights: book 1 read, book 2 at page 1 → in progress
 *   Blue Harbor:    book 1 read                   → in progress; status set to Ended
 *   Crimson Tide:   its only book read, last      → read
 *   Delta Files, Echo Point, fillers: untouched   → unread
 */
let folio: RunningFolio;
let root: string;
let shelfRoot: string;
let setup: APIRequestContext;
let library: LibraryDto;

const FEATURED_BY_NAME = ['Aurora Knights', 'Blue Harbor', 'Crimson Tide', 'Delta Files', 'Echo Point'];

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-browse-'));
  shelfRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-browse-shelf-'));
  await writeBrowseLibrary(root, [...FEATURED, ...fillers(20)]);
  folio = await startFolio();
  setup = await playwrightRequest.newContext();
  await claimAndLogIn(setup, folio.url);
  library = await addLibraryAndWait(setup, folio.url, root);
  // A second library, for the library filter of "All libraries".
  await writeBrowseLibrary(shelfRoot, [{ folder: 'Zen', books: 1, info: { series: 'Zen Garden' } }]);
  await addLibraryAndWait(setup, folio.url, shelfRoot, 'Shelf');
  const api = folioApi(setup, folio.url);
  await api.waitForTitles([...FEATURED.map((s) => s.info?.series ?? s.folder), 'Zen Garden']);

  // A second scan finds one more series: the newest by date added and date updated.
  await writeBrowseLibrary(root, [{ folder: 'Echo', books: 1, info: { series: 'Echo Point' } }]);
  await api.send('POST', `/api/v1/libraries/${library.id}/scan`);
  await api.waitForTitles(['Echo Point']);

  await api.markInOrder([
    ['Aurora 01', 'read'],
    ['Aurora 02', 1],
    ['Harbor 01', 'read'],
    ['Crimson 01', 'read'],
  ]);
  // ComicInfo tags are book tags; series tags are set by hand, as a user would in the editor.
  for (const title of FEATURED_BY_NAME) {
    const series = await api.seriesByTitle(title);
    await api.send('PATCH', `/api/v1/series/${series.id}/metadata`, {
      tags: ['featured'],
      ...(title === 'Blue Harbor' ? { status: 'ENDED' } : {}),
      // Complete: all its books are here. Aurora Knights expects more than it has.
      ...(title === 'Crimson Tide' ? { totalBookCount: 1 } : {}),
      ...(title === 'Aurora Knights' ? { totalBookCount: 5 } : {}),
    });
  }
});

test.afterAll(async () => {
  // Disposing writes this context's trace; a concurrent Playwright run sharing test-results/ may
  // have removed its folder, which says nothing about Folio.
  await setup?.dispose().catch((error: unknown) => console.warn(`setup context: ${String(error)}`));
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
  await rm(shelfRoot, { recursive: true, force: true });
});

test.beforeEach(async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
});

const seriesList = (page: Page) => page.getByRole('list', { name: 'Series', exact: true });
const footer = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });

async function expectTitles(page: Page, expected: string[]) {
  await expect(seriesList(page).getByRole('listitem').getByRole('link')).toHaveText(expected);
}

async function expectLeading(page: Page, expected: string[]) {
  await expect.poll(async () => (await cardTitles(seriesList(page))).slice(0, expected.length)).toEqual(expected);
}

test('paging footer: range out of the total, next/previous pages, page size', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await expect(footer(page)).toContainText('1–20 of 25');
  await expect(seriesList(page).getByRole('listitem')).toHaveCount(20);
  await expect(footer(page).getByRole('button', { name: 'Previous page' })).toBeDisabled();

  await footer(page).getByRole('button', { name: 'Next page' }).click();
  await expect(footer(page)).toContainText('21–25 of 25');
  await expectTitles(page, ['Filler 16', 'Filler 17', 'Filler 18', 'Filler 19', 'Filler 20']);
  await expect(footer(page).getByRole('button', { name: 'Next page' })).toBeDisabled();
  await expect(page).toHaveURL(/[?&]page=/);

  await footer(page).getByRole('button', { name: 'Previous page' }).click();
  await expect(footer(page)).toContainText('1–20 of 25');
  await expectLeading(page, FEATURED_BY_NAME);

  await page.getByLabel('Per page').selectOption('50');
  await expect(footer(page)).toContainText('1–25 of 25');
  await expect(seriesList(page).getByRole('listitem')).toHaveCount(25);
  await expect(footer(page).getByRole('button', { name: 'Next page' })).toBeDisabled();
  await page.getByLabel('Per page').selectOption('20');
  await expect(footer(page)).toContainText('1–20 of 25');
});

test('a page past the end shows the last page instead', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series?page=21`);
  await expect(footer(page)).toContainText('21–25 of 25');
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expectTitles(page, ['Filler 16', 'Filler 17', 'Filler 18', 'Filler 19', 'Filler 20']);
});

test('the sidebar library link opens the view last used for that library', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/collections`);
  await expect(page).toHaveURL(new RegExp(`/libraries/${library.id}/collections`));
  // The view is remembered once the library screen has rendered it (the URL alone is there at once):
  // leaving before that, on a slow machine, left nothing to remember.
  await page.waitForFunction(
    (id) => (JSON.parse(localStorage.getItem('folio.preferences') ?? '{}') as { libraryViews?: Record<string, string> }).libraryViews?.[id] === 'collections',
    library.id,
  );
  await page.goto(`${folio.url}/dashboard`);
  const navigation = page.getByRole('navigation', { name: 'Main navigation' });
  await navigation.getByRole('link', { name: library.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/libraries/${library.id}/collections$`));
});

test('changing the filter on page 2 goes back to page 1; the page size is remembered across visits', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await footer(page).getByRole('button', { name: 'Next page' }).click();
  await expect(footer(page)).toContainText('21–25 of 25');
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('group', { name: 'Publisher', exact: true }).getByLabel('Dawn Press', { exact: true }).check();
  await expectTitles(page, ['Aurora Knights', 'Crimson Tide']);
  await expect(footer(page)).toContainText('1–2 of 2');
  expect(page.url()).not.toMatch(/[?&]page=/);
  await page.getByRole('button', { name: 'Clear filters' }).click();

  await page.getByLabel('Per page').selectOption('50');
  await expect(footer(page)).toContainText('1–25 of 25');
  await page.goto(`${folio.url}/libraries/${library.id}/collections`);
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await expect(page.getByLabel('Per page')).toHaveValue('50');
  await expect(footer(page)).toContainText('1–25 of 25');
  await page.getByLabel('Per page').selectOption('20');
});

/** [fieldset legend, option label(s), query parameter, series expected (by name)] */
const FILTER_CASES: [string, string[], string, string[]][] = [
  ['Tag', ['featured'], 'tag=featured', FEATURED_BY_NAME],
  // "knights" is only a book tag (ComicInfo of Aurora's books): offered and matched all the same.
  ['Tag', ['knights'], 'tag=knights', ['Aurora Knights']],
  ['Completeness', ['Complete (every book is here)'], 'complete=true', ['Crimson Tide']],
  ['Read status', ['Read'], 'read_status=READ', ['Crimson Tide']],
  ['Read status', ['In progress'], 'read_status=IN_PROGRESS', ['Aurora Knights', 'Blue Harbor']],
  ['Status', ['Ended'], 'status=ENDED', ['Blue Harbor']],
  ['Genre', ['Fantasy'], 'genre=Fantasy', ['Aurora Knights']],
  ['Genre', ['Fantasy', 'Drama'], 'genre=Drama', ['Aurora Knights', 'Blue Harbor']],
  ['Publisher', ['Dawn Press'], 'publisher=Dawn+Press', ['Aurora Knights', 'Crimson Tide']],
  ['Language', ['French'], 'language=fr', ['Blue Harbor']],
  ['Age rating', ['13+'], 'age_rating=13', ['Aurora Knights']],
  ['Release year', ['2021'], 'release_year=2021', ['Blue Harbor']],
];

test('each filter narrows the series to those that match, and the URL keeps it', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await page.getByRole('button', { name: 'Filters' }).click();
  for (const [legend, options, param, expected] of FILTER_CASES) {
    await test.step(`${legend}: ${options.join(' or ')}`, async () => {
      const group = page.getByRole('group', { name: legend, exact: true });
      for (const option of options) await group.getByLabel(option, { exact: true }).check();
      await expectTitles(page, expected);
      expect(page.url()).toContain(param);
      await expect(footer(page)).toContainText(`1–${expected.length} of ${expected.length}`);
      for (const option of options) await group.getByLabel(option, { exact: true }).uncheck();
      await expect(footer(page)).toContainText('1–20 of 25');
    });
  }
});

test('filters combine across groups; nothing matching says so; a bookmarked URL restores them', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('group', { name: 'Tag', exact: true }).getByLabel('featured', { exact: true }).check();
  await page.getByRole('group', { name: 'Read status', exact: true }).getByLabel('Unread', { exact: true }).check();
  await expectTitles(page, ['Delta Files', 'Echo Point']);

  // The same view from its address alone, in a fresh page load.
  const bookmarked = page.url();
  await page.goto('about:blank');
  await page.goto(bookmarked);
  await expectTitles(page, ['Delta Files', 'Echo Point']);
  await expect(page.getByRole('group', { name: 'Read status', exact: true }).getByLabel('Unread', { exact: true })).toBeChecked();

  await page.getByRole('group', { name: 'Genre', exact: true }).getByLabel('Fantasy', { exact: true }).check();
  await expect(page.getByText('Nothing matches the active filter.')).toBeVisible();
  await expect(seriesList(page)).toHaveCount(0);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(footer(page)).toContainText('1–20 of 25');
  expect(new URL(page.url()).search).toBe('');
});

test('the letter bar jumps to series starting with a letter; empty letters are disabled', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  const letters = page.getByRole('navigation', { name: 'Jump to letter' });
  await expect(letters.getByRole('button', { name: 'Z', exact: true })).toBeDisabled();
  await letters.getByRole('button', { name: 'C', exact: true }).click();
  await expectTitles(page, ['Crimson Tide']);
  await expect(letters.getByRole('button', { name: 'C', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await letters.getByRole('button', { name: 'F', exact: true }).click();
  await expect(footer(page)).toContainText('1–20 of 20');
  await letters.getByRole('button', { name: 'All', exact: true }).click();
  await expect(footer(page)).toContainText('1–20 of 25');
});

/** [sort label, order, leading series expected] — within the "featured" tag. */
const SORT_CASES: [string, 'Ascending' | 'Descending', string[]][] = [
  ['Name', 'Ascending', FEATURED_BY_NAME],
  ['Name', 'Descending', [...FEATURED_BY_NAME].reverse()],
  ['Folder name', 'Ascending', ['Aurora Knights', 'Crimson Tide', 'Delta Files', 'Echo Point', 'Blue Harbor']],
  ['Books count', 'Descending', ['Delta Files', 'Aurora Knights', 'Blue Harbor']],
  ['Books count', 'Ascending', ['Crimson Tide', 'Echo Point'].sort()],
  // Echo Point has no release date; descending puts it last.
  ['Release date', 'Descending', ['Delta Files', 'Blue Harbor', 'Aurora Knights', 'Crimson Tide']],
  ['Date read', 'Descending', ['Crimson Tide', 'Blue Harbor', 'Aurora Knights']],
  ['Date added', 'Descending', ['Echo Point']],
  ['Date updated', 'Descending', ['Echo Point']],
];

test('each sort key orders the series, in both directions', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series?tag=featured`);
  await expectTitles(page, FEATURED_BY_NAME);
  for (const [label, order, expected] of SORT_CASES) {
    await test.step(`${label}, ${order}`, async () => {
      await page.getByLabel('Sort by').selectOption({ label });
      await page.getByLabel('Order').selectOption({ label: order });
      if (label === 'Books count' && order === 'Ascending') {
        // The two one-book series tie; either may come first.
        await expect.poll(async () => (await cardTitles(seriesList(page))).slice(0, 2).sort()).toEqual(expected);
      } else {
        await expectLeading(page, expected);
      }
    });
  }
  await page.getByLabel('Sort by').selectOption({ label: 'Date added' });
  await page.getByLabel('Order').selectOption({ label: 'Ascending' });
  await expect.poll(async () => (await cardTitles(seriesList(page))).at(-1)).toBe('Echo Point');
  expect(page.url()).toContain('sort=createdDate%2Casc');

  // Random keeps every series, just not in a known order.
  await page.getByLabel('Sort by').selectOption({ label: 'Random' });
  await expect.poll(async () => (await cardTitles(seriesList(page))).sort()).toEqual(FEATURED_BY_NAME);
});

test('the last filter and sort of a library come back when the library is opened again', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series?tag=featured&sort=booksCount%2Cdesc`);
  await expectLeading(page, ['Delta Files', 'Aurora Knights']);
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Comics' }).click();
  await expectLeading(page, ['Delta Files', 'Aurora Knights']);
  await expect(page.getByLabel('Sort by')).toHaveValue('booksCount');
});

test("a series' books sort by number either way, by date read and by file name", async ({ page }) => {
  const aurora = await folioApi(page.context().request, folio.url).seriesByTitle('Aurora Knights');
  await page.goto(`${folio.url}/series/${aurora.id}`);
  const books = page.getByRole('list', { name: 'Books' }).getByRole('listitem').getByRole('link');
  await expect(books).toHaveText(['Aurora 01', 'Aurora 02', 'Aurora 03']);
  await page.getByLabel('Sort by').selectOption({ label: 'Number, descending' });
  await expect(books).toHaveText(['Aurora 03', 'Aurora 02', 'Aurora 01']);
  expect(page.url()).toContain('sort=metadata.numberSort%2Cdesc');
  // Aurora 02 was opened after Aurora 01 was finished; Aurora 03 never.
  await page.getByLabel('Sort by').selectOption({ label: 'Date read' });
  await expect(books).toHaveText(['Aurora 02', 'Aurora 01', 'Aurora 03']);
  await page.getByLabel('Sort by').selectOption({ label: 'File name' });
  await expect(books).toHaveText(['Aurora 01', 'Aurora 02', 'Aurora 03']);
  await page.reload();
  await expect(page.getByLabel('Sort by')).toHaveValue('name,asc');
});

test('a selection does not outlive the view: series hidden by a new filter are not acted on', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await seriesList(page).getByRole('checkbox', { name: 'Select Filler 01' }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selection' });
  await expect(toolbar).toContainText('1 selected');

  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('group', { name: 'Publisher', exact: true }).getByLabel('Dawn Press', { exact: true }).check();
  await expectTitles(page, ['Aurora Knights', 'Crimson Tide']);
  await seriesList(page).getByRole('checkbox', { name: 'Select Crimson Tide' }).check();
  // Only what the user can see is selected.
  await expect(toolbar).toContainText('1 selected');
  await toolbar.getByRole('button', { name: 'Mark as read' }).click();
  await expect(toolbar).toHaveCount(0);
  const api = folioApi(page.context().request, folio.url);
  expect((await api.seriesByTitle('Filler 01')).booksReadCount).toBe(0);
});

test('the author filter finds the series a writer worked on', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await page.getByRole('button', { name: 'Filters' }).click();
  const authors = page.getByRole('group', { name: 'Author', exact: true });
  await authors.getByLabel('Ada Quill', { exact: true }).check();
  await expectTitles(page, ['Aurora Knights', 'Delta Files']);
  expect(page.url()).toContain('author=Ada+Quill');
  await authors.getByLabel('Bruno Plume', { exact: true }).check();
  await expectTitles(page, ['Aurora Knights', 'Blue Harbor', 'Delta Files']);
});

test('the library filter limits "All libraries" to the chosen libraries, named as the user knows them', async ({ page }) => {
  await page.goto(`${folio.url}/libraries/all/series`);
  await expect(footer(page)).toContainText('1–20 of 26');
  await page.getByRole('button', { name: 'Filters' }).click();
  const libraries = page.getByRole('group', { name: 'Library', exact: true });
  await libraries.getByLabel('Shelf', { exact: true }).check();
  await expectTitles(page, ['Zen Garden']);
  await libraries.getByLabel('Comics', { exact: true }).check();
  await expect(footer(page)).toContainText('1–20 of 26');
  await libraries.getByLabel('Shelf', { exact: true }).uncheck();
  await expect(footer(page)).toContainText('1–20 of 25');
  // A single library's own browse view has no library filter.
  await page.goto(`${folio.url}/libraries/${library.id}/series`);
  await page.getByRole('button', { name: 'Filters' }).click();
  await expect(page.getByRole('group', { name: 'Genre', exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Library', exact: true })).toHaveCount(0);
});
