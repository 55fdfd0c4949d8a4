import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import type { Page as ApiPage } from '../../src/api/types.ts';
import { BLUE, GREEN, RED, WHITE, YELLOW, createCbz, type PageSpec, type Rgb } from '../fixtures/comics.ts';
import { ADMIN, claimAndLogIn, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Known duplicate pages in real Chromium: a hash's matches are listed beside the known page and
 * deleted one by one; once none is left, the row says so instead of showing a broken image.
 */
let folio: RunningFolio;
let root: string;
let api: APIRequestContext;
let hash = '';
const page = (color: Rgb): PageSpec => ({ width: 120, height: 180, color, format: 'png' });
const xhr = { 'X-Requested-With': 'XMLHttpRequest' };

async function json<T>(url: string): Promise<T> {
  const response = await api.get(`${folio.url}${url}`, { headers: xhr });
  if (!response.ok()) throw new Error(`GET ${url}: ${response.status()}`);
  return (await response.json()) as T;
}

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-dup-pages-'));
  // The same white "scanner credit" page ends both books.
  await createCbz(path.join(root, 'Saga', 'Saga 01.cbz'), [page(RED), page(GREEN), page(WHITE)]);
  await createCbz(path.join(root, 'Saga', 'Saga 02.cbz'), [page(BLUE), page(YELLOW), page(WHITE)]);
  folio = await startFolio();
  api = await playwrightRequest.newContext();
  await claimAndLogIn(api, folio.url);
  const created = await api.post(`${folio.url}/api/v1/libraries`, { data: { name: 'Comics', root, hashPages: true }, headers: xhr });
  expect(created.ok()).toBe(true);
  // Pages are hashed after analysis: wait for the shared white page to be seen in both books.
  type Unknown = ApiPage<{ hash: string; matchCount: number; size: number }>;
  const shared = async () => (await json<Unknown>('/api/v1/page-hashes/unknown?size=50')).content.find((h) => h.matchCount === 2);
  await expect.poll(shared, { timeout: 60_000 }).toBeTruthy();
  const white = (await shared())!;
  hash = white.hash;
  const put = await api.put(`${folio.url}/api/v1/page-hashes`, { data: { hash, size: white.size, action: 'DELETE_MANUAL' }, headers: xhr });
  expect(put.ok()).toBe(true);
});

test.afterAll(async () => {
  await api?.dispose();
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test('a known hash lists its matches beside the known page; deleting the last leaves words, not a broken image', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/media-management/duplicate-pages/known`);
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
  await expect.poll(async () => (await json<ApiPage<unknown>>(`/api/v1/page-hashes/${hash}`)).totalElements, { timeout: 30_000 }).toBe(0);

  await p.reload();
  const known = p.getByRole('table').getByRole('row').nth(1);
  await expect(known).toContainText(en.media.pages.no_match_left);
  await expect(known.getByRole('img')).toHaveCount(0);
});
