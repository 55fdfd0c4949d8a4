import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { GREEN, RED, createCbz, type Rgb } from '../fixtures/comics.ts';
import { createReflowableEpub, prose } from '../fixtures/epub.ts';
import { ADMIN, claimWithLibrary, findBook, logIn } from './support/api.ts';
import { expectTapTargets } from './support/tap-targets.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * The reader's top bar on a 390 px phone: the book's title stays readable (it was squeezed to "H…"
 * beside six buttons), and the actions moved into the "more" menu still work, by touch and by keys.
 */
let folio: RunningFolio;
let libraryRoot: string;
const TITLE = 'Harbor Lights 01';
const LONG_TITLE = 'The Extraordinarily Long Chronicle of the Lighthouse Keepers of the Northern Harbour Volume 7';
const page = (color: Rgb) => ({ width: 600, height: 900, color, format: 'png' as const });

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-phone-bar-'));
  await createCbz(path.join(libraryRoot, 'Harbor Lights', `${TITLE}.cbz`), [RED, GREEN].map(page));
  await createCbz(path.join(libraryRoot, 'Long Titles', `${LONG_TITLE}.cbz`), [RED, GREEN].map(page));
  await createReflowableEpub(path.join(libraryRoot, 'Field Notes', 'Field Notes Spring.epub'), [{ title: 'One', body: `<h1>One</h1>${prose(3000)}` }], {
    title: 'Field Notes Spring',
  });
  folio = await startFolio();
  await claimWithLibrary(folio.url, libraryRoot);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

async function open(p: Page, name: string): Promise<void> {
  await logIn(p.context().request, folio.url, ADMIN);
  const book = await findBook(p.context().request, folio.url, name);
  await p.goto(`${folio.url}/book/${book.id}/read`);
}

