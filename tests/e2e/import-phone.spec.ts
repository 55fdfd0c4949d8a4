import { expect, test } from '@playwright/test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { createCbz } from '../fixtures/comics.ts';
import { useBrowseServer } from './support/browse-server.ts';
import { tableOverflows } from './support/phone-overflow.ts';

/**
 * The import screens on a 390×844 phone. Book import: each book to import is a card that fits the screen, its
 * series, file name and number fields on screen without scrolling the table sideways (it used to be
 * a five-column table, the series and number fields past the screen's edge); read list import:
 * each entry of the list a card, its book picker on screen (it was as wide as its longest title).
 */
const LONG_SERIES = 'The Extraordinarily Long Voyages of the Harbour Fleet';
const server = useBrowseServer('import-phone', [
  { folder: 'Solo', books: 1, info: { series: 'Solo' } },
  { folder: 'Voyages', books: 1, info: { series: LONG_SERIES, title: 'A Chapter Title Long Enough to Fill a Phone' } },
]);
let inbox: string;

test.beforeAll(async () => {
  inbox = await mkdtemp(path.join(tmpdir(), 'folio-e2e-import-phone-'));
  await createCbz(path.join(inbox, 'incoming with a long file name.cbz'), [{ width: 60, height: 90, color: [200, 40, 40], format: 'png' }], {
    comicInfo: { series: 'solo', number: '2' },
  });
});

test.afterAll(async () => {
  await rm(inbox, { recursive: true, force: true });
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('each book to import is a card that fits the phone, its fields on screen', async ({ page }) => {
  await page.goto(`${server.folio.url}/import/books`);
  await page.getByLabel(en.import_books.folder).fill(inbox);
  await page.getByRole('button', { name: en.import_books.scan }).click();
  const series = page.getByLabel('Series for incoming with a long file name');
  await expect(series).toBeVisible();
  expect(await tableOverflows(page, 'tbody input, tbody select, tbody button')).toEqual([]);
  // The select-all box of the (otherwise hidden) header stays on screen and in reach of a finger.
  await expect(page.getByRole('checkbox', { name: en.import_books.select_all })).toBeInViewport({ ratio: 1 });
  await page.getByRole('button', { name: en.import_books.analyse_all }).click();
  await expect(page.getByLabel('Number for incoming with a long file name')).toHaveValue('2');
  expect(await tableOverflows(page, 'tbody input, tbody select, tbody button')).toEqual([]);
});

test('each entry of a read list to import is a card that fits the phone, its book picker on screen', async ({ page }) => {
  const list = path.join(inbox, 'phone list.cbl');
  const entry = (series: string, number: string) => `<Book Series="${series}" Number="${number}" Volume="" Year="2020"></Book>`;
  await writeFile(
    list,
    `<?xml version="1.0"?><ReadingList><Name>Phone list</Name><Books>${entry(LONG_SERIES, '1')}${entry('A Series Nobody Has With A Long Name', '7')}</Books></ReadingList>`,
  );
  await page.goto(`${server.folio.url}/import/readlist`);
  await page.getByLabel('ComicRack read list (.cbl)').setInputFiles(list);
  await page.getByRole('button', { name: 'Match' }).click();
  // Exact: each entry's "Choose a book for entry 1" button holds the select's name.
  await expect(page.getByLabel('Book for entry 1', { exact: true })).toBeVisible();
  expect(await tableOverflows(page, 'tbody input, tbody select, tbody button')).toEqual([]);
  await expect(page.getByText(en.import_readlist.no_match)).toBeInViewport();
  // The entry with no match offers to find its book, on screen too.
  await expect(page.getByRole('button', { name: en.import_readlist.pick_for.replace('{{n}}', '2') })).toBeInViewport();
});
