import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReflowableEpub, opfXml, prose, writeEpub } from '../fixtures/epub.ts';
import { swipe } from './support/touch.ts';
import { findBook, getBook } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { adminWithLibrary, epubFrames, shownFrame } from './support/epub-library.ts';

/**
 * A novel reader's walk through Folio's EPUB reader against the real server: books as publishers
 * make them (notes kept out of the reading order with linear="no", embedded fonts, links between
 * chapters, SVG, a long novel) and books that try to reach the network.
 */
let folio: RunningFolio;
let libraryRoot: string;

const NS = 'xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"';
const xhtml = (title: string, body: string, head = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html ${NS} xml:lang="en" lang="en"><head><title>${title}</title>${head}</head>\n<body>${body}</body></html>\n`;
const doc = (id: string, href: string) => ({ id, href, mediaType: 'application/xhtml+xml' });

/** Chapters with endnotes in a document the spine marks linear="no" (between the chapters, as many publishers place it). */
async function writeEndnotesBook(file: string): Promise<void> {
  const chapter = (n: number) =>
    xhtml(`Chapter ${n}`, `<h1>Chapter ${n}</h1><p>Marker of endnote chapter ${n}.</p><p>A claim<a epub:type="noteref" id="ref${n}" href="notes.xhtml#n${n}">${n}</a> made.</p>${prose(3000)}`);
  const notes = xhtml('Notes', `<h1>Notes</h1>${[1, 2].map((n) => `<aside epub:type="endnote" id="n${n}"><p><a href="ch${n}.xhtml#ref${n}">${n}.</a> ENDNOTE-TEXT-${n}</p></aside>`).join('')}`);
  const opf = opfXml({
    metadata: '<dc:title>Endnotes</dc:title><dc:language>en</dc:language><dc:identifier id="uid">urn:uuid:endnotes</dc:identifier>',
    manifest: [doc('ch1', 'text/ch1.xhtml'), doc('notes', 'text/notes.xhtml'), doc('ch2', 'text/ch2.xhtml')],
    spine: ['ch1', 'notes', 'ch2'],
  }).replace('<itemref idref="notes"/>', '<itemref idref="notes" linear="no"/>');
  await writeEpub(file, [
    { name: 'OEBPS/text/ch1.xhtml', data: chapter(1) },
    { name: 'OEBPS/text/notes.xhtml', data: notes },
    { name: 'OEBPS/text/ch2.xhtml', data: chapter(2) },
    { name: 'OEBPS/content.opf', data: opf },
  ]);
}

/** Embedded font, an SVG picture (file and inline), a CSS background image, links across chapters and folders. */
async function writeCraftedBook(file: string): Promise<void> {
  const font = await readFile('/usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf');
  const css = `@font-face { font-family: "BookFace"; src: url(../fonts/book.ttf) format("truetype"); }
body { font-family: "BookFace", serif; }
.plate { width: 200px; height: 100px; background-image: url(../images/plate.svg); }`;
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100"><rect width="200" height="100" fill="rgb(0,128,0)"/></svg>';
  const head = '<link rel="stylesheet" type="text/css" href="../styles/book.css"/>';
  const opening = xhtml(
    'Opening',
    `<h1>Opening</h1><p>Marker of the crafted opening.</p>
<p><a id="to-third" href="../text/part2/ch3.xhtml#deep">To the deep place of chapter three</a></p>
<p><a id="to-second" href="ch2.xhtml">To chapter two</a></p>
<img id="svg-img" src="../images/plate.svg" alt="A green plate"/>
<div class="plate" id="css-plate"></div>
<svg xmlns="http://www.w3.org/2000/svg" id="inline-svg" viewBox="0 0 10 10" width="50" height="50"><circle cx="5" cy="5" r="4" fill="rgb(200,0,0)"/></svg>
${prose(2000)}`,
    head,
  );
  const second = xhtml('Second', `<h1>Second</h1><p>Marker of the crafted second chapter.</p>${prose(2000)}`, head);
  const third = xhtml(
    'Third',
    `<h1>Third</h1><p>Marker of the crafted third chapter.</p>${prose(12000)}<p id="deep">DEEP-PLACE of chapter three.</p><p><a id="back-home" href="../ch1.xhtml">Back to the opening</a></p>${prose(3000)}`,
    '<link rel="stylesheet" type="text/css" href="../../styles/book.css"/>',
  );
  await writeEpub(file, [
    { name: 'OEBPS/text/ch1.xhtml', data: opening },
    { name: 'OEBPS/text/ch2.xhtml', data: second },
    { name: 'OEBPS/text/part2/ch3.xhtml', data: third },
    { name: 'OEBPS/styles/book.css', data: css },
    { name: 'OEBPS/fonts/book.ttf', data: font },
    { name: 'OEBPS/images/plate.svg', data: svg },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Crafted</dc:title><dc:language>en</dc:language><dc:identifier id="uid">urn:uuid:crafted</dc:identifier>',
        manifest: [
          doc('ch1', 'text/ch1.xhtml'),
          doc('ch2', 'text/ch2.xhtml'),
          doc('ch3', 'text/part2/ch3.xhtml'),
          { id: 'css', href: 'styles/book.css', mediaType: 'text/css' },
          { id: 'font', href: 'fonts/book.ttf', mediaType: 'font/ttf' },
          { id: 'svg', href: 'images/plate.svg', mediaType: 'image/svg+xml' },
        ],
        spine: ['ch1', 'ch2', 'ch3'],
      }),
    },
  ]);
}

const OUTSIDE = 'http://outside.invalid';
/** A chapter that tries to load from elsewhere in every way markup and CSS allow. */
async function writeLeakyBook(file: string): Promise<void> {
  const css = `@import url("${OUTSIDE}/import.css");
@font-face { font-family: "Far"; src: url("${OUTSIDE}/far.woff2"); }
body { font-family: "Far"; background-image: url("${OUTSIDE}/body-bg.png"); }`;
  const body = `<h1>Leaky</h1><p>Harmless text of the leaky book.</p>
<img src="${OUTSIDE}/img.png" alt=""/>
<img src="../images/none.png" srcset="${OUTSIDE}/srcset.png 2x" alt=""/>
<picture><source srcset="${OUTSIDE}/source.png"/><img src="../images/none.png" alt=""/></picture>
<div style="background-image: url('${OUTSIDE}/style-attr.png'); width: 10px; height: 10px"></div>
<video src="${OUTSIDE}/video.mp4" poster="${OUTSIDE}/poster.png" autoplay="autoplay"></video>
<audio src="${OUTSIDE}/audio.mp3" autoplay="autoplay"></audio>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image href="${OUTSIDE}/svg-image.png" width="10" height="10"/><image xlink:href="${OUTSIDE}/svg-xlink.png" width="10" height="10"/></svg>
<object data="${OUTSIDE}/object.swf"></object><embed src="${OUTSIDE}/embed.swf"/>
<input type="image" src="${OUTSIDE}/input.png"/>
<table background="${OUTSIDE}/table-bg.png"><tr><td>cell</td></tr></table>
${prose(1000)}`;
  const head = `<link rel="stylesheet" href="${OUTSIDE}/remote.css"/><link rel="stylesheet" href="../styles/leaky.css"/><link rel="prefetch" href="${OUTSIDE}/prefetch"/><link rel="preload" as="image" href="${OUTSIDE}/preload.png"/><link rel="icon" href="${OUTSIDE}/favicon.ico"/><style>p { background: url("${OUTSIDE}/style-element.png"); }</style>`;
  await writeEpub(file, [
    { name: 'OEBPS/text/ch1.xhtml', data: xhtml('Leaky', body, head) },
    { name: 'OEBPS/styles/leaky.css', data: css },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Leaky</dc:title><dc:language>en</dc:language><dc:identifier id="uid">urn:uuid:leaky</dc:identifier>',
        manifest: [doc('ch1', 'text/ch1.xhtml'), { id: 'css', href: 'styles/leaky.css', mediaType: 'text/css' }],
        spine: ['ch1'],
      }),
    },
  ]);
}

/** A novel of 150 chapters of a few pages each, with an EPUB 3 nav. */
async function writeLongNovel(file: string): Promise<void> {
  const ids = Array.from({ length: 150 }, (_, i) => `c${String(i + 1).padStart(3, '0')}`);
  const nav = xhtml('Contents', `<nav epub:type="toc"><ol>${ids.map((id, i) => `<li><a href="${id}.xhtml">Chapter ${i + 1}</a></li>`).join('')}</ol></nav>`);
  await writeEpub(file, [
    ...ids.map((id, i) => ({ name: `OEBPS/${id}.xhtml`, data: xhtml(`Chapter ${i + 1}`, `<h1>Chapter ${i + 1}</h1><p>Marker of novel chapter ${i + 1}.</p>${prose(i === 149 ? 1500 : 7000)}`) })),
    { name: 'OEBPS/nav.xhtml', data: nav },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Long Novel</dc:title><dc:language>en</dc:language><dc:identifier id="uid">urn:uuid:long-novel</dc:identifier>',
        manifest: [...ids.map((id) => doc(id, `${id}.xhtml`)), { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' }],
        spine: ids,
      }),
    },
  ]);
}

/** A short book whose last chapter is long (60 pages' worth), its paragraphs numbered. */
async function writeLongEnding(file: string): Promise<void> {
  const numbered = Array.from({ length: 500 }, (_, i) => `<p id="q${i + 1}">Paragraph ${i + 1} of the ending: it was a dark and stormy night; the rain fell in torrents.</p>`).join('');
  await writeEpub(file, [
    { name: 'OEBPS/one.xhtml', data: xhtml('One', `<h1>One</h1><p>Marker of the first short chapter.</p>${prose(3000)}`) },
    { name: 'OEBPS/two.xhtml', data: xhtml('Two', `<h1>Two</h1>${prose(3000)}`) },
    { name: 'OEBPS/ending.xhtml', data: xhtml('Ending', `<h1>Ending</h1>${numbered}`) },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Long Ending</dc:title><dc:language>en</dc:language><dc:identifier id="uid">urn:uuid:long-ending</dc:identifier>',
        manifest: [doc('one', 'one.xhtml'), doc('two', 'two.xhtml'), doc('ending', 'ending.xhtml')],
        spine: ['one', 'two', 'ending'],
      }),
    },
  ]);
}

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-epub-audit-'));
  await writeEndnotesBook(path.join(libraryRoot, 'Endnotes', 'Endnotes.epub'));
  await writeCraftedBook(path.join(libraryRoot, 'Crafted', 'Crafted.epub'));
  await writeLeakyBook(path.join(libraryRoot, 'Leaky', 'Leaky.epub'));
  await writeLongNovel(path.join(libraryRoot, 'Long Novel', 'Long Novel.epub'));
  await writeLongEnding(path.join(libraryRoot, 'Long Ending', 'Long Ending.epub'));
  await createReflowableEpub(
    path.join(libraryRoot, 'Tategaki', 'Tategaki.epub'),
    [1, 2].map((n) => ({ title: `第${n}章`, body: `<h1>第${n}章</h1>${prose(6000, '暗い嵐の夜だった。雨が激しく降っていた。')}` })),
    { title: '縦書き', language: 'ja', pageProgression: 'rtl', css: 'html { writing-mode: vertical-rl; -webkit-writing-mode: vertical-rl; }' },
  );
  // A chapter with a code listing (kept unwrapped, as publishers' style sheets ask), a table wider than a phone's
  // screen, and a table as books have them: the text's full width, borders, a caption, column widths.
  const bookTable = `<table id="book-table" class="data"><caption>Table 1. Rainfall by month</caption><colgroup><col style="width: 30%"/><col style="width: 70%"/></colgroup><thead><tr><th>Month</th><th>Rainfall</th></tr></thead><tbody>${['January', 'February', 'March'].map((m, i) => `<tr><td>${m}</td><td>${12 + i} mm</td></tr>`).join('')}</tbody></table>`;
  const bookTableCss = 'table.data { width: 100%; border-collapse: collapse; } table.data th, table.data td { border: 1px solid #888; padding: 2px; }';
  const wideLine = Array.from({ length: 40 }, (_, i) => `column${i}`).join(' ');
  await createReflowableEpub(path.join(libraryRoot, 'Wide Blocks', 'Wide Blocks.epub'), [
    {
      title: 'Wide',
      body: `<h1>Wide</h1><p id="before-wide">Marker of the wide chapter.</p><pre id="wide-pre">${wideLine}</pre><table id="wide-table"><tr>${Array.from({ length: 30 }, (_, i) => `<td>cell${i}wide</td>`).join('')}</tr></table>${bookTable}${prose(3000)}`,
    },
  ], { title: 'Wide Blocks', css: `pre { white-space: pre; }\n${bookTableCss}` });
  // A book whose style sheet pins a banner to the window, and whose text pins a heading inline.
  await createReflowableEpub(
    path.join(libraryRoot, 'Pinned', 'Pinned.epub'),
    [1, 2].map((n) => ({
      title: `Pinned ${n}`,
      body: `<div class="banner" id="banner${n}">PINNED-BANNER ${n}</div><h1 id="sticky${n}" style="position: sticky; top: 0">Pinned ${n}</h1><p>Marker of pinned chapter ${n}.</p>${prose(12000)}`,
    })),
    { title: 'Pinned', css: '@media screen { .banner { position: fixed; top: 0; left: 0; width: 100%; z-index: 9; } }' },
  );
  // Links out of the book written every way a book can: a plain anchor, one aimed at the top window
  // or a named one, an image map's area, and an SVG anchor.
  const OUT = 'https://outside.invalid/page';
  await createReflowableEpub(path.join(libraryRoot, 'Outbound', 'Outbound.epub'), [
    {
      title: 'Outbound',
      body: `<h1>Outbound</h1><p>Marker of the outbound chapter.</p>
<p><a id="out-plain" href="${OUT}?plain">A plain link out</a></p>
<p><a id="out-top" target="_top" href="${OUT}?top">A link aimed at the top window</a></p>
<p><a id="out-named" target="elsewhere" href="${OUT}?named">A link aimed at a named window</a></p>
<p><img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==" width="120" height="40" usemap="#outmap" alt="A map"/></p>
<map name="outmap"><area id="out-area" shape="rect" coords="0,0,120,40" href="${OUT}?area" alt="An area out"/></map>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40"><a id="out-svg" xlink:href="${OUT}?svg"><rect width="120" height="40" fill="rgb(0,0,200)"/></a></svg>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40"><a id="in-svg" xlink:href="ch0002.xhtml"><rect width="120" height="40" fill="rgb(0,200,0)"/></a></svg>
${prose(2000)}`,
    },
    { title: 'Outbound 2', body: `<h1>Outbound 2</h1><p>Marker of the outbound second chapter.</p>${prose(2000)}` },
  ], { title: 'Outbound' });
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test.beforeEach(adminWithLibrary(() => folio.url, () => libraryRoot));

const frames = epubFrames;
const shown = shownFrame;
const progression = async (page: Page) => Number(await frames(page).getAttribute('data-progression'));

/**
 * How the Wide Blocks book's ordinary table is laid out: its display, its width against the text's
 * (the book asks for 100%), whether the caption sits above the rows, its first column's share of the
 * width (the book asks for 30%) and whether that column's cells line up.
 */
const bookTableLayout = (page: Page) =>
  shown(page).locator('#book-table').evaluate((table) => {
    const view = table.ownerDocument.defaultView!;
    const parent = table.parentElement!;
    const padding = parseFloat(view.getComputedStyle(parent).paddingInlineStart) + parseFloat(view.getComputedStyle(parent).paddingInlineEnd);
    const width = table.getBoundingClientRect().width;
    const firstCells = [...table.querySelectorAll('tr')].map((row) => row.cells[0]!.getBoundingClientRect());
    return {
      display: view.getComputedStyle(table).display,
      widthOfText: Math.round((width / (parent.clientWidth - padding)) * 100) / 100,
      captionAbove: table.querySelector('caption')!.getBoundingClientRect().bottom <= firstCells[0]!.top + 0.5,
      firstColumn: Math.round((firstCells[0]!.width / width) * 10) / 10,
      aligned: firstCells.every((cell) => Math.abs(cell.left - firstCells[0]!.left) < 0.5 && Math.abs(cell.width - firstCells[0]!.width) < 0.5),
    };
  });
const NORMAL_TABLE = { display: 'table', widthOfText: 1, captionAbove: true, firstColumn: 0.3, aligned: true };

/** Chooses the reader's layout in its settings dialog. */
async function chooseLayout(page: Page, label: 'Pages' | 'Scrolling'): Promise<void> {
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Layout').selectOption({ label });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  const html = expect(shown(page).locator('html'));
  await (label === 'Scrolling' ? html.toHaveAttribute('style', /readium-scroll-on/) : html.not.toHaveAttribute('style', /readium-scroll-on/));
}

/**
 * One page turn by `key`. A key pressed while the previous turn or jump is still settling is dropped
 * by design (as a held key's are); a reader presses again. Pressed again only when the place has not
 * moved for a second, never at the first look, so an accepted press is never doubled.
 */
async function turn1(page: Page, key: string): Promise<void> {
  const place = async () => `${await frames(page).getAttribute('data-resource')} ${await frames(page).getAttribute('data-progression')}`;
  const before = await place();
  await page.keyboard.press(key);
  let looks = 0;
  await expect
    .poll(
      async () => {
        const now = await place();
        if (looks++ > 0 && now === before) await page.keyboard.press(key);
        return now;
      },
      { intervals: [1_000, 2_000, 3_000] },
    )
    .not.toBe(before);
}

async function openBook(page: Page, name: string, query = ''): Promise<string> {
  const book = await findBook(page.context().request, folio.url, name);
  await page.goto(`${folio.url}/book/${book.id}/read${query}`);
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  return book.id;
}

test('an endnote in a document kept out of the reading order (linear="no") opens from its reference and links back', async ({ page }) => {
  await openBook(page, 'Endnotes', '?incognito=true');
  await expect(shown(page).getByText('Marker of endnote chapter 1.')).toBeVisible();
  await shown(page).locator('#ref1').click();
  await expect(shown(page).getByText('ENDNOTE-TEXT-1')).toBeVisible();
  await shown(page).getByRole('link', { name: '1.' }).click();
  await expect(shown(page).getByText('Marker of endnote chapter 1.')).toBeVisible();
});

test('links between chapters, across folders and to a place deep in a chapter, lead there', async ({ page }) => {
  await openBook(page, 'Crafted', '?incognito=true');
  await expect(shown(page).getByText('Marker of the crafted opening.')).toBeVisible();
  await shown(page).locator('#to-third').click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/part2/ch3.xhtml');
  const deepOnScreen = () =>
    shown(page).getByText('DEEP-PLACE of chapter three.').evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.left >= 0 && box.left < element.ownerDocument.defaultView!.innerWidth;
    });
  await expect.poll(deepOnScreen).toBe(true);
  await shown(page).locator('#back-home').click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch1.xhtml');
  await shown(page).locator('#to-second').click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch2.xhtml');
  await expect(shown(page).getByText('Marker of the crafted second chapter.')).toBeVisible();
});

test('a link out of the book, whatever its form (target _top or named, image map, SVG), opens in a new tab: the reader and its frame stay', async ({ page, context }) => {
  await openBook(page, 'Outbound', '?incognito=true');
  await expect(shown(page).getByText('Marker of the outbound chapter.')).toBeVisible();
  const readerAddress = page.url();
  // Nothing may load from outside (the test has no network): every request for outside.invalid is answered here and counted.
  const outside: string[] = [];
  await context.route('https://outside.invalid/**', (route) => {
    outside.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>outside</p>' });
  });
  for (const id of ['out-plain', 'out-top', 'out-named', 'out-area', 'out-svg']) {
    const opened = context.waitForEvent('page');
    // An area is no box of its own: the image it maps is clicked.
    await shown(page).locator(id === 'out-area' ? 'img[usemap]' : `#${id}`).click();
    const tab = await opened;
    await expect.poll(() => tab.url()).toContain(`https://outside.invalid/page?${id.slice(4)}`);
    // The new tab cannot reach the reader (noopener).
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
    expect(page.url()).toBe(readerAddress);
    // The reader's frame still shows the chapter, not the outside page.
    await expect(shown(page).getByText('Marker of the outbound chapter.')).toBeVisible();
    expect(page.frames().map((frame) => frame.url()).filter((url) => url.includes('outside.invalid'))).toEqual([]);
  }
  expect(outside.map((url) => new URL(url).search).sort()).toEqual(['?area', '?named', '?plain', '?svg', '?top']);
  // An SVG link to another chapter of the book is followed in the reader.
  await shown(page).locator('#in-svg').click();
  await expect(frames(page)).toHaveAttribute('data-resource', /ch0002\.xhtml$/);
  await expect(shown(page).getByText('Marker of the outbound second chapter.')).toBeVisible();
});

