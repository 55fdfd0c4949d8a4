import { expect, test, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import sharp from 'sharp';
import yazl from 'yazl';
import { BLUE, RED, renderPage } from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { isClose, sampleColour } from './support/pixels.ts';

/**
 * A photo stored sideways (800 × 500, EXIF orientation 6: turned a quarter clockwise to view) as
 * the only page of a CBZ, read in real Chromium. The browser decodes it turned, 500 × 800: blue on
 * the left half, red on the right (the stored top band, red, ends up on the right). The reader must
 * draw it in a portrait box, whether the page list says 500 × 800 (analysed now) or the stored
 * 800 × 500 (an analysis from before orientation counted, written into the database here): a
 * landscape box would squash it across the screen. (Not 1:2: a book of pages twice as tall as wide
 * becomes a webtoon.)
 */
let folio: RunningFolio;
let libraryRoot: string;

async function writeSidewaysCbz(file: string): Promise<void> {
  const stored = await renderPage({ width: 800, height: 500, color: RED, bands: [RED, BLUE], format: 'png' });
  const jpeg = await sharp(stored).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
  await mkdir(path.dirname(file), { recursive: true });
  const zip = new yazl.ZipFile();
  zip.addBuffer(jpeg, 'page-001.jpg', { compress: false, mtime: new Date(2020, 0, 1) });
  zip.end();
  await finished(zip.outputStream.pipe(createWriteStream(file)));
}

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-exif-'));
  await writeSidewaysCbz(path.join(libraryRoot, 'Photos', 'Turned.cbz'));
  await writeSidewaysCbz(path.join(libraryRoot, 'Photos', 'Turned old.cbz'));
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

let libraryReady = false;
test.beforeEach(async ({ page }) => {
  const request = page.context().request;
  if (!libraryReady) {
    await claimAndLogIn(request, folio.url);
    await addLibraryAndWait(request, folio.url, libraryRoot);
    libraryReady = true;
  } else {
    await logIn(request, folio.url, ADMIN);
  }
});

/** Opens the book and checks the page is painted upright in a portrait box, centred on the 1280 × 800 screen. */
async function expectUpright(page: Page, bookId: string): Promise<void> {
  await page.goto(`${folio.url}/book/${bookId}/read?incognito=true`);
  const canvas = page.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  // Fit to screen: 500 × 800 shown at 500 × 800, from x = 390 to 890 (0.30 to 0.70 of the width).
  await expect.poll(async () => isClose(await sampleColour(canvas, 0.4, 0.5), BLUE)).toBe(true);
  expect(isClose(await sampleColour(canvas, 0.6, 0.5), RED)).toBe(true);
  // Beside the page: the reader's background, where a page squashed into a landscape box would be.
  for (const x of [0.2, 0.8]) {
    const beside = await sampleColour(canvas, x, 0.5);
    expect(isClose(beside, BLUE) || isClose(beside, RED), `colour at ${x}: ${beside.join(',')}`).toBe(false);
  }
}

test('a sideways photo is listed and drawn upright, not squashed into a landscape box', async ({ page }) => {
  const book = await findBook(page.context().request, folio.url, 'Turned');
  const pages = (await (await page.context().request.get(`${folio.url}/api/v1/books/${book.id}/pages`)).json()) as { width: number; height: number }[];
  expect(pages.map((p) => [p.width, p.height])).toEqual([[500, 800]]);
  await expectUpright(page, book.id);
});

test('a sideways photo listed at its stored size (analysed before orientation counted) is still drawn upright', async ({ page }) => {
  const book = await findBook(page.context().request, folio.url, 'Turned old');
  const db = new Database(path.join(folio.dataDir, 'folio.sqlite'));
  try {
    db.prepare('UPDATE media_page SET width = 800, height = 500 WHERE book_id = ?').run(book.id);
  } finally {
    db.close();
  }
  const pages = (await (await page.context().request.get(`${folio.url}/api/v1/books/${book.id}/pages`)).json()) as { width: number; height: number }[];
  expect(pages.map((p) => [p.width, p.height])).toEqual([[800, 500]]);
  await expectUpright(page, book.id);
});
