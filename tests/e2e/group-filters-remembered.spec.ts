import { expect, test } from '@playwright/test';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * A collection's or read list's filter is remembered per id in this browser (SPEC §3 per-user
 * preferences "per-id filter for collections and read lists"), as a library's browse filter is:
 * coming back to the group without a query brings it back; another group keeps its own.
 */
const server = useBrowseServer('group-filters-remembered');

test('collection filter comes back on return; another collection is not filtered', async ({ page }) => {
  const api = server.api();
  const aurora = await api.seriesByTitle('Aurora Knights');
  const crimson = await api.seriesByTitle('Crimson Tide');
  const harbor = await api.seriesByTitle('Blue Harbor');
  const first = await api.send<{ id: string }>('POST', '/api/v1/collections', { name: 'Remembered', ordered: false, seriesIds: [aurora.id, harbor.id] });
  const other = await api.send<{ id: string }>('POST', '/api/v1/collections', { name: 'Untouched', ordered: false, seriesIds: [crimson.id, harbor.id] });
  const series = page.getByRole('list', { name: 'Series', exact: true }).getByRole('listitem').getByRole('link');

  // Filtered by publisher through the filter panel.
  await page.goto(`${server.folio.url}/collections/${first.id}`);
  await expect(series).toHaveText(['Aurora Knights', 'Blue Harbor']);
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('checkbox', { name: 'Tidal Comics' }).check();
  await expect(series).toHaveText(['Blue Harbor']);

  await page.goto(`${server.folio.url}/collections/${other.id}`);
  await expect(series).toHaveText(['Crimson Tide', 'Blue Harbor'].sort());

  await page.goto(`${server.folio.url}/collections/${first.id}`);
  await expect(series).toHaveText(['Blue Harbor']);
  await expect(page).toHaveURL(/publisher=Tidal/);
});
