import { expect, test } from '@playwright/test';
import { claimAndLogIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/** The server screen's shutdown, confirmed by an admin against a real server of its own. */
let folio: RunningFolio;

test.beforeAll(async () => {
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
});

test('shut down: the confirmation says the server can be started again, not that it is irreversible, and stops it', async ({ page }) => {
  await claimAndLogIn(page.request, folio.url);
  await page.goto(`${folio.url}/settings/server`);
  await page.getByRole('button', { name: 'Shut down server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Shut down server' });
  await expect(dialog).toContainText('until it is started again');
  // Stopping is undone by starting the server: no "irreversible" warning, no acknowledgement to tick.
  await expect(dialog).not.toContainText(/irreversible|cannot be undone/);
  await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  const stopped = page.waitForResponse((r) => r.url().endsWith('/actuator/shutdown'));
  await dialog.getByRole('button', { name: 'Shut down server' }).click();
  expect((await stopped).ok()).toBe(true);
  await expect(page.getByText('The server is shutting down.')).toBeVisible();
});
