import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { BLUE, GREEN, MAGENTA, RED, YELLOW, createCbz, type PageSpec, type Rgb } from '../fixtures/comics.ts';
import { ADMIN, claimWithLibrary, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { swipe } from './support/touch.ts';

/**
 * The paged reader's gestures and edges in real Chromium: zoom (keys, Ctrl+wheel, double click) with
 * a sharp redraw once it rests, swipes on a touch screen, leaving from the first book's first page,
 * "always fullscreen" after a reload, and the settings dialog on a 360 px phone.
 */
let folio: RunningFolio;
let libraryRoot: string;
const page = (color: Rgb): PageSpec => ({ width: 600, height: 900, color, format: 'png' });

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-gestures-'));
  await createCbz(path.join(libraryRoot, 'Comic', 'Comic 01.cbz'), [RED, GREEN, BLUE].map(page));
  await createCbz(path.join(libraryRoot, 'Comic', 'Comic 02.cbz'), [YELLOW, MAGENTA].map(page));
  folio = await startFolio();
  await claimWithLibrary(folio.url, libraryRoot);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

/** Reader preferences as this browser would have saved them, before the app starts. */
async function withReaderSettings(p: Page, settings: Record<string, unknown>): Promise<void> {
  await p.addInitScript((saved) => localStorage.setItem('folio.reader', JSON.stringify(saved)), settings);
}

async function openComic(p: Page, query = ''): Promise<string> {
  await logIn(p.context().request, folio.url, ADMIN);
  const book = await findBook(p.context().request, folio.url, 'Comic 01');
  await p.goto(`${folio.url}/book/${book.id}/read${query}`);
  await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
  return book.id;
}

const backingWidth = (p: Page) => p.getByTestId('reader-canvas').evaluate((c: HTMLCanvasElement) => c.width);

test('zoom: + redraws the page sharp at the zoomed size, a page turn resets it, Ctrl+wheel and double click zoom, a drag pans', async ({ page: p }) => {
  await openComic(p);
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-zoom', '1');
  const plainWidth = await backingWidth(p);

  await p.keyboard.press('+');
  await p.keyboard.press('+');
  await expect(canvas).toHaveAttribute('data-zoom', '1.56');
  // Once the zoom rests, the session asks the workers for the page at the zoomed size.
  await expect.poll(() => backingWidth(p)).toBeGreaterThan(plainWidth * 1.5);
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  await p.keyboard.press('-');
  await expect(canvas).toHaveAttribute('data-zoom', '1.25');

  await p.keyboard.press('ArrowRight');
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  await expect(canvas).toHaveAttribute('data-zoom', '1');
  await expect.poll(() => backingWidth(p)).toBe(plainWidth);

  const box = (await canvas.boundingBox())!;
  await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await p.keyboard.down('Control');
  await p.mouse.wheel(0, -150);
  await p.keyboard.up('Control');
  await expect.poll(async () => Number(await canvas.getAttribute('data-zoom'))).toBeGreaterThan(1);
  await p.keyboard.press('0');
  await expect(canvas).toHaveAttribute('data-zoom', '1');

  // Double click in the middle (the toolbar toggles twice: no change) zooms there; a drag pans.
  await p.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  await expect(canvas).toHaveAttribute('data-zoom', '2.5');
  const before = await canvas.evaluate((c) => c.style.transform);
  await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await p.mouse.down();
  await p.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 80, { steps: 6 });
  await p.mouse.up();
  await expect.poll(() => canvas.evaluate((c) => c.style.transform)).not.toBe(before);
  await expect(canvas).toHaveAttribute('data-painted-page', '2');
  await p.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  await expect(canvas).toHaveAttribute('data-zoom', '1');
});

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('with swipes on, both directions turn pages and the browser keeps only vertical panning', async ({ page: p }) => {
    await withReaderSettings(p, { swipe: true });
    const bookId = await openComic(p, '?page=2');
    const canvas = p.getByTestId('reader-canvas');
    await expect(canvas).toHaveAttribute('data-painted-page', '2');
    const scroller = canvas.locator('xpath=../..');
    expect(await scroller.evaluate((e) => getComputedStyle(e).touchAction)).toBe('pan-y');
    expect(await scroller.evaluate((e) => getComputedStyle(e).overscrollBehaviorX)).toBe('none');

    // Swipe right: back a page, and still in the reader (not the browser's back gesture).
    await swipe(p, { x: 60, y: 400 }, { x: 330, y: 400 });
    await expect(canvas).toHaveAttribute('data-painted-page', '1');
    await expect(p).toHaveURL(new RegExp(`/book/${bookId}/read`));
    await swipe(p, { x: 330, y: 400 }, { x: 60, y: 400 });
    await expect(canvas).toHaveAttribute('data-painted-page', '2');
  });

  for (const width of [390, 360]) {
    test(`the settings dialog fits a ${width} px wide screen`, async ({ page: p }) => {
      await p.setViewportSize({ width, height: 844 });
      await openComic(p);
      await p.keyboard.press('s');
      const dialog = p.getByRole('dialog', { name: en.reader.settings });
      await expect(dialog).toBeVisible();
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // Nothing inside runs past the dialog's right edge, and nothing needs a sideways scroll.
      const overflow = await dialog.evaluate((d) => {
        const right = d.getBoundingClientRect().right;
        const past = [...d.querySelectorAll('select, input, label')].filter((e) => e.getBoundingClientRect().right > right + 0.5);
        return { past: past.length, sideways: d.scrollWidth > d.clientWidth };
      });
      expect(overflow).toEqual({ past: 0, sideways: false });
      await test.info().attach(`settings-${width}`, { body: await p.screenshot(), contentType: 'image/png' });
    });
  }
});

test('before the first page of the first book, a second press leaves the reader', async ({ page: p }) => {
  const bookId = await openComic(p, '?page=1');
  await p.keyboard.press('ArrowLeft');
  await expect(p.getByTestId('reader-edge-message')).toHaveText(`${en.reader.start_of_book} ${en.reader.again_exit_back}`);
  // Presses closer than 400 ms apart count as a held key: press until one counts as the second.
  await expect(async () => {
    await p.keyboard.press('ArrowLeft');
    await expect(p).toHaveURL(new RegExp(`/book/${bookId}$`), { timeout: 300 });
  }).toPass();
});

test('always fullscreen comes back on the first click after a reload', async ({ page: p }) => {
  await withReaderSettings(p, { alwaysFullscreen: true });
  // Headless Chromium grants fullscreen without a gesture; a browser on screen refuses it. The
  // browser's rule, applied here: fullscreen only within a few seconds after a press or a key.
  await p.addInitScript(() => {
    let gestureAt = -Infinity;
    for (const name of ['pointerdown', 'keydown']) window.addEventListener(name, () => (gestureAt = performance.now()), true);
    const request = Element.prototype.requestFullscreen;
    Element.prototype.requestFullscreen = function (this: Element, options?: FullscreenOptions) {
      if (performance.now() - gestureAt > 5000) return Promise.reject(new TypeError('Permissions check failed'));
      return request.call(this, options);
    };
  });
  await openComic(p, '?page=1');
  await p.reload();
  const canvas = p.getByTestId('reader-canvas');
  await expect(canvas).toHaveAttribute('data-painted-page', '1');
  // Without a gesture the browser refuses; the reader waits for one.
  expect(await p.evaluate(() => document.fullscreenElement === null)).toBe(true);
  await canvas.click({ position: { x: 640, y: 400 } });
  await expect.poll(() => p.evaluate(() => document.fullscreenElement !== null)).toBe(true);
});
