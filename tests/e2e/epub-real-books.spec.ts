import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { opfXml, prose as fourSentenceProse, writeEpub } from '../fixtures/epub.ts';
import { findBook, getBook } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { adminWithLibrary, epubFrames, shownFrame } from './support/epub-library.ts';

/**
 * Novels as they come in the wild, read in Folio's EPUB reader against the real server: damaged
 * packages and chapters that are not clean XHTML must still read from the first page to the last.
 */
let folio: RunningFolio;
let libraryRoot: string;

const NS = 'xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"';
const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html ${NS}><head><title>${title}</title></head>\n<body>${body}</body></html>\n`;

/**
 * A damaged novel: HTML entities XHTML does not declare, a spine item lost from the zip, one whose
 * href leads out of it, an ISO-8859-1 chapter, a chapter without the XHTML namespace and with
 * unclosed tags.
 */
async function writeDamagedNovel(file: string): Promise<void> {
  await writeEpub(file, [
    { name: 'OEBPS/a.xhtml', data: xhtml('A', '<h1>Entities</h1><p>ENTITY-CHAPTER&nbsp;with&mdash;dashes &hellip; &copy; 2020.</p>') },
    {
      name: 'OEBPS/b.xhtml',
      data: Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>\n<html ${NS}><head><title>B</title></head><body><h1>Latin</h1><p>LATIN-CHAPTER caf\u00e9 \u00e0 la fran\u00e7aise.</p></body></html>`, 'latin1'),
    },
    { name: 'OEBPS/c.xhtml', data: '<?xml version="1.0" encoding="UTF-8"?>\n<html><head><title>C</title></head><body><h1>Unclosed</h1><p>UNCLOSED-CHAPTER<br> line<p>LAST LINE OF C</body></html>' },
    { name: 'OEBPS/d.xhtml', data: xhtml('D', '<h1>Last</h1><p>LAST-CHAPTER</p>') },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Damaged</dc:title><dc:language>en</dc:language>',
        manifest: [
          { id: 'a', href: 'a.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'lost', href: 'lost.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'outside', href: '../../etc/passwd', mediaType: 'application/xhtml+xml' },
          { id: 'b', href: 'b.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'c', href: 'c.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'd', href: 'd.xhtml', mediaType: 'application/xhtml+xml' },
        ],
        spine: ['a', 'lost', 'outside', 'b', 'c', 'd'],
      }),
    },
  ]);
}

const prose = (n: number) => '<p>It was a dark and stormy night; the rain fell in torrents.</p>'.repeat(n);

/** A novel with footnotes: references in two chapters to notes at the end of a long notes file, and links back. */
async function writeFootnotedNovel(file: string): Promise<void> {
  const chapter = (n: number) =>
    xhtml(`Chapter ${n}`, `<h1>Chapter ${n}</h1>${prose(10)}<p>A remark<a epub:type="noteref" id="ref${n}" href="notes.xhtml#note${n}">${n}</a> in chapter ${n}.</p>${prose(15)}`);
  const notes = xhtml('Notes', `<h1>Notes</h1>${prose(150)}${[1, 2].map((n) => `<aside epub:type="footnote" id="note${n}"><p><a href="ch${n}.xhtml#ref${n}">${n}.</a> NOTE-TEXT-${n}</p></aside>`).join('')}`);
  await writeEpub(file, [
    { name: 'OEBPS/text/ch1.xhtml', data: chapter(1) },
    { name: 'OEBPS/text/ch2.xhtml', data: chapter(2) },
    { name: 'OEBPS/text/notes.xhtml', data: notes },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Footnoted</dc:title><dc:language>en</dc:language>',
        manifest: ['ch1', 'ch2', 'notes'].map((id) => ({ id, href: `text/${id}.xhtml`, mediaType: 'application/xhtml+xml' })),
        spine: ['ch1', 'ch2', 'notes'],
      }),
    },
  ]);
}

