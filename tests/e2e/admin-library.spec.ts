import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LibraryDto } from '../../src/api/types.ts';
import en from '../../locales/en.json' with { type: 'json' };
import { renderPage } from '../fixtures/comics.ts';
import { writeRar4 } from '../fixtures/rar.ts';
import { writeBrowseLibrary } from './support/browse-library.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * The administrator's library dialogs in real Chromium: adding a library shows every option of
 * SPEC §3 in tabs with Komga's defaults and says what went wrong in words; analysing, refreshing
 * metadata and emptying the trash ask first. At desktop size and on a 390×844 phone.
 */
const server = useBrowseServer('admin-library', [{ folder: 'Solo', books: 1, info: { series: 'Solo' } }]);
const extraRoots: string[] = [];

test.afterAll(async () => {
  for (const root of extraRoots) await rm(root, { recursive: true, force: true });
});

async function openAddDialog(page: Page) {
  await page.goto(`${server.folio.url}/dashboard`);
  // On a phone the navigation sits behind its toggle.
  if ((page.viewportSize()?.width ?? 1280) < 600) await page.getByRole('button', { name: en.nav.toggle }).click();
  await page.getByRole('button', { name: en.nav.new_library }).click();
  const dialog = page.getByRole('dialog', { name: en.libraries.add_dialog.title });
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  const size = `${viewport.width}×${viewport.height}`;

  test(`add library: options in tabs with Komga's defaults, a refusal in words (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const dialog = await openAddDialog(page);
    const tabs = dialog.getByRole('tab');
    await expect(tabs).toHaveText([
      en.libraries.option_groups.general,
      en.libraries.option_groups.analysis,
      en.libraries.option_groups.files,
      en.libraries.option_groups.scanner,
      en.libraries.edit_dialog.series_cover,
      en.libraries.option_groups.import,
    ]);
    // Inside the existing library: refused, and the reason is words, not a code.
    await dialog.getByLabel(en.libraries.add_dialog.name).fill('Nested');
    await dialog.getByLabel(en.libraries.add_dialog.root).fill(path.join(server.root, 'Solo'));
    await dialog.getByRole('button', { name: en.libraries.add_dialog.submit }).click();
    await expect(dialog.getByRole('alert')).toContainText(en.error_codes.ERR_1017);
    await expect(dialog.getByRole('alert')).not.toContainText('ERR_1017');

    await dialog.getByRole('tab', { name: en.libraries.option_groups.analysis }).click();
    await expect(dialog.getByLabel(en.libraries.options.hashFiles)).toBeChecked();
    await expect(dialog.getByLabel(en.libraries.options.hashPages)).not.toBeChecked();
    await dialog.getByLabel(en.libraries.options.hashPages).check();
    await dialog.getByRole('tab', { name: en.libraries.option_groups.import }).click();
    await expect(dialog.getByLabel(en.libraries.options.importBarcodeIsbn)).not.toBeChecked();
    await expect(dialog.getByLabel(en.libraries.options.importComicInfoSeriesAppendVolume)).toBeChecked();
    await dialog.getByRole('tab', { name: en.libraries.option_groups.scanner }).click();
    await expect(dialog.getByLabel(en.libraries.edit_dialog.scan_interval)).toHaveValue('EVERY_6H');
    await expect(dialog.getByLabel(en.libraries.options.scanDirectoryExclusions)).toHaveValue('#recycle\n@eaDir\n@Recycle');
    await dialog.getByRole('tab', { name: en.libraries.edit_dialog.series_cover }).click();
    await dialog.getByRole('combobox', { name: en.libraries.edit_dialog.series_cover }).selectOption('LAST');

    const root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-added-'));
    extraRoots.push(root);
    await writeBrowseLibrary(root, [{ folder: 'Other', books: 1 }]);
    await dialog.getByRole('tab', { name: en.libraries.option_groups.general }).click();
    const name = `Added ${viewport.width}`;
    await dialog.getByLabel(en.libraries.add_dialog.name).fill(name);
    await dialog.getByLabel(en.libraries.add_dialog.root).fill(root);
    await dialog.getByRole('button', { name: en.libraries.add_dialog.submit }).click();
    await expect(dialog).toBeHidden();
    const created = (await server.api().get<LibraryDto[]>('/api/v1/libraries')).find((l) => l.name === name)!;
    expect(created).toMatchObject({
      hashPages: true,
      hashFiles: true,
      importBarcodeIsbn: false,
      scanInterval: 'EVERY_6H',
      seriesCover: 'LAST',
      scanDirectoryExclusions: ['#recycle', '@eaDir', '@Recycle'],
    });
  });

  test(`analyse, refresh metadata and empty trash ask before they start (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
    const menu = page.getByRole('button', { name: en.libraries.actions.label });
    for (const [action, started] of [
      [en.libraries.actions.analyze, en.libraries.actions.analyze_started],
      [en.libraries.actions.refresh_metadata, en.libraries.actions.refresh_started],
    ] as const) {
      await menu.click();
      await page.getByRole('button', { name: action }).click();
      const dialog = page.getByRole('dialog', { name: action });
      await expect(dialog).toBeVisible();
      // Cancelled: nothing starts.
      await dialog.getByRole('button', { name: en.app.cancel }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(started)).toHaveCount(0);
      await menu.click();
      await page.getByRole('button', { name: action }).click();
      await dialog.getByRole('button', { name: action }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(started)).toBeVisible();
    }
    await menu.click();
    await page.getByRole('button', { name: en.libraries.actions.empty_trash }).click();
    const trash = page.getByRole('dialog', { name: en.libraries.actions.empty_trash });
    const confirm = trash.getByRole('button', { name: en.libraries.actions.empty_trash });
    await expect(confirm).toBeDisabled();
    await trash.getByLabel(en.libraries.delete_dialog.confirm).check();
    await confirm.click();
    await expect(trash).toBeHidden();
    await expect(page.getByText(en.libraries.actions.trash_started)).toBeVisible();
  });
}

