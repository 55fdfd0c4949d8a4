import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { RED, createCbz } from '../fixtures/comics.ts';
import { ADMIN, claimWithLibrary, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Overlays that only phones show, used by keys and a screen reader: each behaves as a modal. Focus
 * moves into it when it opens, Tab and Shift+Tab stay inside, the page behind takes no focus, and
 * Escape closes it with the focus back on the button that opened it. The navigation drawer let Tab
 * walk on into the app bar behind it.
 */
let folio: RunningFolio;
let libraryRoot: string;

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-phone-overlays-'));
  await createCbz(path.join(libraryRoot, 'Saga', 'Saga 01.cbz'), [{ width: 600, height: 900, color: RED, format: 'png' }]);
  folio = await startFolio();
  await claimWithLibrary(folio.url, libraryRoot);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Whether the focused element is inside `overlay`. */
const focusInside = (overlay: Locator) => overlay.evaluate((element) => element.contains(document.activeElement));

/**
 * With `overlay` open: focus is in it, `steps` presses of Tab and then of Shift+Tab never leave it
 * (more presses than it has controls, so both ends wrap), and (`inert`) `behind` cannot take the focus.
 */
async function expectModal(p: Page, overlay: Locator, behind: Locator, steps: number, inert = true): Promise<void> {
  await expect.poll(() => focusInside(overlay)).toBe(true);
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < steps; i++) {
      await p.keyboard.press(key);
      expect(await focusInside(overlay), `${key} #${i + 1} left the overlay for ${await p.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`).toBe(true);
    }
  }
  if (!inert) return;
  // Inert: the page behind cannot be focused, even by script (what a screen reader's cursor does).
  const tookFocus = await behind.evaluate((element) => {
    element.focus();
    return document.activeElement === element;
  });
  expect(tookFocus).toBe(false);
}

test('the navigation drawer is a modal: focus moves in, Tab stays inside, the app bar behind is inert, Escape gives focus back to the menu button', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/dashboard`);
  const menuButton = p.getByRole('button', { name: en.nav.toggle });
  await menuButton.focus();
  await p.keyboard.press('Enter');
  const drawer = p.getByRole('navigation', { name: en.nav.label });
  await expect(drawer).toBeVisible();
  const controls = await drawer.locator('a, button, select, input').count();
  await expectModal(p, drawer, p.getByRole('banner').getByRole('combobox').or(p.getByRole('banner').getByRole('searchbox')).first(), controls + 2);
  await p.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(menuButton).toBeFocused();
  // A touch user (or a screen reader's cursor, which has no Escape) closes it with its own button.
  await menuButton.tap();
  await expect(drawer).toBeVisible();
  await p.getByRole('button', { name: en.nav.close }).tap();
  await expect(drawer).toBeHidden();
});

test('the search suggestions, which cover the screen on a phone, close when Tab leaves the field; Escape closes them and keeps the field', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/dashboard`);
  const field = p.getByRole('combobox', { name: en.search.label });
  const suggestions = p.getByRole('listbox', { name: en.search.suggestions });
  await field.focus();
  await p.keyboard.type('Saga');
  await expect(suggestions.getByRole('option', { name: /Saga/ }).first()).toBeVisible();
  await p.keyboard.press('Escape');
  await expect(suggestions).toBeHidden();
  await expect(field).toBeFocused();
  await p.keyboard.press('ArrowDown');
  await expect(suggestions).toBeVisible();
  // Tab goes on to the log-out button: the list spanning the screen must not stay over the page.
  await p.keyboard.press('Tab');
  await expect(field).not.toBeFocused();
  await expect(suggestions).toBeHidden();
  await expect(field).toHaveAttribute('aria-expanded', 'false');
});

test('the reader\'s "more" menu on a phone: focus moves to its first entry, Tab and Shift+Tab stay in it, Escape gives focus back to "more"', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const book = await findBook(p.context().request, folio.url, 'Saga 01');
  await p.goto(`${folio.url}/book/${book.id}/read`);
  await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
  const more = p.getByRole('button', { name: en.reader.page_menu });
  await more.focus();
  await p.keyboard.press('Enter');
  const menu = p.locator('[popover]:popover-open');
  await expect(menu).toBeVisible();
  await expect(p.getByRole('button', { name: en.reader.fullscreen })).toBeFocused();
  const entries = await menu.locator('a, button').count();
  await expectModal(p, menu, p.getByRole('button', { name: en.reader.settings }), entries + 2, false);
  await p.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
});

