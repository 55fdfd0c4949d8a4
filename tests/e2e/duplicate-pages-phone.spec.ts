import { expect, test, type Page } from '@playwright/test';
import en from '../../locales/en.json' with { type: 'json' };
import { ADMIN, logIn } from './support/api.ts';
import { useKnownDuplicatePage } from './support/known-duplicate-page.ts';

/**
 * The known duplicate pages on a 390×844 phone: each page hash is a card that fits the screen, its
 * size, matches and deletions named and its action, "Show matches" and "Delete matches" on screen.
 * It was a five-column table scrolling sideways in its box, the actions past the screen's edge.
 */
const duplicate = useKnownDuplicatePage('dup-pages-phone');

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Where a table scrolls sideways in its box, or a control reaches past the screen; empty when all fits. */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    for (const table of document.querySelectorAll('table')) {
      const scroller = table.parentElement!;
      if (scroller.scrollWidth > scroller.clientWidth + 1) found.push(`the table scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth})`);
      for (const part of table.querySelectorAll('tbody td, tbody button, tbody select')) {
        const box = part.getBoundingClientRect();
        if (box.right > width + 1 || box.left < -1) found.push(`"${(part.getAttribute('aria-label') ?? part.textContent)?.slice(0, 30)}" reaches past the screen`);
      }
    }
    return found;
  });
}

test('each known duplicate page is a card that fits the phone, its actions on screen', async ({ page }) => {
  await logIn(page.context().request, duplicate.folio.url, ADMIN);
  await page.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = page.getByRole('table').getByRole('row').nth(1);
  await expect(row.getByRole('button', { name: en.media.pages.delete_matches, exact: true })).toBeVisible();
  expect(await overflows(page)).toEqual([]);
  await expect(row.locator('td', { has: page.locator('[aria-hidden="true"]', { hasText: en.media.pages.matches }) })).toContainText('2');
});

test('the matches of a known duplicate page fit the phone in their dialog', async ({ page }) => {
  await logIn(page.context().request, duplicate.folio.url, ADMIN);
  await page.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = page.getByRole('table').getByRole('row').nth(1);
  await row.getByRole('button', { name: new RegExp(`^${en.media.pages.show_matches}`) }).tap();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('table').getByRole('row')).toHaveCount(3);
  expect(await overflows(page)).toEqual([]);
});