test('a series language must be a BCP 47 tag, in the dialog and at the server', async ({ page }) => {
  const series = await server.api().seriesByTitle('Solo');
  const refused = await server.api().send('PATCH', `/api/v1/series/${series.id}/metadata`, { language: 'en_US' }).catch((error: Error) => error.message);
  expect(String(refused)).toContain('400');
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/series/${series.id}`);
    await page.getByRole('button', { name: en.content_actions.series_label }).click();
    await page.getByRole('button', { name: en.edit_series.title }).click();
    const dialog = page.getByRole('dialog', { name: en.edit_series.title });
    await dialog.getByLabel(en.series.facts.language, { exact: true }).fill('en_US');
    await dialog.getByRole('button', { name: en.libraries.edit_dialog.submit }).click();
    await expect(dialog.getByText(en.validation.language)).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(en.series.facts.language, { exact: true }).fill('pt-BR');
    await dialog.getByRole('button', { name: en.libraries.edit_dialog.submit }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await server.api().seriesByTitle('Solo')).metadata.language).toBe('pt-BR');
    await server.api().send('PATCH', `/api/v1/series/${series.id}/metadata`, { language: '' });
  }
});

test('convert to CBZ, switched on in the dialog, applies at the next scan to a RAR already analysed', async ({ page }) => {
  const api = server.api();
  const members = [{ name: 'page-1.png', data: await renderPage({ width: 30, height: 40, color: [10, 200, 10], format: 'png' }) }];
  await writeRar4(path.join(server.root, 'Rar', 'Rar 01.cbr'), members);
  await api.send('POST', `/api/v1/libraries/${server.library.id}/scan`);
  await expect.poll(async () => (await api.bookByName('Rar 01').catch(() => null))?.media.status, { timeout: 30_000 }).toBe('READY');

  await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
  await page.getByRole('button', { name: en.libraries.actions.label }).click();
  await page.getByRole('button', { name: en.libraries.actions.edit }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(en.libraries.edit_dialog.title.replace('{{name}}', '')) });
  await dialog.getByRole('tab', { name: en.libraries.option_groups.files }).click();
  await dialog.getByLabel(en.libraries.options.convertToCbz).check();
  await dialog.getByRole('button', { name: en.libraries.edit_dialog.submit }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: en.libraries.scan }).click();
  await expect.poll(async () => (await api.bookByName('Rar 01')).url, { timeout: 30_000 }).toMatch(/Rar 01\.cbz$/);
  await api.send('PATCH', `/api/v1/libraries/${server.library.id}`, { convertToCbz: false });
});

test('excluded folders and a one-shots folder typed with spaces and new lines apply at the next scan', async ({ page }) => {
  const api = server.api();
  await writeBrowseLibrary(server.root, [
    { folder: 'Old Stuff', books: 1 },
    { folder: 'One Shots', books: 2 },
    { folder: 'Kept After Typing', books: 1 },
  ]);
  await api.send('PATCH', `/api/v1/libraries/${server.library.id}`, { scanDirectoryExclusions: ['#recycle', '@eaDir'] });
  await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
  await page.getByRole('button', { name: en.libraries.actions.label }).click();
  await page.getByRole('button', { name: en.libraries.actions.edit }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(en.libraries.edit_dialog.title.replace('{{name}}', '')) });
  await dialog.getByRole('tab', { name: en.libraries.option_groups.scanner }).click();
  // Typed key by key as an admin does: the field used to drop each new line and trailing space as it went.
  const exclusions = dialog.getByLabel(en.libraries.options.scanDirectoryExclusions);
  await exclusions.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nOld Stuff');
  await expect(exclusions).toHaveValue('#recycle\n@eaDir\nOld Stuff');
  const oneshots = dialog.getByLabel(en.libraries.options.oneshotsDirectory);
  await oneshots.click();
  await page.keyboard.type('One Shots');
  await expect(oneshots).toHaveValue('One Shots');
  await dialog.getByRole('button', { name: en.libraries.edit_dialog.submit }).click();
  await expect(dialog).toBeHidden();
  expect(await api.get<LibraryDto>(`/api/v1/libraries/${server.library.id}`)).toMatchObject({
    scanDirectoryExclusions: ['#recycle', '@eaDir', 'Old Stuff'],
    oneshotsDirectory: 'One Shots',
  });

  await page.getByRole('button', { name: en.libraries.scan }).click();
  // The same scan adds the plain folder: once it is in, the excluded one would be too.
  await expect.poll(async () => (await api.allSeries()).map((s) => s.name), { timeout: 30_000 }).toContain('Kept After Typing');
  const names = (await api.allSeries()).map((s) => s.name);
  expect(names).not.toContain('Old Stuff');
  await expect.poll(async () => (await api.allSeries()).filter((s) => s.oneshot).length, { timeout: 30_000 }).toBe(2);
  await api.send('PATCH', `/api/v1/libraries/${server.library.id}`, { scanDirectoryExclusions: [], oneshotsDirectory: null });
});

test('metrics: charts beside the tables, drawing code loaded only with the metrics screen', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/dashboard`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    expect(scripts.some((url) => /MetricsCharts/.test(url))).toBe(false);
    await page.goto(`${server.folio.url}/settings/metrics`);
    const charts = page.getByTestId('metrics-chart');
    await expect(charts).toHaveCount(3);
    for (const chart of await charts.all()) {
      const box = (await chart.boundingBox())!;
      expect(box.width).toBeGreaterThan(100);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    await expect(page.getByRole('table').first()).toBeVisible();
    expect(scripts.some((url) => /MetricsCharts/.test(url))).toBe(true);
    scripts.length = 0;
  }
});
