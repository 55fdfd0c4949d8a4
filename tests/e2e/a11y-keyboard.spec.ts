import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { FEATURED } from './support/browse-library.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * Keyboard only: every stop Tab reaches shows where focus is, and focus stays on the page (never
 * dropped to <body>) after an action removes the control that had it.
 */
const server = useBrowseServer('a11y-keys', FEATURED);
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  const api = server.api();
  ids.series = (await api.seriesByTitle('Aurora Knights')).id;
  ids.firstBook = (await api.bookByName('Aurora 01')).id;
  await api.markPage((await api.bookByName('Aurora 02')).id, 1);
  const bookIds = [(await api.bookByName('Harbor 01')).id, (await api.bookByName('Harbor 02')).id, (await api.bookByName('Crimson 01')).id];
  ids.readList = (await api.send<{ id: string }>('POST', '/api/v1/readlists', { name: 'Order', ordered: true, bookIds })).id;
});

/** What the focused element shows: its tag and name, and whether an outline or ring marks it. */
const focusMark = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { what: 'body', marked: false };
    // The mark may be drawn by a near ancestor (a card rings itself when its title link has focus).
    let marked = false;
    for (let node: HTMLElement | null = element, depth = 0; node && depth < 4 && !marked; node = node.parentElement, depth++) {
      const style = getComputedStyle(node);
      marked = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    }
    const what = `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`;
    return { what, marked };
  });

