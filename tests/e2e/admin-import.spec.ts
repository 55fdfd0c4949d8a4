import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { createCbz } from '../fixtures/comics.ts';
import type { BookDto, Page as ApiPage } from '../../src/api/types.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * Book import in real Chromium: folders the server refuses say why in words, the file's ComicInfo
 * prefills series and number, the series picker searches and leaves deleted series out, and the
 * chosen file name is the one the book gets. At desktop size and on a 390×844 phone.
 */
const server = useBrowseServer('admin-import', [
  { folder: 'Solo', books: 1, info: { series: 'Solo' } },
  { folder: 'Gone', books: 1, info: { series: 'Gone Saga' } },
]);
let inbox: string;

test.beforeAll(async () => {
  inbox = await mkdtemp(path.join(tmpdir(), 'folio-e2e-inbox-'));
  const api = server.api();
  // "Gone Saga" loses its folder: a deleted series, never to be offered.
  const gone = await api.seriesByTitle('Gone Saga');
  await rm(path.join(server.root, 'Gone'), { recursive: true, force: true });
  await api.send('POST', `/api/v1/libraries/${server.library.id}/scan`);
  await expect.poll(async () => (await api.get<{ deleted: boolean }>(`/api/v1/series/${gone.id}`)).deleted, { timeout: 30_000 }).toBe(true);
});

test.afterAll(async () => {
  await rm(inbox, { recursive: true, force: true });
});

async function scanFolder(page: Page, folder: string) {
  await page.goto(`${server.folio.url}/import/books`);
  await page.getByLabel(en.import_books.folder).fill(folder);
  await page.getByRole('button', { name: en.import_books.scan }).click();
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  const size = `${viewport.width}×${viewport.height}`;

  test(`a folder inside a library or missing is refused in words (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await scanFolder(page, path.join(server.root, 'Solo'));
    await expect(page.getByRole('alert')).toContainText(en.error_codes.ERR_1017);
    await scanFolder(page, path.join(inbox, 'nothing here'));
    await expect(page.getByRole('alert')).toContainText(en.error_codes.ERR_1016);
    await expect(page.getByRole('alert')).not.toContainText('ERR_10');
  });
}

test('metadata prefills series and number; the picker searches without deleted series; the chosen file name is kept', async ({ page }) => {
  await createCbz(path.join(inbox, 'incoming.cbz'), [{ width: 60, height: 90, color: [200, 40, 40], format: 'png' }], {
    comicInfo: { series: 'solo', number: '2' },
  });
  await scanFolder(page, inbox);
  await page.getByRole('button', { name: en.import_books.analyse_all }).click();
  const series = page.getByLabel('Series for incoming');
  await expect(series).toHaveValue((await server.api().seriesByTitle('Solo')).id);
  await expect(page.getByLabel('Number for incoming')).toHaveValue('2');

  await page.getByLabel(en.import_books.series_search).fill('Gone');
  await expect(series.locator('option')).toHaveText([en.import_books.choose_series, 'Solo']);
  await page.getByLabel(en.import_books.series_search).fill('');
  await expect(series.locator('option', { hasText: 'Gone Saga' })).toHaveCount(0);

  await page.getByLabel('File name for incoming').fill('Solo 02');
  await page.getByRole('button', { name: /^Import 1/ }).click();
  await expect(page.getByRole('status').filter({ hasText: en.import_books.imported })).toBeVisible();
  await expect
    .poll(async () => (await server.api().get<ApiPage<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => b.name))
    .toContain('Solo 02');
});
