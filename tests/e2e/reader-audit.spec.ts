import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { BLUE, GREEN, MAGENTA, RED, YELLOW, createCbz, renderPage, writeStoredCbz, type PageSpec, type Rgb } from '../fixtures/comics.ts';
import { ADMIN, claimWithLibrary, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { isClose, sampleColour } from './support/pixels.ts';

/**
 * Reader behaviour found wrong in an audit against SPEC §2 and REFERENCE §5, each seen in real
 * Chromium against the real server: the way into the reader from a read list, and what a reader of
 * a right-to-left book reads in the bottom bar.
 */
let folio: RunningFolio;
let libraryRoot: string;
let readListId: string;
const page = (color: Rgb): PageSpec => ({ width: 600, height: 900, color, format: 'png' });
const xhr = { 'X-Requested-With': 'XMLHttpRequest' };

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-reader-audit-'));
  await createCbz(path.join(libraryRoot, 'Alpha', 'Alpha 01.cbz'), [RED, GREEN].map(page));
  await createCbz(path.join(libraryRoot, 'Alpha', 'Alpha 02.cbz'), [BLUE].map(page));
  await createCbz(path.join(libraryRoot, 'Manga', 'Manga 01.cbz'), [YELLOW, MAGENTA, RED].map(page), {
    comicInfo: { series: 'Manga', number: '1', manga: 'YesAndRightToLeft' },
  });
  await createCbz(path.join(libraryRoot, 'Beta', 'Beta 01.cbz'), [YELLOW, MAGENTA].map(page));
  await createCbz(path.join(libraryRoot, 'Strip', 'Strip 01.cbz'), [RED, GREEN, BLUE].map((color) => ({ ...page(color), height: 4000 })), {
    comicInfo: '<?xml version="1.0"?><ComicInfo><Series>Strip</Series><Number>1</Number><Format>Webtoon</Format></ComicInfo>',
  });
  // Page 2 is a JPEG cut short: its header (and size) reads, its pixels do not decode.
  const jpeg = (color: Rgb) => renderPage({ width: 600, height: 900, color, format: 'jpeg' });
  const torn = await jpeg(GREEN);
  await writeStoredCbz(path.join(libraryRoot, 'Torn', 'Torn 01.cbz'), [
    await jpeg(RED),
    torn.subarray(0, Math.floor(torn.length / 3)),
    await jpeg(BLUE),
    await jpeg(YELLOW),
  ]);
  folio = await startFolio();
  await claimWithLibrary(folio.url, libraryRoot);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test.beforeEach(async ({ page: p }) => {
  const request = p.context().request;
  await logIn(request, folio.url, ADMIN);
  if (!readListId) {
    // A read list that crosses series: Alpha 01, then Beta 01 (Alpha's own next book is Alpha 02).
    const alpha = await findBook(request, folio.url, 'Alpha 01');
    const beta = await findBook(request, folio.url, 'Beta 01');
    const created = await request.post(`${folio.url}/api/v1/readlists`, {
      data: { name: 'Crossover', bookIds: [alpha.id, beta.id] },
      headers: xhr,
    });
    expect(created.ok()).toBe(true);
    readListId = ((await created.json()) as { id: string }).id;
  }
});

test('a book read from its read list goes on to the next book of the list, and leaving returns to the list\'s book page', async ({ page: p }) => {
  const request = p.context().request;
  const beta = await findBook(request, folio.url, 'Beta 01');
  await p.goto(`${folio.url}/readlists/${readListId}`);
  await p.getByRole('link', { name: 'Alpha 01', exact: true }).click();
  await expect(p.getByText(en.book.in_read_list)).toBeVisible();
  await p.getByRole('link', { name: en.book.read, exact: true }).click();
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  await p.keyboard.press('End');
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  // The address keeps the context while reading.
  await expect(p).toHaveURL(/\?page=2&context=READLIST&contextId=/);
  // Past the end: a first press warns, a second one (after a person's pause) opens the next book.
  const start = Date.now();
  await p.clock.setFixedTime(start);
  await p.keyboard.press('ArrowRight');
  await expect(p.getByTestId('reader-edge-message')).toBeVisible();
  await p.clock.setFixedTime(start + 600);
  await p.keyboard.press('ArrowRight');
  await expect(p).toHaveURL(new RegExp(`/book/${beta.id}/read`));
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  // The way out leads to the book's page within the read list, with its navigation in that list.
  await p.getByRole('link', { name: en.reader.back }).click();
  await expect(p).toHaveURL(new RegExp(`/book/${beta.id}\\?readlist=${readListId}$`));
  await expect(p.getByText(en.book.in_read_list)).toBeVisible();
});

test('right to left: the page counter still reads "page / total" in an English interface', async ({ page: p }) => {
  const manga = await findBook(p.context().request, folio.url, 'Manga 01');
  await p.goto(`${folio.url}/book/${manga.id}/read?incognito=true`);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  const counter = p.getByTestId('reader-page-counter');
  await expect(counter).toHaveText('1 / 3');
  // What is on screen, left to right: the first glyph drawn leftmost must be the page, not the total.
  const leftmost = await counter.evaluate((element) => {
    const text = element.firstChild as Text;
    const range = document.createRange();
    const boxes: { char: string; left: number }[] = [];
    for (let i = 0; i < text.length; i++) {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const char = text.data[i] as string;
      if (/\d/.test(char)) boxes.push({ char, left: range.getBoundingClientRect().left });
    }
    boxes.sort((a, b) => a.left - b.left);
    return boxes[0]?.char;
  });
  expect(leftmost).toBe('1');
});

test('double pages: a page of a pair that cannot be decoded is the one the error names, and its partner is shown', async ({ page: p }) => {
  const torn = await findBook(p.context().request, folio.url, 'Torn 01');
  await p.addInitScript(() => localStorage.setItem('folio.reader', JSON.stringify({ pageLayout: 'double' })));
  // With the cover alone, pages 2 and 3 make a pair; the pair stands for page 3 in the counter.
  await p.goto(`${folio.url}/book/${torn.id}/read?page=2&incognito=true`);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-current-page', '3');
  await expect(p.getByRole('alert')).toContainText(en.reader.page_error.replace('{{page}}', '2'));
  await expect(p.getByRole('alert')).not.toContainText(en.reader.page_error.replace('{{page}}', '3'));
  // Page 3, on the right, is there.
  await expect.poll(async () => isClose(await sampleColour(canvas, 0.75, 0.5), BLUE)).toBe(true);
});

test('after the page slider is used with the mouse, the reader\'s keys still work; its arrows move it one page', async ({ page: p }) => {
  const book = await findBook(p.context().request, folio.url, 'Torn 01');
  await p.goto(`${folio.url}/book/${book.id}/read?incognito=true`);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-current-page', '1');
  const slider = p.getByRole('slider', { name: en.reader.page_slider });
  const box = (await slider.boundingBox())!;
  // The last of 4 pages: the right end of the track.
  await p.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
  await expect(canvas).toHaveAttribute('data-current-page', '4');
  await expect(slider).toBeFocused();
  // The slider keeps its own keys: ← moves it (and the book) one page back.
  await p.keyboard.press('ArrowLeft');
  await expect(canvas).toHaveAttribute('data-current-page', '3');
  // Every other key is the reader's: h shows the shortcuts, m hides the bars.
  await p.keyboard.press('h');
  await expect(p.getByRole('dialog', { name: en.reader.shortcuts })).toBeVisible();
  await p.keyboard.press('Escape');
  await expect(p.getByRole('dialog', { name: en.reader.shortcuts })).toBeHidden();
  await p.keyboard.press('m');
  await expect(p.getByTestId('reader-page-counter')).toBeHidden();
});

test('webtoon: ↓ and ↑ scroll the strip a little, as in a web page (Space and PageDown go a screen at a time)', async ({ page: p }) => {
  const strip = await findBook(p.context().request, folio.url, 'Strip 01');
  await p.goto(`${folio.url}/book/${strip.id}/read?incognito=true`);
  const view = p.getByTestId('reader-webtoon');
  await expect(view).toHaveAttribute('data-current-page', '1');
  const scrollTop = () => view.evaluate((element) => element.scrollTop);
  const screen = await view.evaluate((element) => element.clientHeight);
  await p.keyboard.press('ArrowDown');
  await expect.poll(scrollTop).toBeGreaterThan(0);
  expect(await scrollTop()).toBeLessThan(screen / 4);
  const afterArrow = await scrollTop();
  await p.keyboard.press('ArrowUp');
  await expect.poll(scrollTop).toBeLessThan(afterArrow);
  // A screen at a time with PageDown.
  await p.keyboard.press('PageDown');
  await expect.poll(scrollTop).toBeGreaterThan(screen / 2);
});

test('full screen stays on from one book to the next, and goes when the reader is left', async ({ page: p }) => {
  const request = p.context().request;
  const first = await findBook(request, folio.url, 'Alpha 01');
  const next = await findBook(request, folio.url, 'Alpha 02');
  // Every time the page leaves full screen, in order.
  await p.addInitScript(() => {
    (window as unknown as { exits: number }).exits = 0;
    document.addEventListener('fullscreenchange', () => {
      if (!document.fullscreenElement) (window as unknown as { exits: number }).exits++;
    });
  });
  await p.goto(`${folio.url}/book/${first.id}/read?page=2&incognito=true`);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  await p.keyboard.press('f');
  await expect.poll(() => p.evaluate(() => document.fullscreenElement !== null)).toBe(true);
  const start = Date.now();
  await p.clock.setFixedTime(start);
  await p.keyboard.press('ArrowRight');
  await expect(p.getByTestId('reader-edge-message')).toBeVisible();
  await p.clock.setFixedTime(start + 600);
  await p.keyboard.press('ArrowRight');
  await expect(p).toHaveURL(new RegExp(`/book/${next.id}/read`));
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  expect(await p.evaluate(() => (window as unknown as { exits: number }).exits)).toBe(0);
  expect(await p.evaluate(() => document.fullscreenElement !== null)).toBe(true);
  // Leaving the reader leaves full screen.
  await p.getByRole('link', { name: en.reader.back }).click();
  await expect(p).toHaveURL(new RegExp(`/book/${next.id}$`));
  await expect.poll(() => p.evaluate(() => document.fullscreenElement === null)).toBe(true);
});