test('the browser\'s Back after following links in the book returns to each place the links were followed from', async ({ page }) => {
  await openBook(page, 'Crafted', '?incognito=true');
  await expect(shown(page).getByText('Marker of the crafted opening.')).toBeVisible();
  const readerAddress = page.url();
  const deepOnScreen = () =>
    shown(page).getByText('DEEP-PLACE of chapter three.').evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.left >= 0 && box.left < element.ownerDocument.defaultView!.innerWidth;
    });
  await shown(page).locator('#to-third').click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/part2/ch3.xhtml');
  await expect.poll(deepOnScreen).toBe(true);
  const deepProgression = await progression(page);
  await shown(page).locator('#back-home').click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch1.xhtml');
  // Back: the deep place of chapter three, where the second link was followed, in the reader.
  await page.goBack();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/part2/ch3.xhtml');
  await expect.poll(deepOnScreen).toBe(true);
  expect(await progression(page)).toBe(deepProgression);
  expect(page.url()).toBe(readerAddress);
  // Back again: the opening, where the first link was followed.
  await page.goBack();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch1.xhtml');
  await expect(shown(page).getByText('Marker of the crafted opening.')).toBeVisible();
  expect(page.url()).toBe(readerAddress);
});

test('the book\'s embedded font, its SVG pictures and CSS images are shown', async ({ page }) => {
  await openBook(page, 'Crafted', '?incognito=true');
  await expect(shown(page).getByText('Marker of the crafted opening.')).toBeVisible();
  const html = shown(page).locator('html');
  await expect.poll(() => html.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'BookFace').map((f) => f.status);
  })).toEqual(['loaded']);
  await expect.poll(() => html.evaluate(() => getComputedStyle(document.querySelector('p')!).fontFamily)).toContain('BookFace');
  await expect.poll(() => shown(page).locator('#svg-img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200);
  expect(await shown(page).locator('#inline-svg').evaluate((svg) => svg.getBoundingClientRect().width)).toBe(50);
  expect(await shown(page).locator('#css-plate').evaluate((div) => getComputedStyle(div).backgroundImage)).toMatch(/plate\.svg/);
});

