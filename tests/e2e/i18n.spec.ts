import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expectNoAxeViolations } from './support/axe.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * The interface in other languages against the real server: document `lang`/`dir`, a layout that
 * mirrors for right-to-left languages (positions of the drawer, the app bar and the reader's bars),
 * axe-core in Arabic, buttons that hold long German and Finnish words, and screenshots of the main screens in
 * Arabic and Hebrew for a person to look at (attached to the report and kept in test-results/).
 */
const server = useBrowseServer('i18n');
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  const api = server.api();
  await api.markRead((await api.bookByName('Aurora 01')).id);
  const book = await api.bookByName('Aurora 02');
  await api.markPage(book.id, 1);
  ids.book = book.id;
  ids.series = (await api.seriesByTitle('Aurora Knights')).id;
});

type Messages = { [key: string]: string | Messages };
const localesDir = path.join(import.meta.dirname, '..', '..', 'locales');
const catalogues = new Map<string, Messages>();

/** The message `key` of locale `code`, read from its file, so the test follows the translators. */
function tr(code: string, key: string): string {
  let messages = catalogues.get(code);
  if (!messages) {
    messages = JSON.parse(readFileSync(path.join(localesDir, `${code}.json`), 'utf8')) as Messages;
    catalogues.set(code, messages);
  }
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`${code}.json has no string ${key}`);
  return node;
}

