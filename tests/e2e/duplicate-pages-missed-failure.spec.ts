import { expect, test } from '@playwright/test';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { GREEN, RED, WHITE, createCbz } from '../fixtures/comics.ts';
import { ADMIN, logIn } from './support/api.ts';
import { watchEvents } from './support/event-watch.ts';
import { useKnownDuplicatePage } from './support/known-duplicate-page.ts';
import { holdEventStreamReconnection } from './support/held-reconnection.ts';

/**
 * "Delete matches" whose failure (TaskFailed) is sent while the page's event stream is down: the row
 * said "Deleting matches…" until the page was reloaded. Once the stream reopens and the server's
 * task counts hold no removal, the screen reads the list again and says the deletion failed.
 * The page's stream is held with page.route; the test hears the failure on a stream of its own.
 */
const duplicate = useKnownDuplicatePage('dup-missed-failure');

test('a removal that failed while the stream was down ends with the failure once it reconnects', async ({ page }) => {
  await logIn(page.context().request, duplicate.folio.url, ADMIN);
  // The first stream opens and ends at once, as when the server restarts; the reconnection is held.
  const { held, release } = await holdEventStreamReconnection(page);
  await page.goto(`${duplicate.folio.url}/media-management/duplicate-pages/known`);
  const row = page.getByRole('table').getByRole('row').nth(1);
  await expect(row.getByRole('button', { name: en.media.pages.delete_matches, exact: true })).toBeVisible();
  await held;

  // Saga 01 is written anew behind the server's back: its removal fails (book-changed).
  await createCbz(path.join(duplicate.root, 'Saga', 'Saga 01.cbz'), [GREEN, RED, WHITE].map((color) => ({ width: 120, height: 180, color, format: 'png' as const })));
  const events = await watchEvents(page.context().request, duplicate.folio.url);
  try {
    await row.getByRole('button', { name: en.media.pages.delete_matches, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en.media.pages.delete_matches });
    await dialog.getByRole('checkbox', { name: en.libraries.delete_dialog.confirm }).check();
    await dialog.getByRole('button', { name: en.libraries.delete_dialog.submit, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByRole('button', { name: en.media.pages.deleting_matches })).toBeVisible();
    expect(await events.next('TaskFailed')).toMatchObject({ taskType: 'RemoveHashedPages', reason: 'book-changed' });
  } finally {
    events.close();
  }

  release();
  const failure = en.media.pages.delete_matches_failed.replace('{{n}}', '1');
  await expect(page.getByRole('status').filter({ hasText: failure })).toBeVisible();
  const again = row.getByRole('button', { name: en.media.pages.delete_matches, exact: true });
  await expect(again).toBeVisible();
  await expect(row.getByRole('button', { name: en.media.pages.deleting_matches })).toHaveCount(0);
});