test('nothing in a book reaches outside the server: images, styles, fonts, media, prefetches', async ({ page }) => {
  // What reached the network (routed), and what the page asked for outside the server and how it ended.
  const routed: string[] = [];
  await page.context().route(/^https?:\/\/(?!127\.0\.0\.1)/, async (route) => {
    routed.push(route.request().url());
    await route.abort();
  });
  const asked: string[] = [];
  const refused: string[] = [];
  page.on('request', (request) => {
    if (/^https?:/.test(request.url()) && !request.url().startsWith(folio.url)) asked.push(request.url());
  });
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText === 'csp') refused.push(request.url());
  });
  await openBook(page, 'Leaky', '?incognito=true');
  await expect(shown(page).getByText('Harmless text of the leaky book.')).toBeVisible();
  await expect.poll(() => shown(page).locator('html').evaluate(() => document.readyState)).toBe('complete');
  // Fonts are fetched only when text needs them: settled once the page's fonts are.
  await shown(page).locator('html').evaluate(() => document.fonts.ready.then(() => undefined));
  // The page's own policy refused every one of them before it left the browser.
  await expect.poll(() => refused.length).toBeGreaterThanOrEqual(10);
  expect(asked.toSorted()).toEqual(refused.toSorted());
  expect(routed).toEqual([]);
});