/** The title heading's text and whether all of it shows (no ellipsis), with its width on screen. */
const titleShown = (p: Page) =>
  p.getByRole('banner').getByRole('heading', { level: 1 }).evaluate((h) => ({
    text: h.textContent,
    whole: h.scrollWidth <= h.clientWidth,
    width: h.getBoundingClientRect().width,
  }));

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a comic: the whole title shows, and full screen and shortcut help are in the "more" menu', async ({ page: p }) => {
    await open(p, TITLE);
    await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
    const shown = await titleShown(p);
    expect(shown).toMatchObject({ text: TITLE, whole: true });
    expect(shown.width).toBeGreaterThanOrEqual(150);
    // The top bar no longer shows these two on a phone...
    await expect(p.getByRole('button', { name: en.reader.shortcuts })).toBeHidden();
    await expect(p.getByRole('button', { name: en.reader.fullscreen })).toBeHidden();
    // ...every button it does show is a fingertip's size...
    for (const button of await p.getByRole('banner').getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(40);
    }
    // ...and the menu opens the shortcut help, which gives the focus back to "more" when it closes.
    const more = p.getByRole('button', { name: en.reader.page_menu });
    await more.tap();
    await p.getByRole('button', { name: en.reader.shortcuts }).tap();
    const help = p.getByRole('dialog', { name: en.reader.shortcuts });
    await expect(help).toBeVisible();
    await p.keyboard.press('Escape');
    await expect(help).toBeHidden();
    await expect(more).toBeFocused();
    // Full screen from the menu, by keys alone: the menu opens with focus on its first entry.
    await p.keyboard.press('Enter');
    await expect(p.getByRole('button', { name: en.reader.fullscreen })).toBeFocused();
    await p.keyboard.press('Enter');
    await expect.poll(() => p.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    // The page's own entries are still there.
    await more.tap();
    await expect(p.getByRole('link', { name: en.reader.download_page })).toBeVisible();
  });

  test('every control of the bars, the "more" menu and the settings is a target of 24 px or more (the page slider was 16 px tall)', async ({ page: p }) => {
    await open(p, TITLE);
    await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
    // The bars show when the reader opens.
    await expect(p.getByRole('slider')).toBeVisible();
    await expectTapTargets(p);
    await p.getByRole('button', { name: en.reader.page_menu }).tap();
    await expect(p.getByRole('link', { name: en.reader.download_page })).toBeVisible();
    await expectTapTargets(p);
    await p.keyboard.press('Escape');
    await p.getByRole('button', { name: en.reader.settings }).tap();
    await expect(p.getByRole('dialog', { name: en.reader.settings })).toBeVisible();
    await expectTapTargets(p);
  });

  test('an EPUB: every control of its bars, the "more" menu and its settings is a target of 24 px or more', async ({ page: p }) => {
    await open(p, 'Field Notes Spring');
    await expect(p.getByTestId('epub-frames')).toHaveAttribute('data-ready', 'true');
    await expect(p.getByRole('button', { name: en.reader.page_menu })).toBeVisible();
    await expectTapTargets(p);
    await p.getByRole('button', { name: en.reader.page_menu }).tap();
    await expect(p.getByRole('button', { name: en.reader.shortcuts })).toBeVisible();
    await expectTapTargets(p);
    await p.keyboard.press('Escape');
    await p.getByRole('button', { name: en.reader.settings }).tap();
    await expect(p.getByRole('dialog', { name: en.reader.settings })).toBeVisible();
    await expectTapTargets(p);
  });

  test('a title too long for the bar is cut, and a tap on it shows it whole; Escape hides only that', async ({ page: p }) => {
    await open(p, LONG_TITLE);
    await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
    const titleButton = p.getByRole('banner').getByRole('heading', { level: 1 }).getByRole('button');
    // Cut to the bar: the bar itself does not overflow.
    expect(await titleButton.evaluate((b) => b.scrollWidth > b.clientWidth)).toBe(true);
    await titleButton.tap();
    const sheet = p.getByRole('dialog', { name: en.reader.full_title });
    await expect(sheet).toBeVisible();
    // The whole title, inside the screen, on as many lines as it needs.
    expect(await sheet.evaluate((d) => ({ text: d.textContent, fits: d.getBoundingClientRect().right <= innerWidth && d.scrollWidth <= d.clientWidth })))
      .toEqual({ text: expect.stringContaining(LONG_TITLE), fits: true });
    await expect(sheet).toBeInViewport({ ratio: 1 });
    await p.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await expect(titleButton).toBeFocused();
  });

  test('the settings dialogs of both readers show each chosen value whole, not cut to its first letters', async ({ page: p }) => {
    /** Each select of the open dialog whose chosen option's text is wider than the room the select gives it. */
    const cutSelects = () =>
      p.getByRole('dialog').evaluate((dialog) =>
        [...dialog.querySelectorAll('select')].flatMap((select) => {
          const probe = document.createElement('span');
          probe.style.cssText = `position:absolute;white-space:nowrap;font:${getComputedStyle(select).font}`;
          probe.textContent = select.selectedOptions[0]?.textContent ?? '';
          document.body.append(probe);
          const needed = probe.getBoundingClientRect().width;
          probe.remove();
          const style = getComputedStyle(select);
          // The text's room: the box less its padding and the arrow (about 1.25rem).
          const room = select.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
          return needed > room ? [`${select.labels[0]?.textContent}: "${probe.textContent}" needs ${Math.round(needed)} px, has ${Math.round(room)}`] : [];
        }),
      );
    await open(p, TITLE);
    await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
    await p.getByRole('button', { name: en.reader.settings }).tap();
    await expect(p.getByRole('dialog')).toBeVisible();
    expect(await cutSelects()).toEqual([]);
    await open(p, 'Field Notes Spring');
    await expect(p.getByTestId('epub-frames')).toHaveAttribute('data-ready', 'true');
    await p.getByRole('button', { name: en.reader.settings }).tap();
    await expect(p.getByRole('dialog')).toBeVisible();
    expect(await cutSelects()).toEqual([]);
  });

  test('an EPUB: the whole title shows, and "more" holds full screen and shortcut help', async ({ page: p }) => {
    await open(p, 'Field Notes Spring');
    await expect(p.getByTestId('epub-frames')).toHaveAttribute('data-ready', 'true');
    expect(await titleShown(p)).toMatchObject({ text: 'Field Notes Spring', whole: true });
    await p.getByRole('button', { name: en.reader.page_menu }).tap();
    await expect(p.getByRole('button', { name: en.reader.shortcuts })).toBeVisible();
    await expect(p.getByRole('button', { name: en.reader.fullscreen })).toBeVisible();
  });
});

test('on a desktop the top bar keeps its buttons, and an EPUB, with no page entries, has no "more" button', async ({ page: p }) => {
  await open(p, 'Field Notes Spring');
  await expect(p.getByTestId('epub-frames')).toHaveAttribute('data-ready', 'true');
  await expect(p.getByRole('button', { name: en.reader.shortcuts })).toBeVisible();
  await expect(p.getByRole('button', { name: en.reader.fullscreen })).toBeVisible();
  await expect(p.getByRole('button', { name: en.reader.page_menu })).toBeHidden();
});
