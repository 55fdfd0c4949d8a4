import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN, claimAndLogIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * The users screen's add-user dialog, driven by an admin against the real server (no library
 * needed): what the admin is told when the email is taken, and where the keyboard is afterwards.
 */
let folio: RunningFolio;

test.beforeAll(async () => {
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
});

test.beforeEach(async ({ page }) => {
  const claimed = await page.request.get(`${folio.url}/api/v1/claim`);
  if (!((await claimed.json()) as { isClaimed: boolean }).isClaimed) await claimAndLogIn(page.request, folio.url);
  else await page.request.get(`${folio.url}/api/v2/users/me`, { headers: { Authorization: `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}` } });
});

const german = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'locales', 'de.json'), 'utf8')) as {
  users_admin: { email: string; password: string; add: { open: string; submit: string }; validation: { email_taken: string } };
};

test('add user: an email already in use is refused on the Email field in the admin\'s language, not in the server\'s English', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('folio.locale', 'de'));
  await page.goto(`${folio.url}/settings/users`);
  await page.getByRole('button', { name: german.users_admin.add.open }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(german.users_admin.email).fill(ADMIN.email);
  await dialog.getByLabel(german.users_admin.password).fill('another password');
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v2/users') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: german.users_admin.add.submit }).click();
  expect((await answered).status()).toBe(400);
  await expect(dialog.getByLabel(german.users_admin.email)).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toHaveText(german.users_admin.validation.email_taken);
  await expect(dialog.getByText(/already exists|already used/)).toHaveCount(0);
  // The button, disabled while the server answered, has the keyboard again: not <body> behind the dialog.
  await expect(dialog.getByRole('button', { name: german.users_admin.add.submit })).toBeFocused();
  // A new address clears the refusal.
  await dialog.getByLabel(german.users_admin.email).fill('someone.else@example.org');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
});

test('add user: closing the dialog, by Escape or by adding, gives the keyboard back to the Add user button', async ({ page }) => {
  await page.goto(`${folio.url}/settings/users`);
  const open = page.getByRole('button', { name: 'Add user' });
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/settings\/users\/add$/);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Email')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/settings\/users$/);
  await expect(open).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Email')).toBeFocused();
  await page.keyboard.type('keyboard.user@example.org');
  await page.keyboard.press('Tab');
  await page.keyboard.type('a password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('cell', { name: 'keyboard.user@example.org' })).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/users$/);
  await expect(open).toBeFocused();
});

test('deleting an API key or a user leaves the keyboard on the list\'s add button, not on the page itself', async ({ page }) => {
  await page.goto(`${folio.url}/account`);
  const create = page.getByRole('button', { name: 'Create API key' });
  await create.click();
  await page.getByRole('dialog').getByLabel('Comment').fill('e-reader');
  await page.getByRole('dialog').getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  const keyRow = page.getByRole('row').filter({ hasText: 'e-reader' });
  await keyRow.getByRole('button', { name: 'Delete' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).press('Enter');
  await expect(keyRow).toHaveCount(0);
  await expect(create).toBeFocused();

  const made = await page.request.post(`${folio.url}/api/v2/users`, {
    data: { email: 'leaving@example.org', password: 'a password', roles: [] },
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(made.status()).toBe(201);
  await page.goto(`${folio.url}/settings/users`);
  const userRow = page.getByRole('row').filter({ hasText: 'leaving@example.org' });
  await userRow.getByRole('button', { name: 'Delete' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Delete' }).press('Enter');
  await expect(userRow).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add user' })).toBeFocused();
});
