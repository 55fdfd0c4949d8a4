import { expect, test } from '@playwright/test';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import en from '../../locales/en.json' with { type: 'json' };
import { createCbz } from '../fixtures/comics.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * The administrator's server settings in real Chromium. The poster size applies to posters drawn
 * from then on; after changing it the admin is offered to redraw the existing ones (as Komga's web
 * client does), and confirming really redraws them.
 */
const server = useBrowseServer('admin-server-settings', [{ folder: 'Solo', books: 1 }]);

test('a new poster size offers to redraw the posters, and the redraw gives them the new size', async ({ page }) => {
  const api = server.api();
  await createCbz(path.join(server.root, 'Tall', 'Tall 01.cbz'), [{ width: 700, height: 1000, format: 'png', color: [30, 90, 200] }]);
  await api.send('POST', `/api/v1/libraries/${server.library.id}/scan`);
  await expect.poll(async () => (await api.bookByName('Tall 01').catch(() => null))?.media.status, { timeout: 30_000 }).toBe('READY');
  const book = await api.bookByName('Tall 01');
  const posterHeight = async () => {
    const response = await page.request.get(`${server.folio.url}/api/v1/books/${book.id}/thumbnail?at=${Date.now()}`);
    expect(response.ok()).toBe(true);
    return (await sharp(await response.body()).metadata()).height;
  };
  await expect.poll(posterHeight, { timeout: 30_000 }).toBe(300);

  await page.goto(`${server.folio.url}/settings/server`);
  await page.getByLabel(en.server.settings.thumbnail_size).selectOption('MEDIUM');
  await page.getByRole('button', { name: en.libraries.edit_dialog.submit }).click();
  const dialog = page.getByRole('dialog', { name: en.server.redraw_posters.title });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(en.server.redraw_posters.explanation);
  await dialog.getByRole('button', { name: en.server.redraw_posters.title }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: en.server.redraw_posters.started })).toBeVisible();
  await expect.poll(posterHeight, { timeout: 30_000 }).toBe(600);
  await api.send('PATCH', '/api/v1/settings', { thumbnailSize: 'DEFAULT' });
});

test('emptying the trash of all libraries asks first, and only then removes books whose files are gone', async ({ page }) => {
  const api = server.api();
  const file = path.join(server.root, 'Gone', 'Gone 01.cbz');
  await createCbz(file, [{ width: 60, height: 90, format: 'png', color: [200, 30, 30] }]);
  await api.send('POST', `/api/v1/libraries/${server.library.id}/scan`);
  await expect.poll(async () => (await api.bookByName('Gone 01').catch(() => null))?.media.status, { timeout: 30_000 }).toBe('READY');
  await rm(file);
  await api.send('POST', `/api/v1/libraries/${server.library.id}/scan`);
  await expect.poll(async () => (await api.bookByName('Gone 01')).deleted, { timeout: 30_000 }).toBe(true);

  const trashCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/empty-trash')) trashCalls.push(request.url());
  });
  await page.goto(`${server.folio.url}/settings/server`);
  const button = page.getByRole('button', { name: en.server.empty_trash_all });
  await button.click();
  const dialog = page.getByRole('dialog', { name: en.server.empty_trash_all });
  await expect(dialog).toContainText(en.server.empty_trash_all_explanation);
  await dialog.getByRole('button', { name: en.app.cancel }).click();
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  expect(trashCalls).toEqual([]);
  expect((await api.bookByName('Gone 01')).deleted).toBe(true);

  await button.click();
  const confirm = dialog.getByRole('button', { name: en.server.empty_trash_all });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(en.libraries.delete_dialog.confirm).check();
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: en.libraries.actions.trash_started })).toBeVisible();
  await expect.poll(async () => (await api.allBooks()).some((book) => book.name === 'Gone 01'), { timeout: 30_000 }).toBe(false);
});

test('task threads and remember-me days past the server\'s bounds, or emptied, are refused on the field in words, nothing sent', async ({ page }) => {
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().endsWith('/api/v1/settings')) saves.push(request.url());
  });
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/settings/server`);
    const threads = page.getByLabel(en.server.settings.task_pool_size);
    const days = page.getByLabel(en.server.settings.remember_me_days);
    const save = page.getByRole('button', { name: en.libraries.edit_dialog.submit });
    await threads.fill('100');
    await days.fill('');
    await save.click();
    await expect(threads).toHaveAccessibleDescription(en.validation.at_most.replace('{{max}}', '64'));
    await expect(days).toHaveAccessibleDescription(en.validation.required);
    await threads.fill('3');
    await days.fill('30');
    await save.click();
    await expect(page.getByRole('status').filter({ hasText: en.server.settings.saved })).toBeVisible();
    expect(saves).toHaveLength(viewport.width > 600 ? 1 : 2);
  }
  await server.api().send('PATCH', '/api/v1/settings', { taskPoolSize: 2, rememberMeDurationDays: 365 });
});
