import { expect, test, type Locator, type Page } from '@playwright/test';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * Collections (of series) and read lists (of books): create, add to, refuse a duplicate name,
 * list, open, manual ordering, rename, delete — all through the UI, checked against the server.
 * The tests build on each other, so they run in order and stop at the first failure.
 */
test.describe.configure({ mode: 'serial' });

const server = useBrowseServer('groups');
const api = () => server.api();
const cards = (list: Locator) => list.getByRole('listitem').getByRole('link');

async function openSeries(page: Page, title: string) {
  await page.goto(`${server.folio.url}/series/${(await api().seriesByTitle(title)).id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

async function openBook(page: Page, name: string) {
  await page.goto(`${server.folio.url}/book/${(await api().bookByName(name)).id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

/** Opens "Add to collection" / "Add to read list" from the series or book actions menu. */
async function openAddDialog(page: Page, menu: 'Series actions' | 'Book actions', item: string) {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('button', { name: item }).click();
  const dialog = page.getByRole('dialog', { name: item });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('collection: create one from a series, add a second series to it, refuse a duplicate name', async ({ page }) => {
  await openSeries(page, 'Crimson Tide');
  let dialog = await openAddDialog(page, 'Series actions', 'Add to collection');
  await expect(dialog.getByText('No collection found.')).toBeVisible();
  await dialog.getByLabel('New collection name').fill('Favourites');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Added to Favourites.' })).toBeVisible();
  // The series page links to the collection it is now in.
  await expect(page.getByRole('navigation', { name: 'In collections' }).getByRole('link', { name: 'Favourites' })).toBeVisible();

  await openSeries(page, 'Aurora Knights');
  dialog = await openAddDialog(page, 'Series actions', 'Add to collection');
  // A name already in use (in any letter case) is refused before anything is created.
  await dialog.getByLabel('New collection name').fill('favourites');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A collection with this name already exists.');
  await expect.poll(async () => (await api().get<{ totalElements: number }>('/api/v1/collections')).totalElements).toBe(1);

  await dialog.getByRole('button', { name: 'Favourites' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Added to Favourites.' })).toBeVisible();

  // Offered again, the collection says the series is already in it.
  dialog = await openAddDialog(page, 'Series actions', 'Add to collection');
  await expect(dialog.getByRole('button', { name: /Favourites.*already in/ })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('collection: listed in the Collections tab; unordered it sorts by title, manual ordering keeps the added order', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/collections`);
  const grid = page.getByRole('list', { name: 'Collections' });
  await expect(cards(grid)).toHaveText(['Favourites']);
  await expect(grid.getByText('2 series')).toBeVisible();

  await cards(grid).first().click();
  await expect(page.getByRole('heading', { name: 'Favourites', level: 1 })).toBeVisible();
  const series = page.getByRole('list', { name: 'Series', exact: true });
  await expect(cards(series)).toHaveText(['Aurora Knights', 'Crimson Tide']);

  await page.getByRole('button', { name: 'Collection actions' }).click();
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit collection' });
  await dialog.getByLabel('Manual ordering').check();
  await dialog.getByLabel('Name').fill('Best of');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Best of', level: 1 })).toBeVisible();
  await expect(cards(series)).toHaveText(['Crimson Tide', 'Aurora Knights']);
  const [saved] = (await api().get<{ content: { name: string; ordered: boolean }[] }>('/api/v1/collections')).content;
  expect(saved).toMatchObject({ name: 'Best of', ordered: true });

  // An empty name is refused in the dialog.
  await page.getByRole('button', { name: 'Collection actions' }).click();
  await page.getByRole('button', { name: 'Edit collection' }).click();
  await dialog.getByLabel('Name').fill('  ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('A name is required.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('collection: a manually ordered collection is reordered with move buttons; an unordered one has none', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/collections`);
  await cards(page.getByRole('list', { name: 'Collections' })).filter({ hasText: 'Best of' }).click();
  const series = page.getByRole('list', { name: 'Series', exact: true });
  await expect(cards(series)).toHaveText(['Crimson Tide', 'Aurora Knights']);
  await expect(series.getByRole('button', { name: 'Move Crimson Tide earlier' })).toBeDisabled();
  await expect(series.getByRole('button', { name: 'Move Aurora Knights later' })).toBeDisabled();
  await series.getByRole('button', { name: 'Move Aurora Knights earlier' }).click();
  await expect(cards(series)).toHaveText(['Aurora Knights', 'Crimson Tide']);
  const stored = async () => (await api().get<{ content: { seriesIds: string[] }[] }>('/api/v1/collections')).content[0]?.seriesIds;
  const ids = [(await api().seriesByTitle('Aurora Knights')).id, (await api().seriesByTitle('Crimson Tide')).id];
  await expect.poll(stored).toEqual(ids);
  // The new order survives a reload.
  await page.reload();
  await expect(cards(series)).toHaveText(['Aurora Knights', 'Crimson Tide']);

  // While a filter hides members, a move of one place could swap with a hidden neighbour: reordering
  // is offered on the whole list only (before, the buttons stayed and swapped with hidden series).
  await page.goto(`${page.url().split('?')[0]}?read_status=UNREAD`);
  await expect(page.getByRole('checkbox', { name: 'Unread' })).toBeChecked();
  await expect(cards(series)).toHaveText(['Aurora Knights', 'Crimson Tide']);
  await expect(series.getByRole('button', { name: /^Move / })).toHaveCount(0);
  // The filter is remembered for the collection: cleared here, the buttons are back.
  await page.getByRole('checkbox', { name: 'Unread' }).uncheck();
  await expect(series.getByRole('button', { name: 'Move Crimson Tide earlier' })).toBeEnabled();

  // Without manual ordering there is no order to change.
  await page.getByRole('button', { name: 'Collection actions' }).click();
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit collection' });
  await dialog.getByLabel('Manual ordering').uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(series.getByRole('button', { name: /^Move / })).toHaveCount(0);
});

test('collection: renaming to the name of another collection shows the server refusal', async ({ page }) => {
  await api().send('POST', '/api/v1/collections', { name: 'Spare', ordered: false, seriesIds: [(await api().seriesByTitle('Delta Files')).id] });
  await page.goto(`${server.folio.url}/libraries/all/collections`);
  const grid = page.getByRole('list', { name: 'Collections' });
  await expect(cards(grid)).toHaveText(['Best of', 'Spare']);
  await cards(grid).filter({ hasText: 'Spare' }).click();
  await page.getByRole('button', { name: 'Collection actions' }).click();
  await page.getByRole('button', { name: 'Edit collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit collection' });
  await dialog.getByLabel('Name').fill('Best of');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toContainText('already exists');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Spare', level: 1 })).toBeVisible();
});

test('collection: deleting asks for acknowledgement and leaves its series', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/collections`);
  await cards(page.getByRole('list', { name: 'Collections' })).filter({ hasText: 'Best of' }).click();
  await page.getByRole('button', { name: 'Collection actions' }).click();
  await page.getByRole('button', { name: 'Delete collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete collection' });
  await expect(dialog).toContainText('The collection Best of will be deleted.');
  await expect(dialog).toContainText('This action is irreversible.');
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await dialog.getByLabel('I understand this cannot be undone').check();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/libraries\/all\/collections$/);
  await expect(cards(page.getByRole('list', { name: 'Collections' }))).toHaveText(['Spare']);
  expect((await api().allSeries()).length).toBe(4);
});

test('read list: create one from a book, add a second book, refuse a duplicate name', async ({ page }) => {
  await openBook(page, 'Harbor 01');
  let dialog = await openAddDialog(page, 'Book actions', 'Add to read list');
  await dialog.getByLabel('New read list name').fill('Weekend');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Added to Weekend.' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'In read lists' }).getByRole('link', { name: 'Weekend' })).toBeVisible();

  await openBook(page, 'Aurora 01');
  dialog = await openAddDialog(page, 'Book actions', 'Add to read list');
  await dialog.getByLabel('New read list name').fill('WEEKEND');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A read list with this name already exists.');
  // The search box narrows the offered read lists.
  await dialog.getByLabel('Search read lists').fill('nothing like it');
  await expect(dialog.getByText('No read list found.')).toBeVisible();
  await dialog.getByLabel('Search read lists').fill('week');
  await dialog.getByRole('button', { name: 'Weekend' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api().get<{ content: { bookIds: string[] }[] }>('/api/v1/readlists')).content[0]?.bookIds.length).toBe(2);
});

test('read list: its books are reordered with move buttons, either way', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/readlists`);
  await cards(page.getByRole('list', { name: 'Read Lists' })).first().click();
  const books = page.getByRole('list', { name: 'Books' });
  await expect(cards(books)).toHaveText(['Harbor 01', 'Aurora 01']);
  await books.getByRole('button', { name: 'Move Aurora 01 earlier' }).click();
  await expect(cards(books)).toHaveText(['Aurora 01', 'Harbor 01']);
  await books.getByRole('button', { name: 'Move Aurora 01 later' }).click();
  await expect(cards(books)).toHaveText(['Harbor 01', 'Aurora 01']);
  const stored = (await api().get<{ content: { bookIds: string[] }[] }>('/api/v1/readlists')).content[0]?.bookIds;
  expect(stored).toEqual([(await api().bookByName('Harbor 01')).id, (await api().bookByName('Aurora 01')).id]);
});

test('read list: manual ordering keeps the added order, without it release dates rule; navigation follows the list', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/readlists`);
  const grid = page.getByRole('list', { name: 'Read Lists' });
  await expect(cards(grid)).toHaveText(['Weekend']);
  await expect(grid.getByText('2 books')).toBeVisible();
  await cards(grid).first().click();
  await expect(page.getByRole('heading', { name: 'Weekend', level: 1 })).toBeVisible();
  const books = page.getByRole('list', { name: 'Books' });
  // A new read list is manually ordered (Komga's default): the order the books were added.
  await expect(cards(books)).toHaveText(['Harbor 01', 'Aurora 01']);

  await page.getByRole('button', { name: 'Read list actions' }).click();
  await page.getByRole('button', { name: 'Edit read list' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit read list' });
  await expect(dialog.getByLabel('Manual ordering')).toBeChecked();
  await dialog.getByLabel('Manual ordering').uncheck();
  await dialog.getByLabel('Summary').fill('Two first issues for a quiet weekend.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Two first issues for a quiet weekend.')).toBeVisible();
  // Aurora 01 (2019) before Harbor 01 (2021).
  await expect(cards(books)).toHaveText(['Aurora 01', 'Harbor 01']);

  // Opened from the list, a book's previous/next follow the list, not its series.
  await cards(books).filter({ hasText: 'Aurora 01' }).click();
  await expect(page.getByRole('heading', { name: 'Aurora 01', level: 1 })).toBeVisible();
  const siblings = page.getByRole('navigation', { name: 'Other books of the read list' });
  await expect(siblings.getByRole('link', { name: 'Next book' })).toBeVisible();
  await expect(siblings.getByRole('link', { name: 'Previous book' })).toHaveCount(0);
  await siblings.getByRole('link', { name: 'Next book' }).click();
  await expect(page.getByRole('heading', { name: 'Harbor 01', level: 1 })).toBeVisible();
  await expect(siblings.getByRole('link', { name: 'Previous book' })).toBeVisible();
  await expect(siblings.getByRole('link', { name: 'Next book' })).toHaveCount(0);
  await page.getByRole('main').getByRole('link', { name: 'Weekend' }).first().click();
  await expect(page.getByRole('heading', { name: 'Weekend', level: 1 })).toBeVisible();
});

test('read list: deleting asks for acknowledgement and leaves its books', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/readlists`);
  await cards(page.getByRole('list', { name: 'Read Lists' })).first().click();
  await page.getByRole('button', { name: 'Read list actions' }).click();
  await page.getByRole('button', { name: 'Delete read list' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete read list' });
  await expect(dialog).toContainText('The read list Weekend will be deleted.');
  await dialog.getByLabel('I understand this cannot be undone').check();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/libraries\/all\/readlists$/);
  await expect(page.getByText('No read lists here yet.')).toBeVisible();
  expect((await api().allBooks()).length).toBe(10);
});