test('a 150-chapter novel: next and previous cross chapters, the place is kept as Komga keeps it, and the end marks it read', async ({ page }) => {
  const request = page.context().request;
  const bookId = await openBook(page, 'Long Novel');
  await expect(shown(page).getByText('Marker of novel chapter 1.')).toBeVisible();
  // Through the end of chapter 1 into chapter 2, then back.
  for (let i = 0; i < 40 && (await frames(page).getAttribute('data-resource')) === 'OEBPS/c001.xhtml'; i++) {
    const before = await frames(page).getAttribute('data-position');
    const beforeProgression = await progression(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => `${await frames(page).getAttribute('data-position')}/${await progression(page)}`).not.toBe(`${before}/${beforeProgression}`);
  }
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c002.xhtml');
  await expect(shown(page).getByText('Marker of novel chapter 2.')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c001.xhtml');
  // Back at chapter 1's last page, not its start.
  await expect.poll(() => progression(page)).toBeGreaterThan(0);

  // Chapter 75 from the table of contents; the saved progression is Komga's R2Progression.
  const saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/books/${bookId}/progression`) && (r.postData() ?? '').includes('c075.xhtml'));
  await page.getByRole('button', { name: 'Contents' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Chapter 75', exact: true }).click();
  await expect(shown(page).getByText('Marker of novel chapter 75.')).toBeVisible();
  const body = JSON.parse((await saved).postData() ?? '{}');
  expect(typeof body.modified).toBe('string');
  expect(body.device).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  expect(body.locator).toMatchObject({ type: 'application/xhtml+xml', locations: { progression: expect.any(Number), position: expect.any(Number), totalProgression: expect.any(Number) } });
  expect(new URL(body.locator.href).pathname).toBe(`/api/v1/books/${bookId}/resource/OEBPS/c075.xhtml`);
  expect(body.locator.locations.totalProgression).toBeGreaterThan(0.45);
  expect(body.locator.locations.totalProgression).toBeLessThan(0.55);
  const positions = (await (await request.get(`${folio.url}/api/v1/books/${bookId}/positions`)).json()).positions as { href: string; locations: { position: number } }[];
  const first75 = positions.find((p) => p.href.endsWith('/c075.xhtml'))!;
  expect(body.locator.locations.position).toBe(first75.locations.position);
  // What Komga's clients read back.
  const stored = await (await request.get(`${folio.url}/api/v1/books/${bookId}/progression`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).json();
  expect(stored.locator.href).toBe(body.locator.href);
  expect(stored.locator.locations).toMatchObject({ progression: body.locator.locations.progression, totalProgression: body.locator.locations.totalProgression });
  await expect.poll(async () => (await getBook(request, folio.url, bookId)).readProgress?.page).toBe(first75.locations.position);

  // Reopened: chapter 75.
  await page.reload();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c075.xhtml');

  // The last chapter's last page marks the book read.
  await page.keyboard.press('End');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c150.xhtml');
  await expect.poll(async () => (await getBook(request, folio.url, bookId)).readProgress?.completed).toBe(true);
  expect((await getBook(request, folio.url, bookId)).readProgress?.page).toBe(positions.length);
});

test('settings kept: scrolling layout, font size and theme survive reopening the book', async ({ page }) => {
  await openBook(page, 'Crafted', '?incognito=true');
  await page.getByRole('button', { name: 'Reader settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Layout').selectOption({ label: 'Scrolling' });
  await dialog.getByLabel('Font size').selectOption({ label: '130%' });
  await dialog.getByLabel('Theme').selectOption({ label: 'Dark' });
  await dialog.getByRole('button', { name: 'Close' }).click();
  const html = shown(page).locator('html');
  await expect(html).toHaveAttribute('style', /readium-scroll-on/);
  await page.reload();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect(shown(page).locator('html')).toHaveAttribute('style', /readium-scroll-on/);
  await expect.poll(() => shown(page).locator('html').evaluate((el) => el.style.getPropertyValue('--USER__fontSize'))).toBe('130%');
  await expect.poll(() => shown(page).locator('html').evaluate((el) => el.style.getPropertyValue('--USER__backgroundColor'))).toBe('#121212');
  // Back to the defaults for the other tests.
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Pages' });
  await page.getByRole('dialog').getByLabel('Theme').selectOption({ label: 'Same as the app' });
  await page.getByRole('dialog').getByLabel('Font size').selectOption({ label: '100%' });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(shown(page).locator('html')).not.toHaveAttribute('style', /readium-scroll-on/);
  // The reader still turns after all these changes.
  await turn1(page, 'ArrowRight');
});

test('a short book with a long last chapter is marked read at its last page', async ({ page }) => {
  const request = page.context().request;
  const bookId = await openBook(page, 'Long Ending');
  await page.keyboard.press('End');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/ending.xhtml');
  await expect(shown(page).locator('#q500')).toBeVisible();
  await expect.poll(async () => (await getBook(request, folio.url, bookId)).readProgress?.completed).toBe(true);
});

/** The id of the first numbered paragraph with a line on the screen (a paragraph may run over two pages). */
const firstOnScreen = (page: Page) =>
  shown(page).locator('body').evaluate((body) => {
    const view = body.ownerDocument.defaultView!;
    return [...body.querySelectorAll('p[id]')].find((p) =>
      [...p.getClientRects()].some((box) => box.right > 0 && box.left < view.innerWidth && box.bottom > 0 && box.top < view.innerHeight),
    )?.id;
  });

const onScreen = (page: Page, id: string) =>
  shown(page).locator(`#${id}`).evaluate((p) => {
    const view = p.ownerDocument.defaultView!;
    return [...p.getClientRects()].some((box) => box.right > 0 && box.left < view.innerWidth && box.bottom > 0 && box.top < view.innerHeight);
  });

test('a new font size keeps the text being read on the screen', async ({ page }) => {
  await openBook(page, 'Long Ending', '?incognito=true');
  await page.keyboard.press('End');
  await expect(shown(page).locator('#q500')).toBeVisible();
  // Pages back from the end, in the middle of the long chapter.
  for (let turn = 0; turn < 6; turn++) await turn1(page, 'ArrowLeft');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/ending.xhtml');
  await page.getByRole('button', { name: 'Reader settings' }).click();
  const fontSize = () => shown(page).locator('html').evaluate((html) => html.style.getPropertyValue('--USER__fontSize'));
  // Each size in turn: the paragraph read first before it is still on the screen after it (the
  // page may begin a little earlier, never later).
  for (const size of ['150', '100', '200', '85']) {
    const reading = await firstOnScreen(page);
    expect(reading).toBeDefined();
    await page.getByRole('dialog').getByLabel('Font size').selectOption({ label: `${size}%` });
    await expect.poll(fontSize).toBe(`${size}%`);
    await expect.poll(() => onScreen(page, reading!), { message: `${reading} at ${size} %` }).toBe(true);
    // Still there once the frames' size has settled (a bigger font narrows them; placeKeeper.ts).
    await expect(frames(page)).not.toHaveAttribute('data-resizing', 'true');
    expect(await onScreen(page, reading!), `${reading} at ${size} %, settled`).toBe(true);
  }
});

test('a switch between the Pages and Scrolling layouts shows the chapters without reading and cleaning them again', async ({ page }) => {
  await openBook(page, 'Crafted', '?incognito=true');
  const cleanings = () => page.evaluate(() => performance.getEntriesByName('folio:epub-clean').map((entry) => (entry as PerformanceMeasure).detail?.href as string));
  const opened = await cleanings();
  expect(opened.length).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Scrolling' });
  // The navigator builds every frame anew for a new layout before it shows the first one.
  await expect(shown(page).locator('html')).toHaveAttribute('style', /readium-scroll-on/);
  await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Pages' });
  await expect(shown(page).locator('html')).not.toHaveAttribute('style', /readium-scroll-on/);
  await expect(shown(page).getByText('Marker of the crafted opening.')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  // Each chapter was cleaned once, when it was first read.
  const all = await cleanings();
  expect(all.toSorted()).toEqual([...new Set(all)].toSorted());
});

test('PageDown, Space and Shift+Space turn the pages', async ({ page }) => {
  await openBook(page, 'Long Ending', '?incognito=true');
  await page.keyboard.press('Home');
  await expect(frames(page)).toHaveAttribute('data-position', '1');
  const place = async () => `${await frames(page).getAttribute('data-resource')} ${await progression(page)}`;
  const start = await place();
  await turn1(page, 'PageDown');
  const one = await place();
  await turn1(page, 'Space');
  await turn1(page, 'Shift+Space');
  expect(await place()).toBe(one);
  await turn1(page, 'PageUp');
  expect(await place()).toBe(start);
});

test('a vertical book turns forward with Space and Page Down, back with Page Up', async ({ page }) => {
  await openBook(page, 'Tategaki', '?incognito=true');
  await expect(shown(page).getByRole('heading', { name: '第1章' })).toBeVisible();
  const scrollLeft = () => shown(page).locator('body').evaluate((body) => body.scrollLeft);
  await page.keyboard.press('Space');
  await expect.poll(scrollLeft).toBeLessThan(-100);
  const one = await scrollLeft();
  await page.keyboard.press('PageDown');
  await expect.poll(scrollLeft).toBeLessThan(one - 100);
  await page.keyboard.press('PageUp');
  await expect.poll(scrollLeft).toBe(one);
});

test('Shift+→ jumps to the start of the next chapter; the keyboard help lists the chapter keys', async ({ page }) => {
  await openBook(page, 'Long Novel', '?incognito=true');
  await page.keyboard.press('Home');
  await expect(frames(page)).toHaveAttribute('data-position', '1');
  // A press while the turn settles is dropped as a page key's is (see turn1).
  await turn1(page, 'Shift+ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', /c002\.xhtml$/);
  await expect.poll(() => progression(page)).toBe(0);
  await expect(shown(page).getByText('Marker of novel chapter 2.')).toBeInViewport();
  // The keyboard help lists the keys.
  await page.keyboard.press('h');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('row', { name: 'Shift+← Shift+→ Previous / next chapter (mirrored right to left)' })).toBeVisible();
});

test('Shift+← back from chapter 2 and Home from chapter 2 land on chapter 1\'s start, and the next key still turns', async ({ page }) => {
  await openBook(page, 'Long Novel', '?incognito=true');
  await page.keyboard.press('Home');
  await expect(frames(page)).toHaveAttribute('data-position', '1');
  await turn1(page, 'Shift+ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', /c002\.xhtml$/);
  // Back: the navigator drops chapter 2's frame (the one shown) while it hides it for chapter 1's.
  await turn1(page, 'Shift+ArrowLeft');
  await expect(frames(page)).toHaveAttribute('data-resource', /c001\.xhtml$/);
  await expect(frames(page)).toHaveAttribute('data-position', '1');
  await expect(shown(page).getByText('Marker of novel chapter 1.')).toBeInViewport();
  // The jump finished: a page key turns again (one that never finished holds the navigator).
  await turn1(page, 'ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', /c001\.xhtml$/);
  expect(await progression(page)).toBeGreaterThan(0);
  // Home from inside chapter 2.
  await turn1(page, 'Shift+ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', /c002\.xhtml$/);
  await turn1(page, 'ArrowRight');
  await turn1(page, 'Home');
  await expect(frames(page)).toHaveAttribute('data-position', '1');
  await expect(shown(page).getByText('Marker of novel chapter 1.')).toBeInViewport();
  await turn1(page, 'ArrowRight');
  expect(await progression(page)).toBeGreaterThan(0);
  // Chapter 1 from the contents, from chapter 2.
  await turn1(page, 'Shift+ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', /c002\.xhtml$/);
  await page.getByRole('button', { name: 'Contents' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Chapter 1', exact: true }).click();
  await expect(frames(page)).toHaveAttribute('data-position', '1');
  await turn1(page, 'ArrowRight');
  expect(await progression(page)).toBeGreaterThan(0);
});

test('the contents of a long novel open at the chapter being read, focused, not at the first chapter', async ({ page }) => {
  await openBook(page, 'Long Novel', '?incognito=true');
  const contents = page.getByRole('button', { name: 'Contents' });
  await contents.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Chapter 75', exact: true }).click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c075.xhtml');
  // Opened again by keyboard: the chapter being read is on screen and has the focus (Tab and
  // Shift+Tab reach its neighbours), not the first of 150 entries.
  await contents.focus();
  await page.keyboard.press('Enter');
  const current = page.getByRole('dialog').getByRole('button', { name: 'Chapter 75', exact: true });
  await expect(current).toHaveAttribute('aria-current', 'true');
  await expect(current).toBeFocused();
  await expect(current).toBeInViewport();
});

test('what a book pins to the window (position fixed or sticky) stays in its place in the text, not over every page', async ({ page }) => {
  await openBook(page, 'Pinned', '?incognito=true');
  await expect(shown(page).getByText('Marker of pinned chapter 1.')).toBeVisible();
  const onScreen = (id: string) =>
    shown(page).locator(`#${id}`).evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.right > 0 && box.left < element.ownerDocument.defaultView!.innerWidth;
    });
  await expect.poll(() => onScreen('banner1')).toBe(true);
  await turn1(page, 'ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0001.xhtml');
  // The next page of the chapter shows its text alone: the banner and the heading stayed on the first.
  expect(await onScreen('banner1')).toBe(false);
  expect(await onScreen('sticky1')).toBe(false);
});

