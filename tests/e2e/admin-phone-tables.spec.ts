import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BLUE, RED, createCbz } from '../fixtures/comics.ts';
import { claimWithLibrary, logIn, ADMIN } from './support/api.ts';
import { expectTapTargets } from './support/tap-targets.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { tableOverflows } from './support/phone-overflow.ts';

/**
 * The admin and account tables on a 390 × 844 phone, against the real server: users, authentication
 * activity, API keys and the metrics' libraries and tasks become one card per row that fits the
 * width, every value and every action on screen, nothing scrolling sideways.
 */
let folio: RunningFolio;
let root: string;
const LONG_EMAIL = 'a.reader.with.a.rather.long.address@a-long-domain-name.example.org';

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-phone-tables-'));
  const pages = [RED, BLUE].map((color) => ({ width: 400, height: 600, color, format: 'png' as const }));
  await createCbz(path.join(root, 'Phone Saga', 'Phone Saga 01.cbz'), pages);
  folio = await startFolio();
  await claimWithLibrary(folio.url, root);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test.beforeEach(async ({ page }) => {
  const request = page.context().request;
  await logIn(request, folio.url, ADMIN);
  // A second user (a long address) and an API key, so that every table has rows; a failed login for activity.
  await request.post(`${folio.url}/api/v2/users`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: { email: LONG_EMAIL, password: 'a reader password', roles: [] },
  });
  await request.post(`${folio.url}/api/v2/users/me/api-keys`, { headers: { 'X-Requested-With': 'XMLHttpRequest' }, data: { comment: 'Phone key for a tablet app' } });
});


test('the users and activity tables are cards that fit a phone, every value and action reachable', async ({ page }) => {
  await page.goto(`${folio.url}/settings/users`);
  const users = page.getByRole('table', { name: 'Users' });
  await expect(users.getByText(LONG_EMAIL)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Authentication activity' }).or(page.locator('table').nth(1))).toBeVisible();
  expect(await tableOverflows(page)).toEqual([]);
  // Each value has its column's name before it (the header row is not shown).
  await expect(page.locator('tbody td', { hasText: LONG_EMAIL }).locator('[aria-hidden="true"]')).toHaveText('Email');
  await expect(page.locator('tbody td', { hasText: LONG_EMAIL }).locator('[aria-hidden="true"]')).toBeVisible();
  // Every action of the other user's row is on screen and works.
  const row = users.getByRole('row').filter({ hasText: LONG_EMAIL });
  for (const name of ['Edit roles', 'Edit restrictions', 'Change password', 'Delete']) {
    await expect(row.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 });
  }
  // Rows full of actions and the dialog's role check boxes: every target is WCAG 2.2's 24 px.
  await expectTapTargets(page);
  await row.getByRole('button', { name: 'Edit roles', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectTapTargets(page);
});

test('the account\'s API keys and activity, and the metrics\' libraries and tasks, fit a phone', async ({ page }) => {
  await page.goto(`${folio.url}/account`);
  await expect(page.getByText('Phone key for a tablet app').first()).toBeVisible();
  expect(await tableOverflows(page)).toEqual([]);
  await expect(page.locator('tbody').getByRole('button', { name: 'Delete' }).first()).toBeInViewport({ ratio: 1 });
  await expectTapTargets(page);

  await page.goto(`${folio.url}/settings/metrics`);
  await expect(page.locator('tbody th', { hasText: 'Phone' }).or(page.locator('tbody th').first())).toBeVisible();
  expect(await tableOverflows(page)).toEqual([]);
  await expectTapTargets(page);
});
