import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BLUE, GREEN, RED, createCbz, type PageSpec, type Rgb } from '../fixtures/comics.ts';
import { ADMIN, claimWithLibrary, findBook, findSeries, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * What analysis decides about a book shows in the client: a series that ComicInfo calls a webtoon
 * opens in the scrolling view, and a malformed ComicInfo.xml is skipped with a warning in words.
 */
let folio: RunningFolio;
let libraryRoot: string;
const page = (color: Rgb): PageSpec => ({ width: 600, height: 900, color, format: 'png' });

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-detect-'));
  // Printed-page proportions: only <Format> says it is a webtoon.
  await createCbz(path.join(libraryRoot, 'Scroller', 'Scroller 01.cbz'), [RED, GREEN, BLUE].map(page), {
    comicInfo: '<?xml version="1.0"?><ComicInfo><Series>Scroller</Series><Number>1</Number><Format>Webtoon</Format></ComicInfo>',
  });
  await createCbz(path.join(libraryRoot, 'Broken', 'Broken 01.cbz'), [RED].map(page), {
    comicInfo: '<ComicInfo><Series>X</Series><Number>99<Title>unclosed',
  });
  folio = await startFolio();
  await claimWithLibrary(folio.url, libraryRoot);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test.beforeEach(async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
});

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`a series ComicInfo calls a webtoon opens in the scrolling view (${viewport.width}×${viewport.height})`, async ({ page: p }) => {
    await p.setViewportSize(viewport);
    const series = await findSeries(p.context().request, folio.url, 'Scroller');
    expect(series.metadata.readingDirection).toBe('WEBTOON');
    const book = await findBook(p.context().request, folio.url, 'Scroller 01');
    await p.goto(`${folio.url}/book/${book.id}/read`);
    await expect(p.getByTestId('reader-webtoon')).toBeVisible();
    await expect(p.getByTestId('reader-canvas')).toHaveCount(0);
  });
}

test('a malformed ComicInfo.xml is skipped whole, with a warning in words on the book page', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Broken 01');
  expect(book.seriesTitle).toBe('Broken');
  expect(book.metadata.number).toBe('1');
  await p.goto(`${folio.url}/book/${book.id}`);
  await expect(p.getByText('ComicInfo.xml was skipped: it is not well-formed XML (line 1)')).toBeVisible();
  await expect(p.getByText('[object Object]')).toHaveCount(0);
});