/** Starts the page in `code`, as a saved choice from an earlier visit would. */
async function useLocale(page: Page, code: string): Promise<void> {
  await page.addInitScript((locale) => localStorage.setItem('folio.locale', locale), code);
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator.toString()} has no box`);
  return found;
}

async function openDashboard(page: Page, code: string): Promise<void> {
  await page.goto(`${server.folio.url}/dashboard`);
  const keepReading = page.getByRole('region', { name: tr(code, 'dashboard.sections.keep_reading') });
  await expect(keepReading.getByRole('link', { name: 'Aurora 02' })).toBeVisible();
}

async function openBrowse(page: Page, code: string): Promise<void> {
  await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
  await expect(page.getByRole('list', { name: tr(code, 'libraries.series_list'), exact: true }).getByRole('listitem')).toHaveCount(4);
}

for (const [code, dir] of [
  ['ar', 'rtl'],
  ['he', 'rtl'],
  ['fa', 'rtl'],
  ['ja', 'ltr'],
] as const) {
  test(`${code}: lang and dir on the document, and a layout that runs ${dir}`, async ({ page }) => {
    await useLocale(page, code);
    await openDashboard(page, code);
    await expect(page.locator('html')).toHaveAttribute('lang', code);
    await expect(page.locator('html')).toHaveAttribute('dir', dir);
    await expect(page.getByRole('heading', { name: tr(code, 'dashboard.title'), level: 1 })).toBeVisible();

    const drawer = await box(page.getByRole('navigation', { name: tr(code, 'nav.label') }));
    const main = await box(page.getByRole('main'));
    const product = await box(page.getByRole('banner').getByRole('link', { name: 'Folio' }));
    const logOut = await box(page.getByRole('button', { name: tr(code, 'app.log_out') }));
    const viewport = page.viewportSize()!;
    if (dir === 'rtl') {
      // Mirrored: the drawer on the right of the content, the product name at the right end of the bar.
      expect(drawer.x).toBeGreaterThan(main.x);
      expect(drawer.x + drawer.width).toBeGreaterThan(viewport.width - 2);
      expect(product.x).toBeGreaterThan(logOut.x);
    } else {
      expect(drawer.x).toBeLessThan(main.x);
      expect(drawer.x).toBeLessThan(2);
      expect(product.x).toBeLessThan(logOut.x);
    }
  });
}

test('the picker switches a running page to each right-to-left language and to Japanese, and back', async ({ page }) => {
  await useLocale(page, 'en');
  await openDashboard(page, 'en');
  let current = 'en';
  for (const [code, dir] of [
    ['ar', 'rtl'],
    ['he', 'rtl'],
    ['fa', 'rtl'],
    ['ja', 'ltr'],
    ['en', 'ltr'],
  ] as const) {
    await page.getByRole('combobox', { name: tr(current, 'locale_picker.label') }).selectOption(code);
    await expect(page.getByRole('heading', { name: tr(code, 'dashboard.title'), level: 1 })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', code);
    await expect(page.locator('html')).toHaveAttribute('dir', dir);
    current = code;
  }
});

test('ar: the dashboard and the browse screen have no axe-core violation', async ({ page }) => {
  await useLocale(page, 'ar');
  await openDashboard(page, 'ar');
  await expectNoAxeViolations(page);
  await openBrowse(page, 'ar');
  await page.getByRole('button', { name: tr('ar', 'browse.filters') }).click();
  await expect(page.getByRole('group', { name: tr('ar', 'browse.value_filters.genre'), exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('ar: the reader keeps its chrome in Arabic order while pages and clicks follow the book', async ({ page }) => {
  await useLocale(page, 'ar');
  await page.goto(`${server.folio.url}/book/${ids.book}/read?page=1`);
  const canvas = page.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

  // Top bar in the interface direction: "back" at the right end, the settings button left of it.
  const back = await box(page.getByRole('link', { name: tr('ar', 'reader.back') }));
  const settings = await box(page.getByRole('button', { name: tr('ar', 'reader.settings') }));
  expect(back.x).toBeGreaterThan(settings.x);
  // Bottom bar in the book's direction (left to right): first page on the left, last page on the right.
  const first = await box(page.getByRole('button', { name: tr('ar', 'reader.first_page') }));
  const last = await box(page.getByRole('button', { name: tr('ar', 'reader.last_page') }));
  expect(first.x).toBeLessThan(last.x);
  // …and its icons are drawn as they are (|‹ on the left), while the top bar's back arrow is mirrored.
  const transform = (locator: Locator) => locator.locator('svg').evaluate((svg) => getComputedStyle(svg).transform);
  expect(await transform(page.getByRole('button', { name: tr('ar', 'reader.first_page') }))).toBe('none');
  expect(await transform(page.getByRole('link', { name: tr('ar', 'reader.back') }))).toBe('matrix(-1, 0, 0, 1, 0, 0)');

  // The right quarter of a left-to-right book turns forward, whatever the interface language.
  const area = await box(canvas);
  await page.mouse.click(area.x + area.width * 0.92, area.y + area.height * 0.5);
  await expect(canvas).toHaveAttribute('data-current-page', '2');
  // ← is "previous" in a left-to-right book under Arabic too (the key follows the book, not the UI).
  await page.keyboard.press('ArrowLeft');
  await expect(canvas).toHaveAttribute('data-current-page', '1');
});

for (const code of ['de', 'fi']) {
  test(`${code}: long compound words stay inside their buttons on a narrow window`, async ({ page }) => {
    await useLocale(page, code);
    await page.setViewportSize({ width: 760, height: 900 });
    const spilling = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('button, a[class]')]
          .filter((el) => el instanceof HTMLElement && el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
          .map((el) => `${el.tagName} "${el.textContent?.trim()}" ${el.scrollWidth}>${el.clientWidth}`),
      );
    await page.goto(`${server.folio.url}/series/${ids.series}`);
    await expect(page.getByRole('heading', { name: 'Aurora Knights', level: 1 })).toBeVisible();
    expect(await spilling()).toEqual([]);
    await page.getByRole('button', { name: tr(code, 'content_actions.series_label') }).click();
    expect(await spilling()).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`${code}-series.png`), fullPage: true });
    await openBrowse(page, code);
    expect(await spilling()).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`${code}-browse.png`), fullPage: true });
  });
}

/** Screens to photograph, each opened in the given locale and waited for. */
const SCREENS: { name: string; open: (page: Page, code: string) => Promise<void> }[] = [
  { name: 'dashboard', open: openDashboard },
  { name: 'browse', open: openBrowse },
  {
    name: 'series',
    open: async (page) => {
      await page.goto(`${server.folio.url}/series/${ids.series}`);
      await expect(page.getByRole('heading', { name: 'Aurora Knights', level: 1 })).toBeVisible();
    },
  },
  {
    name: 'book',
    open: async (page, code) => {
      await page.goto(`${server.folio.url}/book/${ids.book}`);
      await expect(page.getByRole('link', { name: tr(code, 'book.next_book') })).toBeVisible();
    },
  },
  {
    name: 'reader-settings',
    open: async (page, code) => {
      await page.goto(`${server.folio.url}/book/${ids.book}/read?page=1`);
      await expect(page.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', '1');
      await page.getByRole('button', { name: tr(code, 'reader.settings') }).click();
      await expect(page.getByRole('dialog', { name: tr(code, 'reader.settings') })).toBeVisible();
    },
  },
  {
    name: 'edit-series-dialog',
    open: async (page, code) => {
      await page.goto(`${server.folio.url}/series/${ids.series}`);
      await page.getByRole('button', { name: tr(code, 'content_actions.series_label') }).click();
      await page.getByRole('button', { name: tr(code, 'edit_series.title') }).click();
      await expect(page.getByRole('dialog', { name: tr(code, 'edit_series.title') })).toBeVisible();
    },
  },
];

for (const code of ['ar', 'he']) {
  test(`${code}: screenshots of the main screens, mirrored`, async ({ page }) => {
    await useLocale(page, code);
    for (const screen of SCREENS) {
      await screen.open(page, code);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      const file = test.info().outputPath(`${code}-${screen.name}.png`);
      await page.screenshot({ path: file });
      await test.info().attach(`${code}-${screen.name}`, { path: file, contentType: 'image/png' });
    }
  });
}
