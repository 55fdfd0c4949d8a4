import { expect, test } from '@playwright/test';
import en from '../../locales/en.json' with { type: 'json' };
import { ADMIN, logIn } from './support/api.ts';
import { useKnownDuplicatePage } from './support/known-duplicate-page.ts';
import { tableOverflows } from './support/phone-overflow.ts';

/**
 * The known duplicate pages on a 390×844 phone: each page hash is a card that fits the screen, its
 * size, matches and deletions named and its action, "Show matches" and "Delete matches" on screen.
 * It was a five-column table scrolling sideways in its box, the actions past the screen's edge.
 */
const duplicate = useKnownDuplicatePage('dup-pages-phone');

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('each known duplicate page is a card that fits the phone, its actions on screen', async ({ page }) => {
  await logIn(page.context().request, duplicate.folio.url, ADMIN);
  await page.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = page.getByRole('table').getByRole('row').nth(1);
  await expect(row.getByRole('button', { name: en.media.pages.delete_matches, exact: true })).toBeVisible();
  expect(await tableOverflows(page)).toEqual([]);
  await expect(row.locator('td', { has: page.locator('[aria-hidden="true"]', { hasText: en.media.pages.matches }) })).toContainText('2');
});

test('the matches of a known duplicate page fit the phone in their dialog', async ({ page }) => {
  await logIn(page.context().request, duplicate.folio.url, ADMIN);
  await page.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = page.getByRole('table').getByRole('row').nth(1);
  await row.getByRole('button', { name: new RegExp(`^${en.media.pages.show_matches}`) }).tap();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('table').getByRole('row')).toHaveCount(3);
  expect(await tableOverflows(page)).toEqual([]);
});