/** A novel whose paragraphs can be told apart (each has its id and number). */
async function writeNumberedNovel(file: string, title = 'Numbered', count = 400): Promise<void> {
  const paragraphs = Array.from({ length: count }, (_, i) => `<p id="p${i + 1}">Paragraph ${i + 1}: it was a dark and stormy night; the rain fell in torrents.</p>`).join('');
  await writeEpub(file, [
    { name: 'OEBPS/text/ch1.xhtml', data: xhtml('One', `<h1>One</h1>${paragraphs}`) },
    { name: 'OEBPS/text/ch2.xhtml', data: xhtml('Two', `<h1>Two</h1>${prose(30)}`) },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: `<dc:title>${title}</dc:title><dc:language>en</dc:language>`,
        manifest: ['ch1', 'ch2'].map((id) => ({ id, href: `text/${id}.xhtml`, mediaType: 'application/xhtml+xml' })),
        spine: ['ch1', 'ch2'],
      }),
    },
  ]);
}

/**
 * A novel whose table of contents and text link to what no reader can show: its navigation
 * document itself, which the spine leaves out (as many books' "Contents" entries do), and a
 * chapter lost from the zip.
 */
async function writeDeadLinks(file: string): Promise<void> {
  await writeEpub(file, [
    { name: 'OEBPS/c1.xhtml', data: xhtml('One', `<h1>One</h1><p>DEAD-LINKS-ONE <a id="lost-link" href="lost.xhtml">the lost chapter</a></p>${prose(40)}`) },
    { name: 'OEBPS/c2.xhtml', data: xhtml('Two', '<h1>Two</h1><p>DEAD-LINKS-TWO</p>') },
    {
      name: 'OEBPS/nav.xhtml',
      data: xhtml('Contents', '<nav epub:type="toc"><ol><li><a href="nav.xhtml">Table of Contents</a></li><li><a href="c1.xhtml">One</a></li><li><a href="lost.xhtml">Lost Chapter</a></li><li><a href="c2.xhtml">Two</a></li></ol></nav>'),
    },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Dead Links</dc:title><dc:language>en</dc:language>',
        manifest: [
          { id: 'c1', href: 'c1.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'c2', href: 'c2.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
        ],
        spine: ['c1', 'c2'],
      }),
    },
  ]);
}

/** A novel of many chapters of a few pages each: page turns often load another chapter. */
async function writeShortChapters(file: string): Promise<void> {
  const ids = Array.from({ length: 40 }, (_, i) => `c${i + 1}`);
  await writeEpub(file, [
    ...ids.map((id, i) => ({ name: `OEBPS/text/${id}.xhtml`, data: xhtml(id, `<h1>Short ${i + 1}</h1>${fourSentenceProse(8000)}`) })),
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Short Chapters</dc:title><dc:language>en</dc:language>',
        manifest: ids.map((id) => ({ id, href: `text/${id}.xhtml`, mediaType: 'application/xhtml+xml' })),
        spine: ids,
      }),
    },
  ]);
}

/** A fixed-layout text book (a picture book, a cookbook): pages of 600 × 800 CSS pixels each. */
async function writeFixedLayout(file: string): Promise<void> {
  const ids = ['p1', 'p2', 'p3'];
  await writeEpub(file, [
    ...ids.map((id) => ({
      name: `OEBPS/${id}.xhtml`,
      data: `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html ${NS}><head><title>${id}</title><meta name="viewport" content="width=600, height=800"/><meta http-equiv="refresh" content="0;url=https://example.org/"/><style>body { margin: 0; width: 600px; height: 800px; background: rgb(238, 238, 255); }</style></head><body><h1>FIXED ${id}</h1></body></html>`,
    })),
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Fixed Pages</dc:title><dc:language>en</dc:language><meta property="rendition:layout">pre-paginated</meta>',
        manifest: ids.map((id) => ({ id, href: `${id}.xhtml`, mediaType: 'application/xhtml+xml' })),
        spine: ids,
      }),
    },
  ]);
}

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-real-books-'));
  await writeFixedLayout(path.join(libraryRoot, 'Fixed', 'Fixed Pages.epub'));
  await writeShortChapters(path.join(libraryRoot, 'Short', 'Short Chapters.epub'));
  await writeNumberedNovel(path.join(libraryRoot, 'Numbered', 'Numbered.epub'));
  await writeNumberedNovel(path.join(libraryRoot, 'Counted', 'Counted.epub'), 'Counted', 290);
  await writeDamagedNovel(path.join(libraryRoot, 'Damaged', 'Damaged.epub'));
  await writeFootnotedNovel(path.join(libraryRoot, 'Footnoted', 'Footnoted.epub'));
  await writeDeadLinks(path.join(libraryRoot, 'Dead Links', 'Dead Links.epub'));
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test.beforeEach(adminWithLibrary(() => folio.url, () => libraryRoot));

