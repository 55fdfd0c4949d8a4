import { expect, test, type Page } from '@playwright/test';
import { renderPage, YELLOW } from '../fixtures/comics.ts';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * Posters of collections and read lists (SPEC §3 thumbnails for books, series, collections and read
 * lists; §4 upload with a selected flag, mark selected, delete): an administrator manages them from
 * the group's own screen, as for a book or a series. Checked against the server's thumbnail list.
 */
const server = useBrowseServer('group-posters');

interface Poster {
  id: string;
  type: string;
  selected: boolean;
}

async function uploadThroughDialog(page: Page, menu: string) {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('button', { name: 'Posters' }).click();
  const dialog = page.getByRole('dialog', { name: 'Posters' });
  await expect(dialog.getByText('No poster yet.')).toBeVisible();
  await dialog.getByLabel('Image file').setInputFiles({
    name: 'poster.png',
    mimeType: 'image/png',
    buffer: await renderPage({ width: 200, height: 300, color: YELLOW, format: 'png' }),
  });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByText('Current poster')).toBeVisible();
  return dialog;
}

for (const group of [
  { kind: 'collection', owner: 'collections', menu: 'Collection actions' },
  { kind: 'read list', owner: 'readlists', menu: 'Read list actions' },
] as const) {
  test(`${group.kind}: an uploaded poster becomes the selected one, then can be deleted`, async ({ page }) => {
    const api = server.api();
    const series = await api.seriesByTitle('Aurora Knights');
    const book = await api.bookByName('Aurora 01');
    const created =
      group.owner === 'collections'
        ? await api.send<{ id: string }>('POST', '/api/v1/collections', { name: 'Poster picks', ordered: false, seriesIds: [series.id] })
        : await api.send<{ id: string }>('POST', '/api/v1/readlists', { name: 'Poster arc', ordered: false, bookIds: [book.id] });
    await page.goto(`${server.folio.url}/${group.owner}/${created.id}`);

    const dialog = await uploadThroughDialog(page, group.menu);
    const posters = () => api.get<Poster[]>(`/api/v1/${group.owner}/${created.id}/thumbnails`);
    await expect.poll(async () => (await posters()).map((p) => [p.type, p.selected])).toEqual([['USER_UPLOADED', true]]);

    await dialog.getByRole('button', { name: 'Delete this Uploaded poster' }).click();
    await expect(dialog.getByText('No poster yet.')).toBeVisible();
    await expect.poll(async () => (await posters()).length).toBe(0);
  });
}
