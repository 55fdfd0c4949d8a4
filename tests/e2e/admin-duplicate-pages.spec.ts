import { expect, test } from '@playwright/test';
import en from '../../locales/en.json' with { type: 'json' };
import type { Page as ApiPage } from '../../src/api/types.ts';
import { ADMIN, logIn } from './support/api.ts';
import { useKnownDuplicatePage } from './support/known-duplicate-page.ts';

/**
 * Known duplicate pages in real Chromium: a hash's matches are listed beside the known page and
 * deleted one by one; once none is left, the row says so instead of showing a broken image.
 */
const duplicate = useKnownDuplicatePage('dup-pages');

test('a known hash lists its matches beside the known page; deleting the last leaves words, not a broken image', async ({ page: p }) => {
  await logIn(p.context().request, duplicate.folio.url, ADMIN);
  await p.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = p.getByRole('row').filter({ has: p.getByRole('button', { name: new RegExp(en.media.pages.show_matches) }) });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: new RegExp(en.media.pages.show_matches) }).click();
  const dialog = p.getByRole('dialog', { name: en.media.pages.matches_title });
  const deletes = dialog.getByRole('button', { name: new RegExp(`^${en.media.pages.delete_match}`) });
  await expect(deletes).toHaveCount(2);
  // Every picture shown loads (the known page and each match).
  for (const image of await dialog.getByRole('img').all()) {
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  await deletes.first().click();
  await expect(deletes).toHaveCount(1);
  await deletes.first().click();
  await expect(dialog.getByText(en.media.pages.no_match_left)).toBeVisible();
  await expect.poll(async () => (await duplicate.json<ApiPage<unknown>>(`/api/v1/page-hashes/${duplicate.hash}`)).totalElements, { timeout: 30_000 }).toBe(0);

  await p.reload();
  const known = p.getByRole('table').getByRole('row').nth(1);
  await expect(known).toContainText(en.media.pages.no_match_left);
  await expect(known.getByRole('img')).toHaveCount(0);
});