const frames = epubFrames;
const shown = shownFrame;

/**
 * Whether an element of the book is on the screen. (Playwright's toBeInViewport measures inside the
 * frame, whose columns beside the first all count as out of view.)
 */
async function onScreen(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const viewport = page.viewportSize();
  return box !== null && viewport !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
}

async function openBook(page: Page, name: string, query = ''): Promise<void> {
  const book = await findBook(page.context().request, folio.url, name);
  await page.goto(`${folio.url}/book/${book.id}/read${query}`);
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
}

test('a damaged novel reads from its first chapter to its last, every chapter whole', async ({ page }) => {
  await openBook(page, 'Damaged');
  await expect(shown(page).getByText('ENTITY-CHAPTER\u00a0with\u2014dashes \u2026 \u00a9 2020.')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/b.xhtml');
  await expect(shown(page).getByText('LATIN-CHAPTER caf\u00e9 \u00e0 la fran\u00e7aise.')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c.xhtml');
  await expect(shown(page).getByText('LAST LINE OF C')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/d.xhtml');
  await expect(shown(page).getByText('LAST-CHAPTER')).toBeVisible();
  await expect(page.getByTestId('reader-page-counter')).toHaveText(/^Page (\d+) of \1$/);
});

test('a footnote reference shows its note in the notes file, and the note links back, all in the reader', async ({ page }) => {
  await openBook(page, 'Footnoted');
  await page.keyboard.press('ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch2.xhtml');
  const tabs = page.context().pages().length;
  await shown(page).locator('#ref2').click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/notes.xhtml');
  await expect.poll(() => onScreen(page, shown(page).getByText('NOTE-TEXT-2'))).toBe(true);
  await shown(page).getByRole('link', { name: '2.' }).click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch2.xhtml');
  await expect.poll(() => onScreen(page, shown(page).locator('#ref2'))).toBe(true);
  expect(page.context().pages()).toHaveLength(tabs);
});

test('the page the reader shows is the page the book screen shows once it is saved, turn after turn', async ({ page }) => {
  const request = page.context().request;
  const book = await findBook(request, folio.url, 'Counted');
  const savedProgressions: number[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'PUT' && response.url().endsWith(`/books/${book.id}/progression`) && response.ok()) {
      savedProgressions.push(JSON.parse(response.request().postData() ?? '{}').locator.locations.progression);
    }
  });
  await openBook(page, 'Counted');
  const counter = page.getByTestId('reader-page-counter');
  // A screen rarely starts where a position (1,024 bytes of the chapter) starts: the page named is
  // the one holding the screen's first line, as the server counts the page it stores.
  for (let turn = 1; turn <= 5; turn++) {
    const before = await frames(page).getAttribute('data-progression');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => frames(page).getAttribute('data-progression')).not.toBe(before);
    const progression = Number(await frames(page).getAttribute('data-progression'));
    await expect.poll(() => savedProgressions.includes(progression)).toBe(true);
    const shownPage = Number(/^Page (\d+) of \d+$/.exec((await counter.textContent()) ?? '')?.[1]);
    expect({ turn, page: (await getBook(request, folio.url, book.id)).readProgress?.page }).toEqual({ turn, page: shownPage });
  }
});

