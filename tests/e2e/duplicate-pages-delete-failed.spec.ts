import { expect, test } from '@playwright/test';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { GREEN, RED, WHITE, createCbz } from '../fixtures/comics.ts';
import { ADMIN, logIn } from './support/api.ts';
import { useKnownDuplicatePage } from './support/known-duplicate-page.ts';

/**
 * "Delete matches" when the server cannot rewrite one of the books: the row said "Deleting
 * matches…" until the page was reloaded, as no event told the screen. The server now announces
 * it (TaskFailed); the screen says why and offers the button again.
 */
const duplicate = useKnownDuplicatePage('dup-delete-failed');

test('a book changed since its analysis: the row says why its matches were not all deleted and offers the deletion again', async ({ page }) => {
  await logIn(page.context().request, duplicate.folio.url, ADMIN);
  await page.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = page.getByRole('table').getByRole('row').nth(1);
  await expect(row.getByRole('button', { name: en.media.pages.delete_matches, exact: true })).toBeVisible();

  // Saga 01 is written anew behind the server's back (same pages, another order): the server
  // leaves a file it did not analyse alone, and rewrites Saga 02.
  await createCbz(path.join(duplicate.root, 'Saga', 'Saga 01.cbz'), [GREEN, RED, WHITE].map((color) => ({ width: 120, height: 180, color, format: 'png' as const })));

  await row.getByRole('button', { name: en.media.pages.delete_matches, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: en.media.pages.delete_matches });
  await dialog.getByRole('checkbox', { name: en.libraries.delete_dialog.confirm }).check();
  await dialog.getByRole('button', { name: en.libraries.delete_dialog.submit, exact: true }).click();
  await expect(dialog).toBeHidden();

  const failure = en.media.pages.delete_matches_failed_book_changed.replace('{{n}}', '1');
  await expect(page.getByRole('status').filter({ hasText: failure })).toBeVisible();
  const again = row.getByRole('button', { name: en.media.pages.delete_matches, exact: true });
  await expect(again).toBeVisible();
  await expect(again).not.toHaveAttribute('aria-disabled', 'true');
  await expect(row.getByRole('button', { name: en.media.pages.deleting_matches })).toHaveCount(0);
});
