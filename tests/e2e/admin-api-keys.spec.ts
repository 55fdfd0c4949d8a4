import { expect, test, type Page } from '@playwright/test';
import en from '../../locales/en.json' with { type: 'json' };
import { ADMIN, claimAndLogIn, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * A new API key is shown once: the admin must be able to copy it, with one button, on a desktop
 * and on a phone, and also where the clipboard API is missing (plain http on the LAN).
 */
let folio: RunningFolio;

test.beforeAll(async () => {
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
});

test.beforeEach(async ({ page }) => {
  const claimed = (await (await page.request.get(`${folio.url}/api/v1/claim`)).json()) as { isClaimed: boolean };
  if (!claimed.isClaimed) await claimAndLogIn(page.request, folio.url);
  else await logIn(page.request, folio.url, ADMIN);
});

async function createKey(page: Page, comment: string): Promise<string> {
  await page.goto(`${folio.url}/account`);
  await page.getByRole('button', { name: en.my_account.api_keys.create }).click();
  const dialog = page.getByRole('dialog', { name: en.my_account.api_keys.create });
  await dialog.getByLabel(en.my_account.api_keys.comment).fill(comment);
  await dialog.getByRole('button', { name: en.my_account.api_keys.generate }).click();
  const field = dialog.getByLabel(en.my_account.api_keys.new_key);
  await expect(field).toHaveValue(/\S{16,}/);
  const key = await field.inputValue();
  await dialog.getByRole('button', { name: en.my_account.api_keys.copy }).click();
  await expect(dialog.getByRole('status')).toHaveText(en.my_account.api_keys.copied);
  // The key in the field works: it is the whole key, not a shortened display.
  const me = await page.request.get(`${folio.url}/api/v2/users/me`, { headers: { 'X-API-Key': key, Cookie: '' } });
  expect(me.status()).toBe(200);
  return key;
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`a new API key has a Copy button that puts the whole key on the clipboard (${viewport.width}×${viewport.height})`, async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: folio.url });
    await page.setViewportSize(viewport);
    const key = await createKey(page, `copy ${viewport.width}`);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  });
}

test('without the clipboard API (an http page off localhost), Copy uses the browser\'s copy command on the selected key', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  const key = await createKey(page, 'no clipboard api');
  const field = page.getByRole('dialog').getByLabel(en.my_account.api_keys.new_key);
  expect(await field.evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0))).toBe(key);
});
