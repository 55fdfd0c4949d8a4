import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe.ts';
import { expectTapTargets } from './support/tap-targets.ts';
import { FEATURED } from './support/browse-library.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * The theme switch (light, dark, system: SPEC §4/§9 colours, remembered across visits), and
 * axe-core scans of the main browsing screens and dialogs, in both themes, with 0 violations.
 */
const server = useBrowseServer('a11y', FEATURED);
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  const api = server.api();
  // Content for every row and screen: reading state, a collection, a read list.
  const aurora = await api.seriesByTitle('Aurora Knights');
  const book = await api.bookByName('Aurora 02');
  await api.markRead((await api.bookByName('Aurora 01')).id);
  await api.markPage(book.id, 1);
  const collection = await api.send<{ id: string }>('POST', '/api/v1/collections', {
    name: 'Favourites',
    ordered: false,
    seriesIds: [aurora.id, (await api.seriesByTitle('Crimson Tide')).id],
  });
  const readList = await api.send<{ id: string }>('POST', '/api/v1/readlists', {
    name: 'Weekend',
    summary: 'Quiet reading.',
    ordered: true,
    bookIds: [book.id, (await api.bookByName('Harbor 01')).id],
  });
  Object.assign(ids, { series: aurora.id, book: book.id, collection: collection.id, readList: readList.id });
});

const LIGHT_BACKGROUND = 'rgb(244, 245, 247)'; // #f4f5f7
const DARK_BACKGROUND = 'rgb(18, 19, 22)'; // #121316
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const linkColour = (page: Page) =>
  page.getByRole('navigation', { name: 'Library views' }).getByRole('link', { name: 'Browse' }).evaluate((a) => getComputedStyle(a).color);

test('theme switch: light, dark and system change the colours and are remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
  const theme = page.getByRole('group', { name: 'Theme' });
  // Default: follow the system.
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
  await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);

  await theme.getByRole('radio', { name: 'Dark' }).check();
  await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
  await expect.poll(() => linkColour(page)).not.toBe('rgb(0, 94, 211)');

  await page.reload();
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);

  await theme.getByRole('radio', { name: 'Light' }).check();
  await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);
  // Light ignores a dark system setting.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);

  // System follows the operating system, also when it changes while the page is open.
  await theme.getByRole('radio', { name: 'System' }).check();
  await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);

  // Keyboard: one tab stop, arrows move between the choices.
  await theme.getByRole('radio', { name: 'System' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
});

