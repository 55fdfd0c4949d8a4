import { expect, request as apiRequest, test, type Browser, type Page } from '@playwright/test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { BLUE, RED, createCbz } from '../fixtures/comics.ts';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, listenOidcProvider, type LocalOidcProvider } from '../fixtures/oidc-provider.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findSeries, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Accounts through the UI against the real server: a user restricted to one library by the
 * admin screens, remember-me across a browser "restart", and OpenID Connect login in a popup
 * against a real provider (oidc-provider) running in this process.
 */
const READER = { email: 'reader@example.org', password: 'reader password 42' };
const OPEN_SERIES = 'Open Saga';
const LOCKED_SERIES = 'Locked Saga';

let folio: RunningFolio;
let op: LocalOidcProvider;
let roots: string[] = [];
let lockedSeriesId = '';

test.beforeAll(async () => {
  const openRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-open-'));
  const lockedRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-locked-'));
  roots = [openRoot, lockedRoot];
  const pages = [RED, BLUE].map((color) => ({ width: 400, height: 600, color, format: 'png' as const }));
  await createCbz(path.join(openRoot, OPEN_SERIES, `${OPEN_SERIES} 01.cbz`), pages);
  await createCbz(path.join(lockedRoot, LOCKED_SERIES, `${LOCKED_SERIES} 01.cbz`), pages);

  // The provider's address goes into Folio's configuration; Folio's address into the provider's client.
  op = await listenOidcProvider();
  folio = await startFolio({
    prepare: (dataDir) =>
      writeFile(
        path.join(dataDir, 'oauth2-providers.json'),
        JSON.stringify([{ registrationId: 'local', name: 'Local ID', clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, issuerUri: op.issuer }]),
      ),
  });
  op.start([`${folio.url}/login/oauth2/code/local`]);
  op.accounts.set('admin-at-idp', { email: ADMIN.email, email_verified: true });

  // Claim and libraries through the API: what is tested here is what comes after.
  const admin = await apiRequest.newContext();
  await claimAndLogIn(admin, folio.url);
  await addLibraryAndWait(admin, folio.url, openRoot, 'Open shelf');
  await addLibraryAndWait(admin, folio.url, lockedRoot, 'Locked shelf');
  lockedSeriesId = (await findSeries(admin, folio.url, LOCKED_SERIES)).id;
  await admin.dispose();
});