test('in the Scrolling layout a book\'s ordinary table keeps its table layout: the text\'s full width, its caption above, its columns aligned', async ({ page }) => {
  await openBook(page, 'Wide Blocks', '?incognito=true');
  // At the default font size: the reader scales the text (and its measures) by the font size an
  // earlier test may have left chosen, which the ratio below would read as a narrower table.
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Font size').selectOption({ label: '100%' });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => shown(page).locator('html').evaluate((html) => html.style.getPropertyValue('--USER__fontSize'))).toBe('100%');
  await chooseLayout(page, 'Scrolling');
  await expect.poll(() => bookTableLayout(page)).toEqual(NORMAL_TABLE);
  // The table wider than the text still scrolls sideways in its own box.
  await expect.poll(() => shown(page).locator('#wide-table').evaluate((table) => table.scrollWidth - table.clientWidth)).toBeGreaterThan(100);
  await chooseLayout(page, 'Pages');
});

test.describe('on a phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  test('a phone reader opens a chapter, turns by tap and keeps the page counter in the bar', async ({ page }) => {
    await openBook(page, 'Long Novel', '?incognito=true');
    await page.keyboard.press('Home');
    await expect(frames(page)).toHaveAttribute('data-position', '1');
    await expect(shown(page).getByText('Marker of novel chapter 1.')).toBeInViewport();
    const start = await progression(page);
    const box = (await frames(page).boundingBox())!;
    await page.touchscreen.tap(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect.poll(() => progression(page)).toBeGreaterThan(start);
    await page.touchscreen.tap(box.x + box.width * 0.1, box.y + box.height / 2);
    await expect.poll(() => progression(page)).toBe(start);
    // The text fits the phone: no column wider than the screen.
    expect(await shown(page).locator('html').evaluate(() => window.innerWidth)).toBeLessThanOrEqual(390);
  });

  test('a vertical book goes forward with a swipe to the right (it reads right to left), back with one to the left', async ({ page }) => {
    const bookId = await openBook(page, 'Tategaki', '?incognito=true');
    await expect(shown(page).getByRole('heading', { name: '第1章' })).toBeVisible();
    const scrollLeft = () => shown(page).locator('body').evaluate((body) => body.scrollLeft);
    const box = (await frames(page).boundingBox())!;
    const y = box.y + box.height / 2;
    await swipe(page, { x: box.x + box.width * 0.2, y }, { x: box.x + box.width * 0.8, y });
    await expect.poll(scrollLeft).toBeLessThan(-100);
    const one = await scrollLeft();
    // Still in the reader (the browser's history gesture once took such a swipe).
    expect(page.url()).toContain(`/book/${bookId}/read`);
    await swipe(page, { x: box.x + box.width * 0.8, y }, { x: box.x + box.width * 0.2, y });
    await expect.poll(scrollLeft).toBeGreaterThan(one);
  });

  test('in the Scrolling layout a sideways swipe keeps the reader on its address and place; an upward one still scrolls', async ({ page }) => {
    const bookId = await openBook(page, 'Long Novel', '?incognito=true');
    await page.keyboard.press('Home');
    await expect(frames(page)).toHaveAttribute('data-position', '1');
    await page.getByRole('button', { name: 'Reader settings' }).click();
    await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Scrolling' });
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(shown(page).locator('html')).toHaveAttribute('style', /readium-scroll-on/);
    await expect(shown(page).getByText('Marker of novel chapter 1.')).toBeInViewport();
    const address = page.url();
    // Any navigation of the page itself (the browser's history gesture once took such a swipe).
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    const scrollTop = () => shown(page).locator('html').evaluate((html) => html.ownerDocument.scrollingElement!.scrollTop);
    const resource = await frames(page).getAttribute('data-resource');
    const top = await scrollTop();
    const box = (await frames(page).boundingBox())!;
    const y = box.y + box.height / 2;
    // To the right (history back in a left-to-right page), then to the left (forward).
    await swipe(page, { x: box.x + box.width * 0.2, y }, { x: box.x + box.width * 0.8, y });
    await swipe(page, { x: box.x + box.width * 0.8, y }, { x: box.x + box.width * 0.2, y });
    // An upward swipe still scrolls the chapter: once it has, the sideways ones are long handled
    // (the browser takes touch input in order), and had one of them left, this frame would be gone.
    const x = box.x + box.width / 2;
    await swipe(page, { x, y: box.y + box.height * 0.7 }, { x, y: box.y + box.height * 0.3 });
    await expect.poll(scrollTop).toBeGreaterThan(top + 50);
    expect(navigations).toEqual([]);
    expect(page.url()).toBe(address);
    expect(page.url()).toContain(`/book/${bookId}/read`);
    await expect(frames(page)).toHaveAttribute('data-resource', resource!);
    // Back to the defaults for the other tests.
    await page.getByRole('button', { name: 'Reader settings' }).click();
    await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Pages' });
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(shown(page).locator('html')).not.toHaveAttribute('style', /readium-scroll-on/);
  });

  test('in the Scrolling layout a wide code listing pans sideways inside its box; a sideways swipe over the text still keeps the reader in place', async ({ page }) => {
    await openBook(page, 'Wide Blocks', '?incognito=true');
    await page.getByRole('button', { name: 'Reader settings' }).click();
    await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Scrolling' });
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(shown(page).locator('html')).toHaveAttribute('style', /readium-scroll-on/);
    const pre = shown(page).locator('#wide-pre');
    await expect(pre).toBeInViewport();
    // Its line is wider than the screen (not wrapped).
    expect(await pre.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeGreaterThan(100);
    const address = page.url();
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    const preLeft = () => pre.evaluate((element) => element.scrollLeft);
    const pageLeft = () => shown(page).locator('html').evaluate((html) => html.ownerDocument.scrollingElement!.scrollLeft);
    // A sideways swipe over the paragraph above the listing (boxes in the main page's coordinates).
    const text = (await shown(page).locator('#before-wide').boundingBox())!;
    const frame = (await frames(page).boundingBox())!;
    const textY = text.y + text.height / 2;
    await swipe(page, { x: frame.x + frame.width * 0.2, y: textY }, { x: frame.x + frame.width * 0.8, y: textY });
    // A leftward drag over the listing shows more of its line.
    const box = (await pre.boundingBox())!;
    const y = box.y + box.height / 2;
    await swipe(page, { x: frame.x + frame.width * 0.8, y }, { x: frame.x + frame.width * 0.2, y }, 10);
    await expect.poll(preLeft).toBeGreaterThan(50);
    // So does one over the table.
    const table = shown(page).locator('#wide-table');
    const tableBox = (await table.boundingBox())!;
    const tableY = tableBox.y + tableBox.height / 2;
    await swipe(page, { x: frame.x + frame.width * 0.8, y: tableY }, { x: frame.x + frame.width * 0.2, y: tableY }, 10);
    await expect.poll(() => table.evaluate((element) => element.scrollLeft)).toBeGreaterThan(50);
    // The book's ordinary table, narrower than the screen, is still a table as the book lays it out.
    await expect.poll(() => bookTableLayout(page)).toEqual(NORMAL_TABLE);
    // The page itself does not move sideways, nor leave (the swipe over the text came first: the browser takes touch input in order).
    expect(await pageLeft()).toBe(0);
    expect(navigations).toEqual([]);
    expect(page.url()).toBe(address);
    // Back to the defaults for the other tests.
    await page.getByRole('button', { name: 'Reader settings' }).click();
    await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Pages' });
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(shown(page).locator('html')).not.toHaveAttribute('style', /readium-scroll-on/);
  });
});