test('keyboard: skip link, then action menu and dialog hand focus back to where the user was', async ({ page }) => {
  await page.goto(`${server.folio.url}/series/${ids.series}`);
  await expect(page.getByRole('heading', { name: 'Aurora Knights', level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  const menuButton = page.getByRole('button', { name: 'Series actions' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(menuButton).toBeFocused();

  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Edit series' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Edit series' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(menuButton).toBeFocused();
});

/** Opens a screen and waits until its content (not a loading note) is shown. */
const SCREENS: { name: string; open: (page: Page) => Promise<void> }[] = [
  {
    name: 'dashboard',
    open: async (page) => {
      await page.goto(`${server.folio.url}/dashboard`);
      await expect(page.getByRole('region', { name: 'Keep Reading' }).getByRole('link', { name: 'Aurora 02' })).toBeVisible();
    },
  },
  {
    name: 'browse with filters open',
    open: async (page) => {
      await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
      await page.getByRole('button', { name: 'Filters' }).click();
      await expect(page.getByRole('group', { name: 'Genre', exact: true })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Series', exact: true }).getByRole('listitem')).toHaveCount(4);
    },
  },
  {
    name: 'collections tab',
    open: async (page) => {
      await page.goto(`${server.folio.url}/libraries/${server.library.id}/collections`);
      await expect(page.getByRole('link', { name: 'Favourites' })).toBeVisible();
    },
  },
  {
    name: 'collection',
    open: async (page) => {
      await page.goto(`${server.folio.url}/collections/${ids.collection}`);
      await expect(page.getByRole('list', { name: 'Series', exact: true }).getByRole('listitem')).toHaveCount(2);
    },
  },
  {
    name: 'read list',
    open: async (page) => {
      await page.goto(`${server.folio.url}/readlists/${ids.readList}`);
      await expect(page.getByRole('list', { name: 'Books' }).getByRole('listitem')).toHaveCount(2);
    },
  },
  {
    name: 'series',
    open: async (page) => {
      await page.goto(`${server.folio.url}/series/${ids.series}`);
      await expect(page.getByRole('list', { name: 'Books' }).getByRole('listitem')).toHaveCount(3);
      await expect(page.getByRole('navigation', { name: 'In collections' })).toBeVisible();
    },
  },
  {
    name: 'book',
    open: async (page) => {
      await page.goto(`${server.folio.url}/book/${ids.book}?readlist=${ids.readList}`);
      await expect(page.getByRole('link', { name: 'Next book' })).toBeVisible();
    },
  },
  {
    name: 'search results',
    open: async (page) => {
      await page.goto(`${server.folio.url}/search?q=aurora`);
      await expect(page.getByRole('main').getByRole('link', { name: 'Aurora Knights' })).toBeVisible();
    },
  },
  {
    name: 'edit series dialog',
    open: async (page) => {
      await page.goto(`${server.folio.url}/series/${ids.series}`);
      await page.getByRole('button', { name: 'Series actions' }).click();
      await page.getByRole('button', { name: 'Edit series' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit series' });
      // With its validation messages showing.
      await dialog.getByLabel('Age rating', { exact: true }).fill('-1');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByRole('alert')).toBeVisible();
    },
  },
  {
    name: 'edit book dialog',
    open: async (page) => {
      await page.goto(`${server.folio.url}/book/${ids.book}`);
      await page.getByRole('button', { name: 'Book actions' }).click();
      await page.getByRole('button', { name: 'Edit book' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit book' });
      await dialog.getByRole('button', { name: 'Add link' }).click();
      await dialog.getByLabel('Link 1 URL').fill('example.org');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByRole('alert')).toBeVisible();
    },
  },
  {
    name: 'add to collection dialog',
    open: async (page) => {
      await page.goto(`${server.folio.url}/series/${ids.series}`);
      await page.getByRole('button', { name: 'Series actions' }).click();
      await page.getByRole('button', { name: 'Add to collection' }).click();
      await expect(page.getByRole('dialog', { name: 'Add to collection' }).getByRole('button', { name: /Favourites/ })).toBeVisible();
    },
  },
];

// One test per screen: each has the whole test budget for one page load and one full axe scan
// (a scan of one screen takes 2 s on a quiet machine and up to 17 s at load 15; all eleven in one
// test ran past 90 s there).
for (const screen of SCREENS) {
  test(`axe: no violations on the ${screen.name} (light theme)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await screen.open(page);
    await expectNoAxeViolations(page);
  });
}

// On a touch phone every control of the same screens (filters' check boxes, cards' selection
// boxes, the edit dialogs' fields and toggles, pagination) is at least WCAG 2.2's 24 px.
test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const screen of SCREENS) {
    test(`tap targets: none under 24 px on the ${screen.name}`, async ({ page }) => {
      await screen.open(page);
      await expectTapTargets(page);
    });
  }
});

/** Only colours differ in the dark theme: re-check contrast on screens that show every kind of text. */
const DARK_CHECKED = ['dashboard', 'browse with filters open', 'book', 'edit series dialog'];

for (const screen of SCREENS.filter((s) => DARK_CHECKED.includes(s.name))) {
  test(`axe: colour contrast holds on the ${screen.name} (dark theme)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await screen.open(page);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(DARK_BACKGROUND);
    await expectNoAxeViolations(page, { rules: ['color-contrast', 'link-in-text-block'] });
  });
}
