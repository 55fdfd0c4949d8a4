import { expect, test } from '@playwright/test';
import type { LibraryDto, UserDto } from '../../src/api/types.ts';
import en from '../../locales/en.json' with { type: 'json' };
import { useBrowseServer } from './support/browse-server.ts';

/**
 * Folio has no Kobo or KOReader sync: the admin screens must not offer the roles and the library
 * option that only serve them (an admin moving from Komga would set up a sync that finds nothing),
 * and saving a user or library that already has them (from Komga's clients) keeps them.
 */
const server = useBrowseServer('admin-sync-roles', [{ folder: 'Solo', books: 1 }]);

test('the users screen neither offers nor lists Kobo and KOReader sync, and keeps them on a user who has them', async ({ page }) => {
  const api = server.api();
  const user = await api.send<UserDto>('POST', '/api/v2/users', { email: 'reader@example.org', password: 'a long password', roles: ['PAGE_STREAMING', 'KOREADER_SYNC'] });
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.goto(`${server.folio.url}/settings/users`);
    const row = page.getByRole('row').filter({ hasText: user.email });
    await expect(row).toContainText(en.users_admin.role.PAGE_STREAMING);
    await expect(row).not.toContainText(en.users_admin.role.KOREADER_SYNC);
    await row.getByRole('button', { name: en.users_admin.edit_roles, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en.users_admin.roles_dialog.title.replace('{{email}}', user.email) });
    await expect(dialog.getByRole('checkbox')).toHaveCount(3);
    await expect(dialog.getByLabel(en.users_admin.role.KOBO_SYNC)).toHaveCount(0);
    await expect(dialog.getByLabel(en.users_admin.role.KOREADER_SYNC)).toHaveCount(0);
    await dialog.getByLabel(en.users_admin.role.FILE_DOWNLOAD).setChecked(viewport.width > 600);
    await dialog.getByRole('button', { name: en.users_admin.save }).click();
    await expect(dialog).toBeHidden();
    const roles = (await api.get<UserDto[]>('/api/v2/users')).find((u) => u.id === user.id)!.roles;
    expect(roles).toContain('KOREADER_SYNC');
    expect(roles.includes('FILE_DOWNLOAD')).toBe(viewport.width > 600);
  }
});

test('the library dialog does not offer KOReader hashes, and keeps the option as it was', async ({ page }) => {
  const api = server.api();
  await api.send('PATCH', `/api/v1/libraries/${server.library.id}`, { hashKoreader: true });
  await page.goto(`${server.folio.url}/libraries/${server.library.id}/series`);
  await page.getByRole('button', { name: en.libraries.actions.label }).click();
  await page.getByRole('button', { name: en.libraries.actions.edit }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(en.libraries.edit_dialog.title.replace('{{name}}', '')) });
  await dialog.getByRole('tab', { name: en.libraries.option_groups.analysis }).click();
  await expect(dialog.getByLabel(en.libraries.options.hashPages)).toBeVisible();
  await expect(dialog.getByLabel(en.libraries.options.hashKoreader)).toHaveCount(0);
  await dialog.getByLabel(en.libraries.options.hashPages).check();
  await dialog.getByRole('button', { name: en.libraries.edit_dialog.submit }).click();
  await expect(dialog).toBeHidden();
  expect(await api.get<LibraryDto>(`/api/v1/libraries/${server.library.id}`)).toMatchObject({ hashPages: true, hashKoreader: true });
});
