import { expect, test, type Locator, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { logIn } from './support/api.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * The series and book edit dialogs (SPEC §5 validation) and read state from the series and
 * book pages, against the real server: refused input never reaches the server, accepted input
 * is saved and shown.
 */
const server = useBrowseServer('edit');
const api = () => server.api();

async function openDialog(page: Page, menu: string, item: string): Promise<Locator> {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('button', { name: item }).click();
  const dialog = page.getByRole('dialog', { name: item });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The field is marked invalid and its message is read out with it. */
async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.()]/g, '\\$&')));
}

test('edit series: out-of-range age rating and total book count are refused; valid values are saved and shown', async ({ page }) => {
  const series = await api().seriesByTitle('Aurora Knights');
  await page.goto(`${server.folio.url}/series/${series.id}`);
  await expect(page.getByRole('heading', { name: 'Aurora Knights', level: 1 })).toBeVisible();
  const dialog = await openDialog(page, 'Series actions', 'Edit series');
  await expect(dialog.getByLabel('Age rating', { exact: true })).toHaveValue('13');
  await expect(dialog.getByLabel('Publisher', { exact: true })).toHaveValue('Dawn Press');

  await dialog.getByLabel('Age rating', { exact: true }).fill('-1');
  await dialog.getByLabel('Total book count', { exact: true }).fill('0');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Some fields need fixing before saving.');
  await expectFieldError(dialog.getByLabel('Age rating', { exact: true }), 'Must be 0 or more.');
  await expectFieldError(dialog.getByLabel('Total book count', { exact: true }), 'Must be greater than 0.');
  // Messages follow the typing once shown.
  await dialog.getByLabel('Age rating', { exact: true }).fill('twelve');
  await expectFieldError(dialog.getByLabel('Age rating', { exact: true }), 'Must be a whole number.');
  await expect(dialog).toBeVisible();
  expect((await api().seriesByTitle('Aurora Knights')).metadata).toMatchObject({ ageRating: 13, totalBookCount: null });

  await dialog.getByLabel('Age rating', { exact: true }).fill('0');
  await dialog.getByLabel('Total book count', { exact: true }).fill('5');
  await expect(dialog.getByLabel('Age rating', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Publisher', { exact: true }).fill('New Dawn');
  await dialog.getByLabel('Genres', { exact: true }).fill('Fantasy, Epic');
  await dialog.getByLabel('Status', { exact: true }).selectOption({ label: 'Hiatus' });
  await dialog.getByLabel('Summary', { exact: true }).fill('Knights at dawn.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByText('New Dawn')).toBeVisible();
  await expect(page.getByText('Fantasy, Epic')).toBeVisible();
  await expect(page.getByText('0+')).toBeVisible();
  await expect(page.getByText('Hiatus')).toBeVisible();
  await expect(page.getByText('Knights at dawn.')).toBeVisible();
  expect((await api().seriesByTitle('Aurora Knights')).metadata).toMatchObject({
    ageRating: 0,
    ageRatingLock: true,
    totalBookCount: 5,
    publisher: 'New Dawn',
    genres: expect.arrayContaining(['Fantasy', 'Epic']),
    status: 'HIATUS',
    summary: 'Knights at dawn.',
  });
});

test('edit book: ISBN-13, date, decimal sort number, http(s) link and duplicate author are refused; fixed values are saved', async ({ page }) => {
  const book = await api().bookByName('Aurora 01');
  await page.goto(`${server.folio.url}/book/${book.id}`);
  await expect(page.getByRole('heading', { name: 'Aurora 01', level: 1 })).toBeVisible();
  const dialog = await openDialog(page, 'Book actions', 'Edit book');
  await expect(dialog.getByLabel('Author 1 name')).toHaveValue('Ada Quill');
  await expect(dialog.getByLabel('Author 1 role')).toHaveValue('writer');

  await dialog.getByLabel('ISBN', { exact: true }).fill('978-0-306-40615-8'); // wrong check digit
  await dialog.getByLabel('Release date', { exact: true }).fill('2020-02-30');
  await dialog.getByLabel('Sort number', { exact: true }).fill('2,5');
  await dialog.getByRole('button', { name: 'Add link' }).click();
  await dialog.getByLabel('Link 1 label').fill('Home');
  await dialog.getByLabel('Link 1 URL').fill('ftp://example.org/aurora');
  // A second link without any scheme gets the same message (not a browser bubble).
  await dialog.getByRole('button', { name: 'Add link' }).click();
  await dialog.getByLabel('Link 2 label').fill('Shop');
  await dialog.getByLabel('Link 2 URL').fill('example.org/shop');
  await dialog.getByRole('button', { name: 'Add author' }).click();
  await dialog.getByLabel('Author 2 name').fill('Ada Quill');
  await dialog.getByRole('button', { name: 'Save' }).click();

  await expect(dialog.getByRole('alert')).toHaveText('Some fields need fixing before saving.');
  await expectFieldError(dialog.getByLabel('ISBN', { exact: true }), 'Must be a valid ISBN-13.');
  await expectFieldError(dialog.getByLabel('Release date', { exact: true }), 'Must be a valid date (YYYY-MM-DD).');
  await expectFieldError(dialog.getByLabel('Sort number', { exact: true }), 'Must be a number (decimals allowed).');
  await expectFieldError(dialog.getByLabel('Link 1 URL'), 'Must be a valid http or https URL.');
  await expectFieldError(dialog.getByLabel('Link 2 URL'), 'Must be a valid http or https URL.');
  await expectFieldError(dialog.getByLabel('Author 2 name'), 'Already exists.');
  await expect(dialog.getByLabel('Author 1 name')).not.toHaveAttribute('aria-invalid', 'true');
  expect((await api().bookByName('Aurora 01')).metadata).toMatchObject({ isbn: '', numberSort: 1, links: [] });

  await dialog.getByLabel('ISBN', { exact: true }).fill('978-0-306-40615-7');
  await dialog.getByLabel('Release date', { exact: true }).fill('2020-02-29');
  await dialog.getByLabel('Sort number', { exact: true }).fill('2.5');
  await dialog.getByLabel('Link 1 URL').fill('https://example.org/aurora');
  await dialog.getByRole('button', { name: 'Remove link 2' }).click();
  // Same name in another role is a different credit.
  await dialog.getByLabel('Author 2 role').selectOption({ label: 'Penciller' });
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByText('Ada Quill (Writer), Ada Quill (Penciller)')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Links' }).getByRole('link', { name: 'Home' })).toHaveAttribute(
    'href',
    'https://example.org/aurora',
  );
  expect((await api().bookByName('Aurora 01')).metadata).toMatchObject({
    isbn: '9780306406157',
    releaseDate: '2020-02-29',
    numberSort: 2.5,
    numberSortLock: true,
    links: [{ label: 'Home', url: 'https://example.org/aurora' }],
    authors: [
      { name: 'Ada Quill', role: 'writer' },
      { name: 'Ada Quill', role: 'penciller' },
    ],
  });

  // The decimal sort number places the book between issues 2 and 3 of its series.
  await page.getByRole('link', { name: 'Aurora Knights' }).click();
  await expect(page.getByRole('list', { name: 'Books' }).getByRole('listitem').getByRole('link')).toHaveText([
    'Aurora 02',
    'Aurora 01',
    'Aurora 03',
  ]);
});

test('read state: a book is marked read and unread; a series is marked read and unread as a whole', async ({ page }) => {
  const book = await api().bookByName('Harbor 01');
  await page.goto(`${server.folio.url}/book/${book.id}`);
  await page.getByRole('button', { name: 'Mark as read' }).click();
  await expect(page.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
  await expect.poll(async () => (await api().bookByName('Harbor 01')).readProgress?.completed).toBe(true);
  await page.getByRole('button', { name: 'Mark as unread' }).click();
  await expect(page.getByRole('button', { name: 'Mark as read' })).toBeVisible();
  await expect.poll(async () => (await api().bookByName('Harbor 01')).readProgress).toBeNull();

  await page.getByRole('link', { name: 'Blue Harbor' }).click();
  await expect(page.getByRole('heading', { name: 'Blue Harbor', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Mark series as read' }).click();
  await expect(page.getByText('2 read')).toBeVisible();
  await expect.poll(async () => (await api().seriesByTitle('Blue Harbor')).booksReadCount).toBe(2);
  await page.getByRole('button', { name: 'Mark series as unread' }).click();
  await expect(page.getByRole('button', { name: 'Mark series as read' })).toBeVisible();
  await expect.poll(async () => (await api().seriesByTitle('Blue Harbor')).booksReadCount).toBe(0);
});

test('series read progress is set and cleared as a whole: with some books read both actions are offered', async ({ page }) => {
  // SPEC §4: series have read progress set and cleared as a whole. A series partly read can be
  // finished or cleared from its page, as Komga offers both actions then.
  await api().markRead((await api().bookByName('Aurora 01')).id);
  const series = await api().seriesByTitle('Aurora Knights');
  await page.goto(`${server.folio.url}/series/${series.id}`);
  await expect(page.getByText('1 read')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark series as read' })).toBeVisible();
  await page.getByRole('button', { name: 'Mark series as unread' }).click();
  await expect.poll(async () => (await api().seriesByTitle('Aurora Knights')).booksReadCount).toBe(0);
  await expect(page.getByRole('button', { name: 'Mark series as unread' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark series as read' })).toBeVisible();
});

test('read state: a book in progress can be finished or marked unread from its page', async ({ page }) => {
  // SPEC §4: a book's read state toggles read and unread; one half read is neither, and both
  // ways out are offered (Komga does too).
  const book = await api().bookByName('Aurora 02');
  await api().markPage(book.id, 1);
  await page.goto(`${server.folio.url}/book/${book.id}`);
  await expect(page.getByRole('button', { name: 'Mark as read' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
  await page.getByRole('button', { name: 'Mark as unread' }).click();
  await expect.poll(async () => (await api().bookByName('Aurora 02')).readProgress).toBeNull();
  await expect(page.getByRole('button', { name: 'Mark as unread' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark as read' })).toBeVisible();
});

test('edit book: each field has a lock; editing a field locks it, and a lock can be lifted on its own', async ({ page }) => {
  const book = await api().bookByName('Crimson 01');
  await page.goto(`${server.folio.url}/book/${book.id}`);
  let dialog = await openDialog(page, 'Book actions', 'Edit book');
  const locks = dialog.getByRole('group', { name: /^Locked fields/ });
  for (const field of ['Title', 'Number', 'Sort number', 'Release date', 'ISBN', 'Summary', 'Tags', 'Authors', 'Links']) {
    await expect(locks.getByLabel(`Lock: ${field}`, { exact: true })).not.toBeChecked();
  }
  await dialog.getByLabel('Summary', { exact: true }).fill('The first wave breaks.');
  await expect(locks.getByLabel('Lock: Summary', { exact: true })).toBeChecked();
  await expect(locks.getByLabel('Lock: Title', { exact: true })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api().bookByName('Crimson 01')).metadata.summaryLock).toBe(true);

  dialog = await openDialog(page, 'Book actions', 'Edit book');
  await dialog.getByRole('group', { name: /^Locked fields/ }).getByLabel('Lock: Summary', { exact: true }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api().bookByName('Crimson 01')).metadata.summaryLock).toBe(false);
  expect((await api().bookByName('Crimson 01')).metadata.summary).toBe('The first wave breaks.');
});

test('edit series: each field has a lock; editing a field locks it, and a lock can be lifted on its own', async ({ page }) => {
  const series = await api().seriesByTitle('Crimson Tide');
  await page.goto(`${server.folio.url}/series/${series.id}`);
  let dialog = await openDialog(page, 'Series actions', 'Edit series');
  const locks = dialog.getByRole('group', { name: /^Locked fields/ });
  for (const field of ['Title', 'Sort title', 'Status', 'Publisher', 'Age rating', 'Total book count', 'Summary', 'Genres', 'Tags', 'Alternate titles']) {
    await expect(locks.getByLabel(`Lock: ${field}`, { exact: true })).not.toBeChecked();
  }
  await dialog.getByLabel('Summary', { exact: true }).fill('A tide of red.');
  await expect(locks.getByLabel('Lock: Summary', { exact: true })).toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api().seriesByTitle('Crimson Tide')).metadata.summaryLock).toBe(true);

  dialog = await openDialog(page, 'Series actions', 'Edit series');
  await dialog.getByRole('group', { name: /^Locked fields/ }).getByLabel('Lock: Summary', { exact: true }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api().seriesByTitle('Crimson Tide')).metadata.summaryLock).toBe(false);
  expect((await api().seriesByTitle('Crimson Tide')).metadata.summary).toBe('A tide of red.');
});

test('delete book: the warning says the file goes and it is irreversible; the file is gone afterwards', async ({ page }) => {
  const book = await api().bookByName('Delta 04');
  const file = path.join(server.root, 'Delta', 'Delta 04.cbz');
  expect(existsSync(file)).toBe(true);
  await page.goto(`${server.folio.url}/book/${book.id}`);
  const dialog = await openDialog(page, 'Book actions', 'Delete book');
  await expect(dialog).toContainText('The book Delta 04 will be deleted, and its file removed from disk.');
  await expect(dialog).toContainText('This action is irreversible.');
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await dialog.getByLabel('I understand this cannot be undone').check();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(new RegExp(`/series/${book.seriesId}$`));
  await expect(page.getByText(/^3 books/)).toBeVisible();
  expect(existsSync(file)).toBe(false);
});

test('a plain user browses and reads without any admin action', async ({ page }) => {
  const reader = { email: 'reader@example.org', password: 'just a reader 42' };
  await api().send('POST', '/api/v2/users', { ...reader, roles: [] });
  await logIn(page.context().request, server.folio.url, reader);
  const series = await api().seriesByTitle('Crimson Tide');
  await page.goto(`${server.folio.url}/series/${series.id}`);
  await expect(page.getByRole('heading', { name: 'Crimson Tide', level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Books' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Series actions' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Crimson 01' }).click();
  await expect(page.getByRole('heading', { name: 'Crimson 01', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Book actions' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Mark as read' }).click();
  await expect(page.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
  // Read progress is per user: the admin has not read it.
  expect((await api().bookByName('Crimson 01')).readProgress).toBeNull();

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Comics' }).click();
  await expect(page.getByRole('heading', { name: 'Comics', level: 1 })).toBeVisible();
  // A library never opened before shows its Recommended view first (SPEC §2); its series are under Browse.
  await expect(page).toHaveURL(/\/recommended$/);
  await page.getByRole('navigation', { name: 'Library views' }).getByRole('link', { name: 'Browse' }).click();
  await expect(page.getByRole('list', { name: 'Series', exact: true }).getByRole('listitem')).toHaveCount(4);
  await expect(page.getByRole('button', { name: 'Scan library' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Library actions' })).toHaveCount(0);
});

test('multi-select: books of a series are marked read, then unread, in one action each', async ({ page }) => {
  const series = await api().seriesByTitle('Delta Files');
  await page.goto(`${server.folio.url}/series/${series.id}`);
  const books = page.getByRole('list', { name: 'Books' });
  const toolbar = page.getByRole('toolbar', { name: 'Selection' });
  await expect(toolbar).toHaveCount(0);
  await books.getByRole('checkbox', { name: 'Select Delta 01' }).check();
  await books.getByRole('checkbox', { name: 'Select Delta 02' }).check();
  await expect(toolbar).toContainText('2 selected');
  await toolbar.getByRole('button', { name: 'Mark as read' }).click();
  await expect(toolbar).toHaveCount(0);
  await expect(page.getByText(/· 2 read$/)).toBeVisible();
  const read = async () =>
    (await api().allBooks()).filter((b) => b.seriesId === series.id && b.readProgress?.completed).map((b) => b.name).sort();
  await expect.poll(read).toEqual(['Delta 01', 'Delta 02']);

  await books.getByRole('checkbox', { name: 'Select Delta 02' }).check();
  await expect(toolbar).toContainText('1 selected');
  await toolbar.getByRole('button', { name: 'Mark as unread' }).click();
  await expect.poll(read).toEqual(['Delta 01']);
  await expect(page.getByText(/· 1 read$/)).toBeVisible();
});

test('multi-select: whole series are marked read from the browse grid', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/series`);
  const grid = page.getByRole('list', { name: 'Series', exact: true });
  await grid.getByRole('checkbox', { name: 'Select Blue Harbor' }).check();
  await grid.getByRole('checkbox', { name: 'Select Aurora Knights' }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selection' });
  await expect(toolbar).toContainText('2 selected');
  // Clearing the selection does nothing else.
  await toolbar.getByRole('button', { name: 'Clear selection' }).click();
  await expect(toolbar).toHaveCount(0);
  await expect(grid.getByRole('checkbox', { name: 'Select Blue Harbor' })).not.toBeChecked();

  await grid.getByRole('checkbox', { name: 'Select Blue Harbor' }).check();
  await grid.getByRole('checkbox', { name: 'Select Aurora Knights' }).check();
  await toolbar.getByRole('button', { name: 'Mark as read' }).click();
  await expect(toolbar).toHaveCount(0);
  for (const title of ['Blue Harbor', 'Aurora Knights']) {
    await expect.poll(async () => {
      const s = await api().seriesByTitle(title);
      return s.booksReadCount === s.booksCount;
    }).toBe(true);
  }
  expect((await api().seriesByTitle('Crimson Tide')).booksReadCount).toBe(0);
});

test('multi-select: editing several books replaces their authors and tags (duplicate author refused)', async ({ page }) => {
  const series = await api().seriesByTitle('Blue Harbor');
  await page.goto(`${server.folio.url}/series/${series.id}`);
  const books = page.getByRole('list', { name: 'Books' });
  await books.getByRole('checkbox', { name: 'Select Harbor 01' }).check();
  await books.getByRole('checkbox', { name: 'Select Harbor 02' }).check();
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit 2 books' });
  await expect(dialog).toContainText('The values set here replace the authors or tags each selected book had.');
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();

  await dialog.getByLabel('Replace the tags').check();
  await dialog.getByRole('textbox', { name: 'Tags' }).fill('sea, ships');
  await dialog.getByLabel('Replace the authors').check();
  await dialog.getByRole('button', { name: 'Add author' }).click();
  await dialog.getByLabel('Author 1 name').fill('Nina Sol');
  await dialog.getByLabel('Author 1 role').selectOption({ label: 'Colorist' });
  await dialog.getByRole('button', { name: 'Add author' }).click();
  await dialog.getByLabel('Author 2 name').fill('Nina Sol');
  await dialog.getByLabel('Author 2 role').selectOption({ label: 'Colorist' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectFieldError(dialog.getByLabel('Author 2 name'), 'Already exists.');
  expect((await api().bookByName('Harbor 01')).metadata.tags).toEqual(['featured']);

  await dialog.getByLabel('Author 2 role').selectOption({ label: 'Inker' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  for (const name of ['Harbor 01', 'Harbor 02']) {
    const { metadata } = await api().bookByName(name);
    // Bruno Plume (writer) and the "featured" tag from ComicInfo are gone.
    expect([...metadata.tags].sort()).toEqual(['sea', 'ships']);
    expect(metadata.authors).toEqual([
      { name: 'Nina Sol', role: 'colorist' },
      { name: 'Nina Sol', role: 'inker' },
    ]);
  }
  // The other books keep theirs.
  expect((await api().bookByName('Aurora 03')).metadata.tags).toContain('featured');
});

test('multi-select: editing several series sets only the ticked fields, genres replaced, with SPEC §5 checks', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/series`);
  const grid = page.getByRole('list', { name: 'Series', exact: true });
  await grid.getByRole('checkbox', { name: 'Select Crimson Tide' }).check();
  await grid.getByRole('checkbox', { name: 'Select Delta Files' }).check();
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit 2 series' });
  await expect(dialog).toContainText('replace those each selected series had');

  await dialog.getByLabel('Replace the genres').check();
  await dialog.getByRole('textbox', { name: 'Genres' }).fill('Noir');
  await dialog.getByLabel('Change the age rating').check();
  await dialog.getByRole('textbox', { name: 'Age rating' }).fill('-3');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectFieldError(dialog.getByRole('textbox', { name: 'Age rating' }), 'Must be 0 or more.');
  expect((await api().seriesByTitle('Crimson Tide')).metadata.genres).toEqual(['Action']);

  await dialog.getByRole('textbox', { name: 'Age rating' }).fill('16');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  for (const [title, publisher] of [
    ['Crimson Tide', 'Dawn Press'],
    ['Delta Files', 'Quay Books'],
  ] as const) {
    await expect.poll(async () => (await api().seriesByTitle(title)).metadata).toMatchObject({
      genres: ['Noir'],
      ageRating: 16,
      publisher, // not ticked: unchanged
    });
  }
  expect((await api().seriesByTitle('Blue Harbor')).metadata.genres).toEqual(['Drama']);
});

// A book deleted through the UI stays listed until the trash is emptied (as in Komga), but marked
// unavailable, never as an ordinary book of its series.
test('delete book: the deleted book is no longer offered as an ordinary book of its series', async ({ page }) => {
  const book = await api().bookByName('Delta 03');
  await api().send('DELETE', `/api/v1/books/${book.id}/file`);
  await page.goto(`${server.folio.url}/series/${book.seriesId}`);
  const books = page.getByRole('list', { name: 'Books' }).getByRole('listitem');
  await expect(books.filter({ hasText: 'Delta 01' })).toHaveCount(1);
  await expect(books.filter({ hasText: 'Delta 03' }).filter({ hasNotText: /deleted|unavailable/i })).toHaveCount(0);
});