test.afterAll(async () => {
  await folio?.stop();
  await op?.close();
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function logInThroughForm(page: Page, user: { email: string; password: string }, rememberMe: boolean) {
  await page.goto(`${folio.url}/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByLabel('Remember me').setChecked(rememberMe);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
}

/**
 * What a browser keeps over a restart: its persistent cookies and local storage, without the
 * session cookie KOMGA-SESSION (nor any other cookie that lives only as long as the session).
 */
async function restartedBrowser(browser: Browser, page: Page) {
  const state = await page.context().storageState();
  const cookies = state.cookies.filter((c) => c.name !== 'KOMGA-SESSION' && c.expires > 0);
  const context = await browser.newContext({ storageState: { cookies, origins: state.origins } });
  return { context, page: await context.newPage(), cookieNames: cookies.map((c) => c.name) };
}

test('an admin restricts a new user to one library; that user sees only its series', async ({ page, browser }) => {
  await logIn(page.context().request, folio.url, ADMIN);

  // Add the user through /settings/users and its add-user dialog.
  await page.goto(`${folio.url}/settings/users`);
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page).toHaveURL(/\/settings\/users\/add$/);
  const addDialog = page.getByRole('dialog', { name: 'Add user' });
  await addDialog.getByLabel('Email').fill(READER.email);
  await addDialog.getByLabel('Password').fill(READER.password);
  await addDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addDialog).toBeHidden();

  // Share only the open shelf with them.
  const row = page.getByRole('row').filter({ hasText: READER.email });
  await row.getByRole('button', { name: 'Edit restrictions' }).click();
  const restrictions = page.getByRole('dialog', { name: `Restrictions of ${READER.email}` });
  await restrictions.getByLabel('Access to all libraries').uncheck();
  await restrictions.getByLabel('Open shelf', { exact: true }).check();
  await restrictions.getByRole('button', { name: 'Save' }).click();
  await expect(restrictions).toBeHidden();
  await expect(row).toContainText('Libraries: Open shelf');

  // The user logs in through the form in a browser of their own.
  const context = await browser.newContext();
  const reader = await context.newPage();
  await logInThroughForm(reader, READER, false);
  await reader.goto(`${folio.url}/libraries/all/series`);
  await expect(reader.getByRole('link', { name: OPEN_SERIES, exact: true })).toBeVisible();
  await expect(reader.getByRole('link', { name: LOCKED_SERIES, exact: true })).toHaveCount(0);
  await expect(reader.getByText('Locked shelf')).toHaveCount(0);

  // The locked series' own URL shows an error, not the series.
  await reader.goto(`${folio.url}/series/${lockedSeriesId}`);
  await expect(reader.getByRole('alert').filter({ hasText: 'retrieve series' })).toContainText(en.server_messages.not_found);
  await expect(reader.getByRole('heading', { name: LOCKED_SERIES })).toHaveCount(0);
  await expect(reader.getByRole('link', { name: `${LOCKED_SERIES} 01` })).toHaveCount(0);
  const direct = await reader.request.get(`${folio.url}/api/v1/series/${lockedSeriesId}`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect([403, 404]).toContain(direct.status());
  await context.close();
});

test('remember me keeps the user logged in over a browser restart; without it they land on /login', async ({ browser }) => {
  const remembered = await browser.newContext();
  const first = await remembered.newPage();
  await logInThroughForm(first, ADMIN, true);
  const restarted = await restartedBrowser(browser, first);
  expect(restarted.cookieNames).toContain('komga-remember-me');
  await restarted.page.goto(`${folio.url}/libraries/all/series`);
  await expect(restarted.page.getByRole('link', { name: OPEN_SERIES, exact: true })).toBeVisible();
  await expect(restarted.page).not.toHaveURL(/\/login/);
  await remembered.close();
  await restarted.context.close();

  const forgotten = await browser.newContext();
  const second = await forgotten.newPage();
  await logInThroughForm(second, ADMIN, false);
  const restartedAgain = await restartedBrowser(browser, second);
  expect(restartedAgain.cookieNames).not.toContain('komga-remember-me');
  await restartedAgain.page.goto(`${folio.url}/libraries/all/series`);
  await expect(restartedAgain.page).toHaveURL(/\/login/);
  await expect(restartedAgain.page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  await forgotten.close();
  await restartedAgain.context.close();
});

test('OpenID Connect login through the provider button: popup flow, logged in in the main window', async ({ page }) => {
  op.loginAs = 'admin-at-idp';
  await page.goto(`${folio.url}/login`);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Log in with Local ID' }).click();
  const popup = await popupOpened;
  // The popup runs the whole flow (Folio → provider → Folio callback), hands over and closes.
  await expect.poll(() => popup.isClosed()).toBe(true);

  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page).not.toHaveURL(/\/login/);
  const me = await page.request.get(`${folio.url}/api/v2/users/me`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { email: string }).email).toBe(ADMIN.email);
  const activity = await page.request.get(`${folio.url}/api/v2/users/me/authentication-activity`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  const entries = ((await activity.json()) as { content: { source: string; success: boolean }[] }).content;
  expect(entries.some((a) => a.source === 'OAuth2:local' && a.success)).toBe(true);
});

test('changing one\'s password with a wrong current password says so on that field, not with the server\'s English', async ({ browser }) => {
  // A session remembered from an earlier visit: the server asks it for the current password.
  const remembered = await browser.newContext();
  const first = await remembered.newPage();
  await logInThroughForm(first, ADMIN, true);
  const restarted = await restartedBrowser(browser, first);
  const page = restarted.page;
  await page.goto(`${folio.url}/account`);
  await page.getByLabel('Current password').fill('not the password');
  await page.getByLabel('New password', { exact: true }).fill('a new password');
  await page.getByLabel('Repeat new password').fill('a new password');
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v2/users/me/password'));
  await page.getByRole('button', { name: 'Change password' }).click();
  expect((await answered).status()).toBe(400);
  const current = page.getByLabel('Current password');
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(current).toHaveAccessibleDescription('That is not your current password.');
  await expect(page.getByText(/Validation failed/)).toHaveCount(0);
  await remembered.close();
  await restarted.context.close();
});
