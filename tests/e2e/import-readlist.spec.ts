import { expect, test } from '@playwright/test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { claimAndLogIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/** The read list import screen against the real server's ComicRack matching (no library needed). */
let folio: RunningFolio;
let dir = '';

test.beforeAll(async () => {
  folio = await startFolio();
  dir = await mkdtemp(path.join(tmpdir(), 'folio-e2e-cbl-'));
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(dir, { recursive: true, force: true });
});

const LISTS = [
  { name: 'unreadable.cbl', body: 'this is not a reading list', meaning: 'The ComicRack read list could not be read' },
  {
    name: 'empty.cbl',
    body: '<?xml version="1.0"?><ReadingList><Name>Nothing here</Name><Books></Books></ReadingList>',
    meaning: 'The ComicRack list contains no book',
  },
];

for (const list of LISTS) {
  test(`a list that yields no book (${list.name}) says why and offers nothing to create`, async ({ page }) => {
    const claimed = (await (await page.request.get(`${folio.url}/api/v1/claim`)).json()) as { isClaimed: boolean };
    if (!claimed.isClaimed) await claimAndLogIn(page.request, folio.url);
    else await page.request.get(`${folio.url}/api/v2/users/me`, { headers: { Authorization: `Basic ${Buffer.from('admin@example.org:correct horse battery staple').toString('base64')}` } });
    const file = path.join(dir, list.name);
    await writeFile(file, list.body);
    await page.goto(`${folio.url}/import/readlist`);
    await page.getByLabel('ComicRack read list (.cbl)').setInputFiles(file);
    const matched = page.waitForResponse((r) => r.url().endsWith('/api/v1/readlists/match/comicrack'));
    await page.getByRole('button', { name: 'Match' }).click();
    await matched;
    await expect(page.getByRole('alert')).toHaveText(list.meaning);
    // No "0 of 0 books matched", no name to type, no Create button that can only be refused.
    await expect(page.getByRole('button', { name: 'Create read list' })).toHaveCount(0);
    await expect(page.getByText(/0 of 0 books matched/)).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveCount(0);
  });
}