test('a contents entry or a link leading to what the reader cannot show says so, and the reader stays where it was', async ({ page }) => {
  await openBook(page, 'Dead Links');
  const notice = page.getByTestId('reader-edge-message');
  const pick = async (entry: string) => {
    await page.getByRole('button', { name: 'Contents' }).click();
    await page.getByRole('dialog').getByRole('button', { name: entry, exact: true }).click();
  };
  await pick('Two');
  await expect(shown(page).getByText('DEAD-LINKS-TWO')).toBeVisible();
  for (const entry of ['Table of Contents', 'Lost Chapter']) {
    await pick(entry);
    await expect(notice).toContainText('This link leads to a part of the book that cannot be shown.');
    await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c2.xhtml');
    await expect(shown(page).getByText('DEAD-LINKS-TWO')).toBeVisible();
    // Gone before the next entry, so that the next notice is its own.
    await page.mouse.move(0, 0);
    await expect(notice).toHaveCount(0, { timeout: 30_000 });
  }
  await pick('One');
  await expect(shown(page).getByText('DEAD-LINKS-ONE')).toBeVisible();
  await shown(page).locator('#lost-link').click();
  await expect(notice).toContainText('This link leads to a part of the book that cannot be shown.');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/c1.xhtml');
});

test('a held arrow key turns page after page and leaves no chapter frames behind', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openBook(page, 'Short Chapters');
  // A held key: repeated key presses, faster than chapters load.
  for (let repeat = 0; repeat < 80; repeat++) await page.keyboard.down('ArrowRight');
  await page.keyboard.up('ArrowRight');
  await expect.poll(() => frames(page).getAttribute('data-position').then(Number)).toBeGreaterThan(3);
  // The navigator keeps the chapter shown and a neighbour or two (those within a few positions), no more.
  await expect.poll(() => frames(page).locator('iframe').count()).toBeLessThanOrEqual(3);
  // Reading goes on from there.
  const position = Number(await frames(page).getAttribute('data-position'));
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => frames(page).getAttribute('data-position').then(Number)).toBeGreaterThan(position);
  expect(errors).toEqual([]);
});

