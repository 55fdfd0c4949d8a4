import { expect, test, type Route } from '@playwright/test';
import en from '../../locales/en.json' with { type: 'json' };
import { ADMIN, logIn } from './support/api.ts';
import { useKnownDuplicatePage } from './support/known-duplicate-page.ts';

/**
 * "Delete matches" on the known duplicate pages, on a touch phone. The server answers 202 and
 * rewrites the books in the background, so right after the dialog closes the row still has its
 * matches: the row must say the deletion is under way (not offer it again), a status message must
 * say so, and focus must be on that row's button, not <body>. When the rewritten books are
 * announced, the list reloads, says it is done, and focus moves to the row's action field.
 *
 * No timing is assumed: the list's reloads after the deletion are held (page.route) until the
 * under-way state has been checked, then let through.
 */
const duplicate = useKnownDuplicatePage('dup-delete-all');

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('after "Delete matches", the row says it is under way with focus on it, then says it is done with focus on its action', async ({ page: p }) => {
  await logIn(p.context().request, duplicate.folio.url, ADMIN);
  await p.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = p.getByRole('table').getByRole('row').nth(1);
  const button = row.getByRole('button', { name: en.media.pages.delete_matches, exact: true });
  await expect(button).toBeVisible();

  // From here on, the known list's reloads wait until the under-way state is checked.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await p.route(/\/api\/v1\/page-hashes(\?|$)/, async (route: Route) => {
    await released;
    await route.continue();
  });

  await button.tap();
  const dialog = p.getByRole('dialog', { name: en.media.pages.delete_matches });
  await dialog.getByRole('checkbox', { name: en.libraries.delete_dialog.confirm }).check();
  const accepted = p.waitForResponse((r) => r.url().endsWith('/delete-all') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: en.libraries.delete_dialog.submit, exact: true }).tap();
  expect((await accepted).status()).toBe(202);
  await expect(dialog).toBeHidden();

  // The screen's own region (the app bar has one for the task count).
  const status = p.getByRole('main').getByRole('status').filter({ hasText: /\S/ });
  await expect(status).toHaveText(en.media.pages.delete_matches_started.replace('{{n}}', '1'));
  const underway = row.getByRole('button', { name: en.media.pages.deleting_matches, exact: true });
  await expect(underway).toBeFocused();
  await expect(underway).toHaveAttribute('aria-disabled', 'true');

  release();
  // The books' BookChanged events reload the list once the pages are gone.
  await expect(row).toContainText(en.media.pages.no_match_left, { timeout: 60_000 });
  await expect(status).toHaveText(en.media.pages.delete_matches_done.replace('{{n}}', '1'));
  await expect(row.getByRole('button', { name: en.media.pages.deleting_matches })).toHaveCount(0);
  await expect(row.getByLabel(en.media.pages.action_for.replace('{{n}}', '1'))).toBeFocused();
});