test('the reader\'s full-title sheet on a phone: the title is read out as it opens, Escape gives focus back to the title, Tab closes it and goes on', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const book = await findBook(p.context().request, folio.url, 'Saga 01');
  await p.goto(`${folio.url}/book/${book.id}/read`);
  await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
  const titleButton = p.getByRole('banner').getByRole('heading', { level: 1 }).getByRole('button');
  await titleButton.focus();
  await p.keyboard.press('Enter');
  const sheet = p.getByRole('dialog', { name: en.reader.full_title });
  await expect(sheet).toBeVisible();
  // A dialog takes the focus, so a screen reader reads the whole title.
  await expect.poll(() => focusInside(sheet)).toBe(true);
  await p.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(titleButton).toBeFocused();
  await p.keyboard.press('Enter');
  await expect.poll(() => focusInside(sheet)).toBe(true);
  // It holds nothing to act on: Tab leaves it, and it closes rather than staying over the bar.
  await p.keyboard.press('Tab');
  await expect(sheet).toBeHidden();
  // ...on to the bar's next button after the title.
  await expect(p.getByRole('button', { name: en.reader.thumbnails })).toBeFocused();
});

test('the reader\'s settings dialog on a phone keeps Tab and Shift+Tab inside, and Escape gives focus back to its button', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const book = await findBook(p.context().request, folio.url, 'Saga 01');
  await p.goto(`${folio.url}/book/${book.id}/read`);
  await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
  const button = p.getByRole('button', { name: en.reader.settings });
  await button.focus();
  await p.keyboard.press('Enter');
  const dialog = p.getByRole('dialog', { name: en.reader.settings });
  await expect(dialog).toBeVisible();
  const controls = await dialog.locator('a, button, select, input').count();
  await expectModal(p, dialog, p.getByRole('button', { name: en.reader.page_menu }), controls + 2);
  await p.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
});

test('"New library", opened from the phone\'s drawer, closes the drawer, keeps Tab inside, and Escape gives focus back to it in the drawer', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/dashboard`);
  const menuButton = p.getByRole('button', { name: en.nav.toggle });
  await menuButton.click();
  const newLibrary = p.getByRole('button', { name: en.nav.new_library });
  await newLibrary.focus();
  await p.keyboard.press('Enter');
  const dialog = p.getByRole('dialog', { name: en.libraries.add_dialog.title });
  await expect(dialog).toBeVisible();
  // The drawer is not left open behind the dialog (the walk-through's phone finding).
  await expect(p.getByRole('navigation', { name: en.nav.label })).toBeHidden();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  const controls = await dialog.locator('a, button, select, input').count();
  await expectModal(p, dialog, menuButton, controls + 2);
  await p.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(newLibrary).toBeFocused();
  await expect(p.getByRole('navigation', { name: en.nav.label })).toBeVisible();
});

test('a library added from the phone\'s drawer takes the user to it with the drawer closed, and the keyboard goes on from its screen', async ({ page: p }) => {
  const root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-phone-added-'));
  try {
    await createCbz(path.join(root, 'Added', 'Added 01.cbz'), [{ width: 60, height: 90, color: RED, format: 'png' }]);
    await logIn(p.context().request, folio.url, ADMIN);
    await p.goto(`${folio.url}/dashboard`);
    await p.getByRole('button', { name: en.nav.toggle }).tap();
    const drawer = p.getByRole('navigation', { name: en.nav.label });
    await p.getByRole('button', { name: en.nav.new_library }).tap();
    const dialog = p.getByRole('dialog', { name: en.libraries.add_dialog.title });
    await dialog.getByLabel(en.libraries.add_dialog.name).fill('Added from the drawer');
    await dialog.getByLabel(en.libraries.add_dialog.root).fill(root);
    await dialog.getByRole('button', { name: en.libraries.add_dialog.submit }).tap();
    await expect(p).toHaveURL(/\/libraries\/[^/]+\/series$/);
    await expect(dialog).toBeHidden();
    // The drawer was left open over the new library's screen, which it made inert.
    await expect(drawer).toBeHidden();
    await expect(p.getByRole('button', { name: en.nav.toggle })).toHaveAttribute('aria-expanded', 'false');
    await expect(p.locator('main')).toBeFocused();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