test('a fixed-layout book shows each page whole, at its own size scaled to the screen, with its own background', async ({ page }) => {
  await openBook(page, 'Fixed Pages');
  // FXL frames are all in place (hidden ones off to the side); the first page is the first frame.
  const frame = page.locator('[data-testid="epub-frames"] iframe[data-original-href$="/p1.xhtml"]');
  await expect(frame).toHaveAttribute('style', /width: 600px/);
  await expect(frame).toHaveAttribute('style', /scale\(/);
  const box = await frame.boundingBox();
  const stage = await frames(page).boundingBox();
  expect(box && stage && box.height <= stage.height + 1 && box.y >= stage.y - 1).toBe(true);
  const content = page.frameLocator('[data-testid="epub-frames"] iframe[data-original-href$="/p1.xhtml"]');
  await expect(content.locator('body')).toHaveCSS('background-color', 'rgb(238, 238, 255)');
  await expect(content.getByRole('heading', { name: 'FIXED p1' })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });

  /** The id of the paragraph at the middle of the screen. */
  const middleParagraph = (page: Page) =>
    shown(page).locator('body').evaluate((body) => {
      const view = body.ownerDocument.defaultView!;
      return body.ownerDocument.elementFromPoint(view.innerWidth / 2, view.innerHeight / 2)?.closest('p')?.id ?? null;
    });

  test('a fixed-layout book held upright turns one page a tap and reaches its last page', async ({ page }) => {
    await openBook(page, 'Fixed Pages', '?incognito=true');
    await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/p1.xhtml');
    const counter = page.getByTestId('reader-page-counter');
    const stage = (await frames(page).boundingBox())!;
    const tapRight = () => page.touchscreen.tap(stage.x + stage.width - 20, stage.y + stage.height / 2);
    const pageFrame = (id: string) => page.locator(`[data-testid="epub-frames"] iframe[data-original-href$="/${id}.xhtml"]`);
    await tapRight();
    // One page a screen upright: the navigator took the two-page spread p2-p3 as what was shown,
    // said "page 3 of 3" over page 2 and offered no way on to page 3.
    await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/p2.xhtml');
    await expect(counter).toHaveText('Page 2 of 3');
    await expect.poll(() => onScreen(page, pageFrame('p2'))).toBe(true);
    await tapRight();
    await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/p3.xhtml');
    await expect(counter).toHaveText('Page 3 of 3');
    await expect.poll(() => onScreen(page, pageFrame('p3'))).toBe(true);
  });

  test('a fixed-layout book held sideways turns by a tap on the bands beside its pages, which no page covers', async ({ page }) => {
    await page.setViewportSize({ width: 844, height: 390 });
    await openBook(page, 'Fixed Pages', '?incognito=true');
    await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/p1.xhtml');
    const stage = (await frames(page).boundingBox())!;
    const first = (await page.locator('[data-testid="epub-frames"] iframe[data-original-href$="/p1.xhtml"]').boundingBox())!;
    // The band right of the first page: nothing of the book there.
    expect(first.x + first.width).toBeLessThan(stage.x + stage.width - 40);
    await page.touchscreen.tap(stage.x + stage.width - 15, stage.y + stage.height / 2);
    await expect(page.getByTestId('reader-page-counter')).toHaveText('Page 3 of 3');
    const pageFrame = (id: string) => page.locator(`[data-testid="epub-frames"] iframe[data-original-href$="/${id}.xhtml"]`);
    await expect.poll(() => onScreen(page, pageFrame('p3'))).toBe(true);
    // The band left of the spread goes back to the first page. (The counter is not checked here:
    // back from the spread holding the last page it stays at 3, a known gap of its own.)
    await page.touchscreen.tap(stage.x + 15, stage.y + stage.height / 2);
    await expect.poll(() => onScreen(page, pageFrame('p1'))).toBe(true);
  });

  test('turning the phone to landscape and back keeps the page being read', async ({ page }) => {
    await openBook(page, 'Numbered');
    for (let turn = 1; turn <= 6; turn++) {
      const before = Number(await frames(page).getAttribute('data-progression'));
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => frames(page).getAttribute('data-progression').then(Number)).toBeGreaterThan(before);
    }
    const progression = await frames(page).getAttribute('data-progression');
    const reading = await middleParagraph(page);
    expect(reading).toMatch(/^p\d+$/);
    const paragraph = shown(page).locator(`#${reading}`);

    await page.setViewportSize({ width: 844, height: 390 });
    await expect.poll(() => onScreen(page, paragraph), { timeout: 5000 }).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => frames(page).getAttribute('data-progression')).toBe(progression);
    await expect.poll(() => onScreen(page, paragraph)).toBe(true);
  });
});

test('in the scrolled layout, Space and the arrows scroll a screen at a time and cross chapters only at their ends', async ({ page }) => {
  await openBook(page, 'Numbered');
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Scrolling' });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(shown(page).locator('html')).toHaveAttribute('style', /readium-scroll-on/);
  const scrollTop = () => shown(page).locator('html').evaluate((html) => html.ownerDocument.scrollingElement?.scrollTop ?? 0);

  // Space: the next screen of the same chapter, the last lines of the one before still in view.
  const top = await scrollTop();
  const lastRead = await shown(page).locator('body').evaluate((body) => {
    const view = body.ownerDocument.defaultView!;
    return [...body.querySelectorAll('p')].filter((p) => p.getBoundingClientRect().bottom <= view.innerHeight).at(-1)?.id;
  });
  await page.keyboard.press('Space');
  await expect.poll(scrollTop).toBeGreaterThan(top);
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch1.xhtml');
  await expect.poll(() => onScreen(page, shown(page).locator(`#${lastRead}`))).toBe(true);

  // At the chapter's end the next press opens the next chapter; back from its start shows the end of the first.
  for (let press = 0; press < 80 && (await frames(page).getAttribute('data-resource')) === 'OEBPS/text/ch1.xhtml'; press++) {
    const before = await frames(page).getAttribute('data-progression');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => frames(page).getAttribute('data-progression')).not.toBe(before);
  }
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch2.xhtml');
  await page.keyboard.press('ArrowLeft');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch1.xhtml');
  await expect.poll(() => onScreen(page, shown(page).locator('#p400'))).toBe(true);

  // The layout is kept per user: back to pages for the other tests.
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Layout').selectOption({ label: 'Pages' });
});
