import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { createReflowableEpub, prose } from '../fixtures/epub.ts';
import { findBook } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { adminWithLibrary, epubFrames, shownFrame } from './support/epub-library.ts';

/**
 * The EPUB reader's settings when the server will not save them (they are kept among the user's
 * client settings): the real server refuses them because the user's settings already fill their
 * byte budget (store-limits.ts). The user is told, in the settings dialog with a retry and in a
 * notice on opening; what they picked stays in this browser, is not replaced by the server's older
 * copy on a reload, and reaches the server once it has room.
 */
let folio: RunningFolio;
let root: string;

const SETTINGS_KEY = 'folio.epubReader';
const SCOPE_BYTES = 1024 * 1024;
const SEPIA = '#f4ecd8';
const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-epub-unsaved-'));
  await createReflowableEpub(
    path.join(root, 'Novels', 'Novels 1 - Plain.epub'),
    [1, 2].map((n) => ({ title: `Chapter ${n}`, body: `<h1>Chapter ${n}</h1><p>Marker of chapter ${n}.</p>${prose(3000)}` })),
    { title: 'Plain' },
  );
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test.beforeEach(adminWithLibrary(() => folio.url, () => root));

async function patchSettings(request: APIRequestContext, values: Record<string, string>): Promise<void> {
  const data = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]));
  const response = await request.patch(`${folio.url}/api/v1/client-settings/user`, { data, headers: XHR });
  expect(response.status(), await response.text()).toBe(204);
}

/** Dark reader settings on the server, then filler settings up to the user's byte budget exactly. */
async function fillSettings(request: APIRequestContext): Promise<string[]> {
  const darkValue = JSON.stringify({ theme: 'dark' });
  await patchSettings(request, { [SETTINGS_KEY]: darkValue });
  let left = SCOPE_BYTES - SETTINGS_KEY.length - darkValue.length;
  const fillers: string[] = [];
  while (left > 0) {
    const key = `filler.${fillers.length.toString().padStart(2, '0')}`;
    const value = 'x'.repeat(Math.min(60_000, left - key.length));
    await patchSettings(request, { [key]: value });
    left -= key.length + value.length;
    fillers.push(key);
  }
  return fillers;
}

const background = (page: Page) => shownFrame(page).locator('html').evaluate((html) => html.style.getPropertyValue('--USER__backgroundColor'));

async function storedTheme(request: APIRequestContext): Promise<string> {
  const stored = (await (await request.get(`${folio.url}/api/v1/client-settings/user/list`, { headers: XHR })).json()) as Record<string, { value: string }>;
  return (JSON.parse(stored[SETTINGS_KEY]!.value) as { theme: string }).theme;
}

test('settings the server refuses are said, kept in this browser across a reload, and saved by a retry once it has room', async ({ page }) => {
  const request = page.context().request;
  const fillers = await fillSettings(request);
  const book = await findBook(request, folio.url, 'Novels 1 - Plain');
  await page.goto(`${folio.url}/book/${book.id}/read?incognito=true`);
  await expect(epubFrames(page)).toHaveAttribute('data-ready', 'true');

  await page.getByRole('button', { name: 'Reader settings' }).click();
  const dialog = page.getByRole('dialog');
  // The server's dark theme came first.
  await expect(dialog.getByLabel('Theme')).toHaveValue('dark');
  const refused = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/v1/client-settings/user'));
  await dialog.getByLabel('Theme').selectOption({ label: 'Sepia' });
  expect((await refused).status()).toBe(400);
  const unsaved = dialog.getByRole('alert');
  await expect(unsaved).toContainText(en.reader.epub.settings_kept_here);
  await expect(unsaved).toContainText('save your settings');
  await expect.poll(() => background(page)).toBe(SEPIA);
  expect(await storedTheme(request)).toBe('dark');
  await page.keyboard.press('Escape');

  // A reload keeps what was picked here (not the server's older dark), tries the server again and says it failed again.
  const refusedAgain = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/v1/client-settings/user'));
  await page.reload();
  await expect(epubFrames(page)).toHaveAttribute('data-ready', 'true');
  expect((await refusedAgain).status()).toBe(400);
  await expect(page.getByTestId('reader-edge-message')).toContainText(en.reader.epub.settings_kept_here);
  await expect.poll(() => background(page)).toBe(SEPIA);

  // Room on the server: the retry in the dialog saves them, and the note goes.
  const remove = await request.delete(`${folio.url}/api/v1/client-settings/user`, { data: fillers, headers: XHR });
  expect(remove.status()).toBe(204);
  await page.getByRole('button', { name: 'Reader settings' }).click();
  const note = page.getByRole('dialog').getByRole('alert');
  await expect(note).toContainText(en.reader.epub.settings_kept_here);
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/v1/client-settings/user'));
  await note.getByRole('button', { name: en.reader.retry }).click();
  expect((await saved).status()).toBe(204);
  await expect(note).toHaveCount(0);
  expect(await storedTheme(request)).toBe('sepia');
});