for (const screen of ['/dashboard', `/libraries/all/series`, '/series/:series', '/settings/server', '/account']) {
  test(`focus is visible on every Tab stop of ${screen}`, async ({ page }) => {
    await page.goto(`${server.folio.url}${screen.replace(':series', ids.series ?? '')}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // A loading note's region is there before its text (Loading): wait for the region to go.
    await expect(page.getByTestId('loading')).toHaveCount(0);
    const unmarked: string[] = [];
    // The first 40 stops: the skip link, the app bar, the drawer and the screen's own controls.
    for (let stop = 0; stop < 40; stop++) {
      await page.keyboard.press('Tab');
      const { what, marked } = await focusMark(page);
      // Past the last stop focus leaves the page for the browser's own controls: the end.
      if (what === 'body') break;
      if (!marked) unmarked.push(what);
    }
    expect(unmarked).toEqual([]);
  });
}

test('deleting the selected books from the keyboard leaves focus on the page, not on <body>', async ({ page }) => {
  await page.goto(`${server.folio.url}/series/${ids.series}`);
  const books = page.getByRole('list', { name: 'Books' }).getByRole('listitem');
  await expect(books).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select Aurora 03' }).focus();
  await page.keyboard.press('Space');
  const toolbar = page.getByRole('toolbar', { name: en.selection.label });
  await toolbar.getByRole('button', { name: en.selection.delete }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('checkbox').focus();
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('checkbox')).toBeChecked();
  await expect(dialog.getByRole('button', { name: en.selection.delete })).toBeEnabled();
  await dialog.getByRole('button', { name: en.selection.delete }).focus();
  await page.keyboard.press('Enter');
  // A deleted book stays listed, marked unavailable, until the library's trash is emptied.
  await expect(books.filter({ hasText: 'Aurora 03' })).toContainText(en.content.unavailable);
  await expect(toolbar).toBeHidden();
  await expect(page.getByRole('main')).toBeFocused();
});

test('clearing the selection from the keyboard leaves focus on the page, not on <body>', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/series`);
  await page.getByRole('checkbox', { name: 'Select Crimson Tide' }).focus();
  await page.keyboard.press('Space');
  const toolbar = page.getByRole('toolbar', { name: en.selection.label });
  await toolbar.getByRole('button', { name: en.selection.clear }).focus();
  await page.keyboard.press('Enter');
  await expect(toolbar).toBeHidden();
  await expect(page.getByRole('main')).toBeFocused();
  // The next Tab goes on inside the screen's content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('main').locator(':focus')).toHaveCount(1);
});

test('moving a book in a read list from the keyboard keeps focus on a move button of that book', async ({ page }) => {
  await page.goto(`${server.folio.url}/readlists/${ids.readList}`);
  const books = page.getByRole('list', { name: 'Books' }).getByRole('listitem');
  await expect(books).toHaveCount(3);
  const later = page.getByRole('button', { name: 'Move Harbor 01 later' });
  await later.focus();
  await page.keyboard.press('Enter');
  await expect(books.nth(1)).toContainText('Harbor 01');
  await expect(later).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(books.nth(2)).toContainText('Harbor 01');
  // Now last: "later" is disabled, and the keyboard goes to the move that is left.
  await expect(later).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Move Harbor 01 earlier' })).toBeFocused();
});

test('the reader\'s start-of-book message is spoken: it appears inside a live region that was already there', async ({ page }) => {
  await page.goto(`${server.folio.url}/book/${ids.firstBook}/read?page=1&incognito=true`);
  await expect(page.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', '1');
  // Screen readers track the live regions present in the page; a region inserted with its text is
  // often not announced.
  await page.evaluate(() => document.querySelectorAll('[role="status"]').forEach((region) => region.setAttribute('data-was-there', '')));
  await page.keyboard.press('ArrowLeft');
  const message = page.getByTestId('reader-edge-message');
  await expect(message).toHaveText(`${en.reader.start_of_book} ${en.reader.again_exit_back}`);
  expect(await message.evaluate((node) => node.closest('[role="status"]')?.hasAttribute('data-was-there') ?? false)).toBe(true);
});

test('the selection toolbar\'s outcome is spoken: it appears inside a live region that was already there', async ({ page }) => {
  await page.goto(`${server.folio.url}/libraries/all/series`);
  await page.getByRole('checkbox', { name: 'Select Blue Harbor' }).focus();
  await page.keyboard.press('Space');
  const toolbar = page.getByRole('toolbar', { name: en.selection.label });
  await expect(toolbar).toBeVisible();
  await page.evaluate(() => document.querySelectorAll('[role="status"]').forEach((region) => region.setAttribute('data-was-there', '')));
  await toolbar.getByRole('button', { name: en.libraries.actions.analyze }).focus();
  await page.keyboard.press('Enter');
  const notice = page.getByText(en.libraries.actions.analyze_started, { exact: true });
  await expect(notice).toBeVisible();
  expect(await notice.evaluate((node) => node.closest('[role="status"]')?.hasAttribute('data-was-there') ?? false)).toBe(true);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('picking a page in the reader\'s Pages dialog from the keyboard gives focus back to the Pages button, not <body>', async ({ page }) => {
    await page.goto(`${server.folio.url}/book/${ids.firstBook}/read?page=1&incognito=true`);
    await expect(page.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', '1');
    const pages = page.getByRole('button', { name: en.reader.thumbnails, exact: true });
    await pages.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: en.reader.thumbnails });
    await dialog.getByRole('button', { name: 'Page 2' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', '2');
    // The dialog was taken away with the focus in it: the browser would leave it on <body>.
    await expect(pages).toBeFocused();
  });

  test('a new library the server refuses, added from the keyboard: the refusal is said and focus stays on the Add button', async ({ page }) => {
    await page.goto(`${server.folio.url}/dashboard`);
    await page.getByRole('button', { name: en.nav.toggle }).click();
    await page.getByRole('button', { name: en.nav.new_library }).click();
    const dialog = page.getByRole('dialog', { name: en.libraries.add_dialog.title });
    await dialog.getByLabel(en.libraries.add_dialog.name).fill('Nowhere');
    await dialog.getByLabel(en.libraries.add_dialog.root).fill(path.join(server.root, 'no such folder'));
    const add = dialog.getByRole('button', { name: en.libraries.add_dialog.submit });
    await add.focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toBeVisible();
    // The button is disabled while the server answers, which drops its focus on <body>, behind the modal.
    await expect(add).toBeFocused();
  });

  test('the new library dialog opens on its Name field, not on its first tab', async ({ page }) => {
    await page.goto(`${server.folio.url}/dashboard`);
    await page.getByRole('button', { name: en.nav.toggle }).click();
    await page.getByRole('button', { name: en.nav.new_library }).click();
    const dialog = page.getByRole('dialog', { name: en.libraries.add_dialog.title });
    // React's autoFocus ran while the dialog was closed; the browser then focused the General tab.
    await expect(dialog.getByLabel(en.libraries.add_dialog.name)).toBeFocused();
  });

  test('browsing folders from the keyboard: each level takes the focus at its first entry and says which folder it is', async ({ page }) => {
    await page.goto(`${server.folio.url}/dashboard`);
    await page.getByRole('button', { name: en.nav.toggle }).click();
    await page.getByRole('button', { name: en.nav.new_library }).click();
    const dialog = page.getByRole('dialog', { name: en.libraries.add_dialog.title });
    await dialog.getByLabel(en.libraries.add_dialog.root).fill(server.root);
    await dialog.getByRole('button', { name: en.folders.browse }).click();
    const browser = page.getByRole('dialog', { name: en.folders.title });
    const where = browser.getByRole('status').filter({ hasText: en.folders.current });
    await expect(where).toContainText(server.root);
    await browser.getByRole('button', { name: 'Aurora', exact: true }).focus();
    await page.keyboard.press('Enter');
    // The pressed button went with the list it was in: the new level's first entry has the focus.
    await expect(where).toContainText(path.join(server.root, 'Aurora'));
    const up = browser.getByRole('button', { name: en.folders.parent });
    await expect(up).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(where).not.toContainText('Aurora');
    await expect(up).toBeFocused();
  });
});
