import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BLUE, RED } from '../fixtures/comics.ts';
import { createReflowableEpub, prose, type ReflowableChapter } from '../fixtures/epub.ts';
import { ADMIN, findBook, getBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { adminWithLibrary, epubFrames, shownFrame } from './support/epub-library.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { swipe as swipeAcross } from './support/touch.ts';

/**
 * The EPUB reader against the real server, in real Chromium: books generated here (EPUB 3 with a nav
 * TOC and images, EPUB 2 with an NCX, Arabic right to left, vertical Japanese, 1,000 chapters, a
 * book carrying scripts), read through the WebPub manifest, positions and progression routes.
 */
let folio: RunningFolio;
let libraryRoot: string;

const chapter = (title: string, marker: string, bytes = 6000): ReflowableChapter => ({
  title,
  body: `<h1>${title}</h1><p>${marker}</p>${prose(bytes)}`,
});

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-epub-'));
  const novels = path.join(libraryRoot, 'Novels');
  await createReflowableEpub(
    path.join(novels, 'Novels 2 - Illustrated.epub'),
    [
      { title: 'The Beginning', body: `<h1>The Beginning</h1><p>Opening words of the illustrated book.</p><img src="../images/red.png" alt="A red plate"/>${prose(6000)}` },
      chapter('The Road', 'Marker of the road chapter.'),
      { title: 'The Harbour', body: `<h1>The Harbour</h1><p>Marker of the harbour chapter.</p><img src="../images/blue.png" alt="A blue plate"/>${prose(6000)}` },
      chapter('The End', 'Marker of the last chapter.', 1500),
    ],
    {
      title: 'Illustrated',
      images: [
        { name: 'red.png', spec: { width: 300, height: 200, color: RED, format: 'png' } },
        { name: 'blue.png', spec: { width: 300, height: 200, color: BLUE, format: 'png' } },
      ],
    },
  );
  await createReflowableEpub(
    path.join(novels, 'Novels 1 - Classic.epub'),
    [chapter('Prologue', 'Classic prologue marker.', 3000), chapter('Epilogue', 'Classic epilogue marker.', 1500)],
    { title: 'Classic', version: '2.0' },
  );
  await createReflowableEpub(
    path.join(libraryRoot, 'Arabic', 'Arabic.epub'),
    [1, 2].map((n) => ({
      title: `الفصل ${n}`,
      body: `<h1>الفصل ${n}</h1>${prose(8000, 'كانت ليلة مظلمة وعاصفة، والمطر ينهمر بغزارة. ')}`,
    })),
    { title: 'كتاب عربي', language: 'ar', pageProgression: 'rtl' },
  );
  await createReflowableEpub(
    path.join(libraryRoot, 'Japanese', 'Vertical.epub'),
    [1, 2].map((n) => ({ title: `第${n}章`, body: `<h1>第${n}章</h1>${prose(6000, '暗い嵐の夜だった。雨が激しく降っていた。')}` })),
    { title: '縦書きの本', language: 'ja', pageProgression: 'rtl', css: 'html { writing-mode: vertical-rl; -webkit-writing-mode: vertical-rl; }' },
  );
  await createReflowableEpub(
    path.join(libraryRoot, 'Long', 'Long.epub'),
    Array.from({ length: 1000 }, (_, i) => chapter(`Part ${i + 1}`, `Marker of part ${i + 1}.`, 5000)),
    { title: 'Long' },
  );
  const section = (id: string, title: string) => `<h2 id="${id}">${title}</h2><p>Marker of ${title.toLowerCase()}.</p>${prose(9000)}`;
  await createReflowableEpub(
    path.join(libraryRoot, 'Sections', 'Sections.epub'),
    [
      {
        title: 'The Voyage',
        body: `<h1>The Voyage</h1>${section('departure', 'Departure')}${section('storm', 'Storm')}${section('landfall', 'Landfall')}`,
        sections: [
          { id: 'departure', title: 'Departure' },
          { id: 'storm', title: 'Storm' },
          { id: 'landfall', title: 'Landfall' },
        ],
      },
      chapter('Home Again', 'Marker of the homecoming.'),
    ],
    { title: 'Sections' },
  );
  await createReflowableEpub(
    path.join(libraryRoot, 'Short', 'Short.epub'),
    Array.from({ length: 30 }, (_, i) => ({ title: `Note ${i + 1}`, body: `<h1>Note ${i + 1}</h1><p>Marker of note ${i + 1}.</p>` })),
    { title: 'Short' },
  );
  await createReflowableEpub(
    path.join(libraryRoot, 'Huge', 'Huge.epub'),
    [{ title: 'One long chapter', body: `<h1>One long chapter</h1><p>Marker of the huge chapter.</p>${prose(2_000_000)}` }],
    { title: 'Huge' },
  );
  await createReflowableEpub(
    path.join(libraryRoot, 'Scripted', 'Scripted.epub'),
    [
      {
        title: 'Traps',
        body: [
          '<h1>Traps</h1><p>Harmless text of the scripted book.</p>',
          '<script>window.top.__pwned = "inline"; document.title = "pwned";</script>',
          '<img src="../missing.png" alt="" onerror="window.top.__pwned = \'onerror\'"/>',
          '<a id="js-link" href="javascript:window.top.__pwned = \'link\'">a link</a>',
          '<iframe srcdoc="&lt;script&gt;window.top.__pwned = \'srcdoc\'&lt;/script&gt;"></iframe>',
          '<svg xmlns="http://www.w3.org/2000/svg" onload="window.top.__pwned = \'svg\'"><circle r="5"/></svg>',
          prose(2000),
        ].join('\n'),
      },
    ],
    { title: 'Scripted', head: '<script src="../evil.js"></script>' },
  );
  folio = await startFolio();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test.beforeEach(adminWithLibrary(() => folio.url, () => libraryRoot));

const frames = epubFrames;
const shown = shownFrame;

async function openBook(page: Page, name: string, query = ''): Promise<string> {
  const book = await findBook(page.context().request, folio.url, name);
  await page.goto(`${folio.url}/book/${book.id}/read${query}`);
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  return book.id;
}

const progression = async (page: Page) => Number(await frames(page).getAttribute('data-progression'));

test('a text EPUB opens from its book page and shows its text; the pages turn both ways', async ({ page }) => {
  const book = await findBook(page.context().request, folio.url, 'Novels 2 - Illustrated');
  await page.goto(`${folio.url}/book/${book.id}`);
  await page.getByRole('link', { name: 'Read', exact: true }).click();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect(shown(page).getByText('Opening words of the illustrated book.')).toBeVisible();
  await expect(shown(page).getByRole('img', { name: 'A red plate' })).toBeVisible();
  await expect(page.getByTestId('reader-page-counter')).toHaveText(/^Page 1 of \d+$/);

  await page.keyboard.press('ArrowRight');
  await expect.poll(() => progression(page)).toBeGreaterThan(0);
  const turned = await progression(page);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => progression(page)).toBeLessThan(turned);
});

test('a text EPUB is opened without asking for page images, from its book page or its address', async ({ page }) => {
  const book = await findBook(page.context().request, folio.url, 'Novels 1 - Classic');
  // A text EPUB has no page images (asking for one is answered 400), nor a use for the decode workers.
  const pageImages: string[] = [];
  const workerScripts: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/\/pages\/\d+$/.test(pathname)) pageImages.push(pathname);
    if (/decode\.worker/.test(pathname)) workerScripts.push(pathname);
  });
  await page.goto(`${folio.url}/book/${book.id}`);
  await page.getByRole('link', { name: 'Read', exact: true }).click();
  // The reader is ready after the book's description came back, which is when a page would be asked.
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  expect(workerScripts).toEqual([]);
  // A cold load of the address cannot tell a text EPUB from a comic before the book arrives: the
  // workers start at once (a comic's first page must not wait for them), but no page is asked.
  await page.goto(`${folio.url}/book/${book.id}/read?incognito=true`);
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  expect(pageImages).toEqual([]);
  // Nor when the address names a page: ?page= is no sign of page images (the server's start hint,
  // given only for a page image, is absent for a text EPUB).
  for (const number of [1, 2]) {
    await page.goto(`${folio.url}/book/${book.id}/read?page=${number}&incognito=true`);
    await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  }
  expect(pageImages).toEqual([]);
});

test('a screen reader finds the text: axe-core scans the reader, its settings and its contents with no violation', async ({ page }) => {
  await openBook(page, 'Novels 2 - Illustrated', '?incognito=true');
  await expect(shown(page).getByText('Opening words of the illustrated book.')).toBeVisible();
  // The frame showing the text is named after its chapter, inside the page's main landmark.
  await expect(page.getByRole('main').locator('iframe[title="The Beginning"]')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Contents' }).click();
  await expectNoAxeViolations(page);
});

test('the keyboard help lists the keys the text reader answers to, not the comic reader\'s', async ({ page }) => {
  await openBook(page, 'Novels 1 - Classic', '?incognito=true');
  await page.keyboard.press('h');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  // Zoom, scale, page layout, reading direction and webtoon keys do nothing in a text book.
  for (const comicOnly of ['Zoom in', 'Cycle the scale', 'Cycle the page layout', 'webtoon', 'Page thumbnails']) await expect(help).not.toContainText(comicOnly);
  await expect(help.getByRole('row', { name: 't Contents' })).toBeVisible();
  await expect(help.getByRole('row', { name: /^Space PageDown PageUp/ })).not.toContainText('webtoon');
  await page.keyboard.press('Escape');
  await page.keyboard.press('t');
  await expect(page.getByRole('dialog', { name: 'Contents' })).toBeVisible();
});

test('Space on a toolbar button reached by keyboard presses it; after a click on it, Space turns the page', async ({ page }) => {
  await openBook(page, 'Novels 2 - Illustrated', '?incognito=true');
  const contents = page.getByRole('button', { name: 'Contents' });
  const dialog = page.getByRole('dialog');
  // Opened and closed with the pointer: whatever keeps the focus then, Space turns the page.
  await contents.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  const start = await progression(page);
  await page.keyboard.press(' ');
  await expect.poll(() => progression(page)).toBeGreaterThan(start);
  await expect(dialog).toHaveCount(0);
  // Reached with the keyboard: Space opens the contents, and the page stays where it is.
  const turned = await progression(page);
  await contents.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(contents).toBeFocused();
  await page.keyboard.press(' ');
  await expect(dialog).toBeVisible();
  expect(await progression(page)).toBe(turned);
});

test('the table of contents jumps to a chapter (EPUB 3 nav and EPUB 2 NCX)', async ({ page }) => {
  await openBook(page, 'Novels 2 - Illustrated', '?incognito=true');
  await page.getByRole('button', { name: 'Contents' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'The Harbour' }).click();
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0003.xhtml');
  await expect(shown(page).getByText('Marker of the harbour chapter.')).toBeVisible();

  await openBook(page, 'Novels 1 - Classic', '?incognito=true');
  await page.getByRole('button', { name: 'Contents' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Epilogue' }).click();
  await expect(shown(page).getByText('Classic epilogue marker.')).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a chapter picked in the contents from the keyboard is shown, and focus goes back to Contents, not <body>', async ({ page }) => {
    await openBook(page, 'Novels 2 - Illustrated', '?incognito=true');
    const contents = page.getByRole('button', { name: 'Contents' });
    await contents.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Contents' });
    // It opens on the chapter being read; the keyboard goes down to the one wanted.
    await expect(dialog.getByRole('button', { name: 'The Beginning' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'The Harbour' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(shown(page).getByText('Marker of the harbour chapter.')).toBeVisible();
    // The dialog was taken away with the focus in it: the browser would leave it on <body>.
    await expect(contents).toBeFocused();
  });
});

test('the table of contents marks only the entry where the reader is, not every section of the chapter', async ({ page }) => {
  await openBook(page, 'Sections', '?incognito=true');
  const dialog = page.getByRole('dialog');
  const current = dialog.locator('[aria-current="true"]');
  const openContents = async () => {
    await page.getByRole('button', { name: 'Contents' }).click();
    await expect(dialog).toBeVisible();
  };
  // At the chapter's start its first section heading is on screen.
  await openContents();
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText('Departure');
  await dialog.getByRole('button', { name: 'Storm' }).click();
  // The frame is as wide as its columns: on the screen being read is inside the frame's window.
  const stormOnScreen = () =>
    shown(page).getByText('Marker of storm.').evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.left >= 0 && box.left < element.ownerDocument.defaultView!.innerWidth;
    });
  await expect.poll(stormOnScreen).toBe(true);
  await openContents();
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText('Storm');
  // A page further on, still in the storm: the storm stays marked.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect.poll(stormOnScreen).toBe(false);
  await openContents();
  await expect(current).toHaveText('Storm');
  await dialog.getByRole('button', { name: 'Home Again' }).click();
  await expect(shown(page).getByText('Marker of the homecoming.')).toBeVisible();
  await openContents();
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText('Home Again');
});

test('settings change the text at once and are remembered; font size is kept per book', async ({ page }) => {
  await openBook(page, 'Novels 2 - Illustrated');
  const userFontSize = () => shown(page).locator('html').evaluate((html) => html.style.getPropertyValue('--USER__fontSize'));
  const background = () => shown(page).locator('html').evaluate((html) => html.style.getPropertyValue('--USER__backgroundColor'));
  await page.getByRole('button', { name: 'Reader settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Theme').selectOption({ label: 'Sepia' });
  await dialog.getByLabel('Font size').selectOption({ label: '150%' });
  await expect.poll(background).toBe('#f4ecd8');
  await expect.poll(userFontSize).toBe('150%');
  await dialog.getByLabel('Publisher styles').uncheck();
  await dialog.getByLabel('Line height').selectOption({ label: '1.8' });
  await expect.poll(() => shown(page).locator('html').evaluate((html) => html.style.getPropertyValue('--USER__lineHeight'))).toBe('1.8');
  await page.keyboard.press('Escape');

  await page.reload();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect.poll(background).toBe('#f4ecd8');
  await expect.poll(userFontSize).toBe('150%');

  // Another book starts at the last size picked, and keeps its own once changed.
  await openBook(page, 'Novels 1 - Classic');
  await expect.poll(userFontSize).toBe('150%');
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Font size').selectOption({ label: '100%' });
  await expect.poll(userFontSize).toBe('100%');
  await openBook(page, 'Novels 2 - Illustrated');
  await expect.poll(userFontSize).toBe('150%');
});

test('one column or two on a wide screen, as picked, kept after a reload, at the same place in the chapter', async ({ page }) => {
  await openBook(page, 'Novels 2 - Illustrated', '?incognito=true');
  const columns = () => shown(page).locator('html').evaluate((html) => getComputedStyle(html).columnCount);
  // 1280 px: two columns side by side unless told otherwise.
  await expect.poll(columns).toBe('2');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => progression(page)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Columns').selectOption({ label: 'One' });
  await expect.poll(columns).toBe('1');
  await page.keyboard.press('Escape');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0001.xhtml');
  expect(await progression(page)).toBeGreaterThan(0);
  await page.reload();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect.poll(columns).toBe('1');
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Columns').selectOption({ label: 'Two' });
  await expect.poll(columns).toBe('2');
});

test('font sizes are written as the reader\'s language writes a percentage (Turkish %150, not 150 %)', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('folio.locale', 'tr'));
  await openBook(page, 'Novels 1 - Classic', '?incognito=true');
  await page.keyboard.press('s');
  const options = page.getByRole('dialog').locator('select option');
  await expect(options.filter({ hasText: /^%150$/ })).toHaveCount(1);
  await expect(options.filter({ hasText: /^150 %$/ })).toHaveCount(0);
});

test('settings follow the user to another browser (kept on the server)', async ({ page, browser }) => {
  await openBook(page, 'Novels 1 - Classic');
  const savedOnServer = page.waitForResponse(
    (r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/v1/client-settings/user') && (r.request().postData() ?? '').includes('dark'),
  );
  await page.getByRole('button', { name: 'Reader settings' }).click();
  await page.getByRole('dialog').getByLabel('Theme').selectOption({ label: 'Dark' });
  expect((await savedOnServer).status()).toBe(204);
  const stored = await (await page.context().request.get(`${folio.url}/api/v1/client-settings/user/list`)).json();
  expect(JSON.parse(stored['folio.epubReader'].value)).toMatchObject({ theme: 'dark' });

  // Another browser: nothing in its storage, the same user.
  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await logIn(elsewhere.request, folio.url, ADMIN);
    await openBook(other, 'Novels 1 - Classic');
    const html = shown(other).locator('html');
    await expect.poll(() => html.evaluate((el) => el.style.getPropertyValue('--USER__backgroundColor'))).toBe('#121212');
  } finally {
    await elsewhere.close();
  }
});

test('the place read is saved as an R2 progression and restored after a reload; read progress follows', async ({ page }) => {
  const request = page.context().request;
  const bookId = await openBook(page, 'Novels 2 - Illustrated');
  const saved = page.waitForRequest(
    (r) => r.method() === 'PUT' && r.url().endsWith(`/books/${bookId}/progression`) && (r.postData() ?? '').includes('ch0003.xhtml'),
  );
  await page.getByRole('button', { name: 'Contents' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'The Harbour' }).click();
  const body = JSON.parse((await saved).postData() ?? '{}');
  expect(body.device.name).toBe('Folio web reader');
  expect(body.locator.href).toContain('/resource/OEBPS/text/ch0003.xhtml');
  await expect.poll(async () => (await getBook(request, folio.url, bookId)).readProgress?.page ?? 0).toBeGreaterThan(1);

  await page.reload();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0003.xhtml');
  await expect(shown(page).getByText('Marker of the harbour chapter.')).toBeVisible();
});

test('a progression sent in Komga web client shape is where Folio reopens the book', async ({ page }) => {
  const request = page.context().request;
  const book = await findBook(request, folio.url, 'Novels 1 - Classic');
  const positions = await (await request.get(`${folio.url}/api/v1/books/${book.id}/positions`)).json();
  const epilogue = positions.positions.find((p: { href: string }) => p.href.endsWith('ch0002.xhtml'));
  // As Komga's client sends it: absolute href (here on another host name), a progression, its device.
  const put = await request.put(`${folio.url}/api/v1/books/${book.id}/progression`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: {
      modified: new Date().toISOString(),
      device: { id: 'komga-webui', name: 'Komga web reader' },
      locator: {
        href: epilogue.href.replace('127.0.0.1', 'localhost'),
        type: 'application/xhtml+xml',
        locations: { progression: 0.2, position: epilogue.locations.position, totalProgression: epilogue.locations.totalProgression },
      },
    },
  });
  expect(put.status()).toBe(204);
  await openBook(page, 'Novels 1 - Classic');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0002.xhtml');
  await expect(shown(page).getByText('Classic epilogue marker.')).toBeVisible();
  // Incognito starts there too (it only saves nothing).
  await openBook(page, 'Novels 1 - Classic', '?incognito=true');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0002.xhtml');
});

test('a place the server refuses (a newer one saved from another device) is said in the reader, not only logged', async ({ page }) => {
  const request = page.context().request;
  const bookId = await openBook(page, 'Novels 1 - Classic');
  const positions = await (await request.get(`${folio.url}/api/v1/books/${bookId}/positions`)).json();
  const prologue = positions.positions.find((p: { href: string }) => p.href.endsWith('ch0001.xhtml'));
  // Another device, its clock ahead, saved after this one opened the book: the server keeps the newer (409).
  const other = await request.put(`${folio.url}/api/v1/books/${bookId}/progression`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: { modified: '2099-01-01T00:00:00Z', device: { id: 'other-device', name: 'Other device' }, locator: { href: prologue.href, type: 'application/xhtml+xml', locations: prologue.locations } },
  });
  expect(other.status()).toBe(204);
  const refused = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/books/${bookId}/progression`) && r.status() === 409);
  // A chapter other than the one the book opened at (the test before leaves it at the epilogue):
  // going where the reader already is saves nothing, and no 409 would come.
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  const openedAt = await frames(page).getAttribute('data-resource');
  const elsewhere = openedAt?.endsWith('ch0002.xhtml') ? 'Prologue' : 'Epilogue';
  await page.getByRole('button', { name: 'Contents' }).click();
  await page.getByRole('dialog').getByRole('button', { name: elsewhere }).click();
  await refused;
  await expect(page.getByTestId('reader-edge-message')).toContainText('A newer reading position was saved from another device; this one was not saved');
  // The position dated 2099 would refuse every later save of this book (the tests after this one
  // complete it): forgetting the book's progress forgets that position too.
  expect((await request.delete(`${folio.url}/api/v1/books/${bookId}/read-progress`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status()).toBe(204);
  expect((await request.get(`${folio.url}/api/v1/books/${bookId}/progression`)).status()).toBe(204);
});

test('incognito reading saves nothing, even when leaving the reader', async ({ page }) => {
  const request = page.context().request;
  const book = await findBook(request, folio.url, 'Arabic');
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/books/${book.id}/progression`) && r.method() !== 'GET') puts.push(r.url());
  });
  await openBook(page, 'Arabic', '?incognito=true');
  await expect(page.getByRole('img', { name: 'Incognito: progress is not saved' })).toBeVisible();
  const start = await progression(page);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => progression(page)).toBeGreaterThan(start);
  // Leaving the reader flushes a pending save before the book page asks for the book: it would
  // be on the wire by the time that answer arrives.
  const bookLoaded = page.waitForResponse((r) => r.url().endsWith(`/api/v1/books/${book.id}`) && r.request().method() === 'GET');
  await page.getByRole('link', { name: 'Back to the book' }).click();
  await bookLoaded;
  expect(puts).toEqual([]);
  expect((await request.get(`${folio.url}/api/v1/books/${book.id}/progression`)).status()).toBe(204);
});

test('a right-to-left book reads right to left and turns forward with the left arrow', async ({ page }) => {
  await openBook(page, 'Arabic', '?incognito=true');
  const heading = shown(page).getByRole('heading', { name: 'الفصل 1' });
  await expect(heading).toBeVisible();
  expect(await heading.evaluate((h) => getComputedStyle(h).direction)).toBe('rtl');
  // At the start, → goes back: the start-of-book note shows.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('reader-edge-message')).toContainText('Beginning of the book.');
  const start = await progression(page);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => progression(page)).toBeGreaterThan(start);
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0001.xhtml');
});

// The navigator "bounces" the frame when asked to go past the book's edge and, 150 ms later, puts
// back the scroll offset it saw then: a turn made in between was undone without a word, and the
// next press back found the chapter's start. The reader no longer asks it past the edge.
test('a right-to-left book turns back with the right arrow after a forward turn, even right after the start-of-book note', async ({ page }) => {
  await openBook(page, 'Arabic', '?incognito=true');
  await expect(shown(page).getByRole('heading', { name: 'الفصل 1' })).toBeVisible();
  const start = await progression(page);
  // → at the start (the edge), then ← at once: well inside the bounce's 150 ms.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => progression(page)).toBeGreaterThan(start);
  const turned = await progression(page);
  // The page shown is the one reported (the turn was not undone behind the counter's back).
  await expect.poll(() => shown(page).locator('html').evaluate(() => document.scrollingElement!.scrollLeft)).toBeGreaterThan(0);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => progression(page)).toBeLessThan(turned);
  await expect(page.getByTestId('reader-edge-message')).toBeHidden();
});

test('a vertical Japanese book is laid out top to bottom, right to left, and turns sideways within a chapter', async ({ page }) => {
  await openBook(page, 'Vertical', '?incognito=true');
  await expect(shown(page).getByRole('heading', { name: '第1章' })).toBeVisible();
  expect(await shown(page).locator('html').evaluate((html) => getComputedStyle(html).writingMode)).toBe('vertical-rl');
  // Forward (←, the book reads right to left) brings the next lines in from the left, same chapter.
  const scrollLeft = () => shown(page).locator('body').evaluate((body) => body.scrollLeft);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(scrollLeft).toBeLessThan(-100);
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0001.xhtml');
  const turned = await scrollLeft();
  await page.keyboard.press('ArrowRight');
  await expect.poll(scrollLeft).toBeGreaterThan(turned);
});

test('a vertical book reopens where it was left inside the chapter, not at the chapter\'s start', async ({ page }) => {
  const bookId = await openBook(page, 'Vertical');
  await expect(shown(page).getByRole('heading', { name: '第1章' })).toBeVisible();
  const scrollLeft = () => shown(page).locator('body').evaluate((body) => body.scrollLeft);
  const saved = page.waitForRequest((r) => {
    if (r.method() !== 'PUT' || !r.url().endsWith(`/books/${bookId}/progression`)) return false;
    const locator = JSON.parse(r.postData() ?? '{}').locator;
    return locator?.href?.endsWith('ch0001.xhtml') && locator.locations.progression > 0.2;
  });
  // Two screens on, sideways (←, the book reads right to left).
  await page.keyboard.press('ArrowLeft');
  await expect.poll(scrollLeft).toBeLessThan(-100);
  const first = await scrollLeft();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(scrollLeft).toBeLessThan(first - 100);
  const left = await scrollLeft();
  const { locator } = JSON.parse((await saved).postData() ?? '{}');
  expect(locator.locations.position).toBeGreaterThan(1);
  expect(Number(await frames(page).getAttribute('data-progression'))).toBeCloseTo(locator.locations.progression, 5);

  await page.reload();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0001.xhtml');
  await expect.poll(scrollLeft).toBeLessThan(first - 50);
  expect(Math.abs((await scrollLeft()) - left)).toBeLessThan(50);
  // Back from there, a screen at a time, to the chapter's start.
  await page.keyboard.press('ArrowRight');
  await expect.poll(scrollLeft).toBeGreaterThan(left + 100);
});

test('script in a book never runs: inline, handlers, javascript: links, srcdoc frames', async ({ page }) => {
  await openBook(page, 'Scripted');
  await expect(shown(page).getByText('Harmless text of the scripted book.')).toBeVisible();
  // Everything the page would load (and so every handler that could fire) has settled.
  await expect.poll(() => shown(page).locator('html').evaluate(() => document.readyState)).toBe('complete');
  expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
  const leftovers = await shown(page).locator('html').evaluate(() => ({
    scripts: [...document.querySelectorAll('script')].filter((s) => !s.dataset.readium).length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
    frames: document.querySelectorAll('iframe').length,
    jsLinks: document.querySelectorAll('a[href^="javascript"]').length,
  }));
  expect(leftovers).toEqual({ scripts: 0, handlers: 0, frames: 0, jsLinks: 0 });
  await expect(page).not.toHaveTitle('pwned');
});

test('the last page completes the book; past it, a second try opens the next book of the series', async ({ page }) => {
  const request = page.context().request;
  const bookId = await openBook(page, 'Novels 1 - Classic');
  await page.keyboard.press('End');
  await expect(frames(page)).toHaveAttribute('data-resource', 'OEBPS/text/ch0002.xhtml');
  const next = await findBook(request, folio.url, 'Novels 2 - Illustrated');
  await expect(async () => {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('reader-edge-message')).toContainText('End of the book.', { timeout: 1000 });
  }).toPass();
  await expect(page.getByTestId('reader-page-counter')).toHaveText(/^Page (\d+) of \1$/);
  await expect.poll(async () => (await getBook(request, folio.url, bookId)).readProgress?.completed).toBe(true);
  await expect(async () => {
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(new RegExp(`/book/${next.id}/read`), { timeout: 1000 });
  }).toPass();
  // The next book opens where it was left (earlier tests read in it).
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect(shown(page).getByRole('heading').first()).toBeVisible();
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  /** A one-finger horizontal swipe across the middle of the text. */
  async function swipe(page: Page, direction: 'left' | 'right'): Promise<void> {
    const box = (await frames(page).boundingBox())!;
    const y = box.y + box.height / 2;
    const [from, to] = direction === 'left' ? [0.8, 0.2] : [0.2, 0.8];
    await swipeAcross(page, { x: box.x + box.width * from, y }, { x: box.x + box.width * to, y });
  }

  test('swipes turn the pages; past the last page a second swipe opens the next book', async ({ page }) => {
    const request = page.context().request;
    await openBook(page, 'Novels 1 - Classic', '?incognito=true');
    await page.keyboard.press('Home');
    await expect(frames(page)).toHaveAttribute('data-position', '1');
    // Before the first page, as the comic reader does: the start-of-book note.
    await swipe(page, 'right');
    await expect(page.getByTestId('reader-edge-message')).toContainText('Beginning of the book.');
    await swipe(page, 'left');
    await expect.poll(() => progression(page)).toBeGreaterThan(0);
    await expect(page.getByTestId('reader-edge-message')).toBeHidden();

    await page.keyboard.press('End');
    await expect(page.getByTestId('reader-page-counter')).toHaveText(/^Page (\d+) of \1$/);
    const next = await findBook(request, folio.url, 'Novels 2 - Illustrated');
    await swipe(page, 'left');
    await expect(page.getByTestId('reader-edge-message')).toContainText('End of the book.');
    // The second swipe must come after the guard's pause for held keys (400 ms), so it may take two.
    await expect(async () => {
      await swipe(page, 'left');
      await expect(page).toHaveURL(new RegExp(`/book/${next.id}/read`), { timeout: 1000 });
    }).toPass();
  });

  test('on a 360 px phone a 2 MB chapter turns by swipe and by tap, and the settings panel fits the screen', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openBook(page, 'Huge', '?incognito=true');
    await expect(shown(page).getByText('Marker of the huge chapter.')).toBeInViewport();
    const start = await progression(page);
    await swipe(page, 'left');
    await expect.poll(() => progression(page)).toBeGreaterThan(start);
    const swiped = await progression(page);
    // The right edge of the text is the forward tap zone.
    const box = (await frames(page).boundingBox())!;
    await page.touchscreen.tap(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect.poll(() => progression(page)).toBeGreaterThan(swiped);
    await page.getByRole('button', { name: 'Reader settings' }).click();
    const panel = await page.getByRole('dialog').boundingBox();
    expect(panel).not.toBeNull();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(360);
    await page.getByRole('dialog').getByLabel('Font size').selectOption({ label: '150%' });
    await expect.poll(() => shown(page).locator('html').evaluate((html) => html.style.getPropertyValue('--USER__fontSize'))).toBe('150%');
  });

  test('in a right-to-left book a swipe to the right goes forward', async ({ page }) => {
    await openBook(page, 'Arabic', '?incognito=true');
    await expect(shown(page).getByRole('heading', { name: 'الفصل 1' })).toBeVisible();
    const start = await progression(page);
    await swipe(page, 'left');
    await expect(page.getByTestId('reader-edge-message')).toContainText('Beginning of the book.');
    await swipe(page, 'right');
    await expect.poll(() => progression(page)).toBeGreaterThan(start);
    const turned = await progression(page);
    await swipe(page, 'left');
    await expect.poll(() => progression(page)).toBeLessThan(turned);
  });
});

test('a 1,000-chapter book opens quickly and jumps to its last chapter', async ({ page }) => {
  const started = Date.now();
  await openBook(page, 'Long', '?incognito=true');
  await expect(shown(page).getByText('Marker of part 1.')).toBeVisible();
  const firstText = await page.evaluate(() => performance.getEntriesByName('folio:epub-first-text')[0]?.duration ?? -1);
  // What the server spent on the manifest and positions (asked for together), from the browser's view.
  const served = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => /\/(manifest\/epub|positions)$/.test(e.name))
      .map((e) => `${e.name.split('/').pop()} ${Math.round(e.responseEnd - e.startTime)} ms`)
      .join(', '),
  );
  console.log(`long book: first text ${Math.round(firstText)} ms after the navigator started, ${Date.now() - started} ms from navigation; ${served}`);
  // 5 MB of text: thousands of positions (the count is formatted for the locale: "6,000").
  await expect(page.getByTestId('reader-page-counter')).toHaveText(/^Page 1 of \d{1,2},\d{3}$/);
  await page.getByRole('button', { name: 'Contents' }).click();
  const entries = page.getByRole('dialog').getByRole('listitem');
  await expect(entries).toHaveCount(1000);
  await page.getByRole('dialog').getByRole('button', { name: 'Part 1000', exact: true }).click();
  await expect(shown(page).getByText('Marker of part 1000.')).toBeVisible();
});

test('keys pressed while a far chapter loads throw nothing (the frame left is gone meanwhile)', async ({ page }) => {
  await openBook(page, 'Long', '?incognito=true');
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The jump to the last chapter removes the first chapter's frame before the last one's is built;
  // keys pressed meanwhile asked that removed frame for its window ("Trying to use frame when it
  // doesn't exist", thrown from the key handler).
  // Keys every few milliseconds from the jump until the last chapter is shown, in the page itself
  // (a key sent from here takes longer than the gap lasts on a fast machine).
  await page.evaluate(async () => {
    const key = (name: string) => window.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
    key('End');
    const host = document.querySelector('[data-testid="epub-frames"]')!;
    const deadline = performance.now() + 20_000;
    while (!/ch1000\.xhtml$/.test(host.getAttribute('data-resource') ?? '') && performance.now() < deadline) {
      key('ArrowRight');
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
  await expect(shown(page).getByText('Marker of part 1000.')).toBeVisible();
  await expect(frames(page)).toHaveAttribute('data-resource', /ch1000\.xhtml$/);
  expect(errors).toEqual([]);
});

test('a 2 MB chapter shows a loading note (status, busy) from the start until its text is laid out', async ({ page }) => {
  const book = await findBook(page.context().request, folio.url, 'Huge');
  // Every change to the page until the text is ready: is the loading note there while the book's frame is being laid out?
  await page.addInitScript(() => {
    const seen: boolean[] = [];
    (window as unknown as { __loadingSeen: boolean[] }).__loadingSeen = seen;
    new MutationObserver(() => {
      const host = document.querySelector('[data-testid="epub-frames"]');
      if (!host?.querySelector('iframe') || host.getAttribute('data-ready') === 'true') return;
      const note = document.querySelector('[data-testid="epub-loading"][role="status"]');
      seen.push(note !== null && /\S/.test(note.textContent ?? '') && host.getAttribute('aria-busy') === 'true');
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(`${folio.url}/book/${book.id}/read?incognito=true`);
  await expect(page.getByRole('status').filter({ hasText: 'Loading the book…' })).toBeVisible();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  const seen = await page.evaluate(() => (window as unknown as { __loadingSeen: boolean[] }).__loadingSeen);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every(Boolean)).toBe(true);
  await expect(page.getByTestId('epub-loading')).toHaveCount(0);
  await expect(frames(page)).not.toHaveAttribute('aria-busy', 'true');
  await expect(shown(page).getByText('Marker of the huge chapter.')).toBeVisible();
});

test('a 2 MB chapter opens at its first text, turns inside it, and reopens where it was left inside it', async ({ page }) => {
  const bookId = await openBook(page, 'Huge');
  // Kept from rendering until the navigator had set its frame up (frameSetup.ts), the chapter is shown now.
  await expect(shown(page).getByText('Marker of the huge chapter.')).toBeVisible();
  await expect(shown(page).locator('html')).toHaveAttribute('data-folio-shown', '');
  await expect(shown(page).locator('body')).toHaveCSS('content-visibility', 'visible');
  for (let turn = 1; turn <= 5; turn++) {
    const before = await progression(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => progression(page)).toBeGreaterThan(before);
  }
  const place = await progression(page);
  // The place inside the chapter is what the server keeps (Komga's R2 progression)...
  await expect
    .poll(async () => {
      const response = await page.context().request.get(`${folio.url}/api/v1/books/${bookId}/progression`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      return response.status() === 200 ? ((await response.json()) as { locator: { locations: { progression?: number } } }).locator.locations.progression : null;
    })
    .toBeCloseTo(place, 6);
  // ...and where the chapter reopens.
  await page.reload();
  await expect(frames(page)).toHaveAttribute('data-ready', 'true');
  await expect.poll(() => progression(page)).toBeCloseTo(place, 3);
  // Pages into the chapter: its opening words are in a column off the screen.
  await expect(shown(page).getByText('Marker of the huge chapter.')).not.toBeInViewport();
});

test('turning through one-page chapters at a held key\'s speed keeps at most six frames, and turning back still works', async ({ page }) => {
  await openBook(page, 'Short', '?incognito=true');
  await page.evaluate(() => {
    const w = window as unknown as { __mostFrames: number };
    w.__mostFrames = 0;
    new MutationObserver(() => {
      w.__mostFrames = Math.max(w.__mostFrames, document.querySelectorAll('[data-testid="epub-frames"] iframe').length);
    }).observe(document.body, { subtree: true, childList: true });
  });
  // As fast as the keys come (a turn asked for during another is dropped, as a held key's are).
  for (let i = 0; i < 300 && Number(await frames(page).getAttribute('data-position')) < 14; i++) await page.keyboard.press('ArrowRight');
  await expect(frames(page)).toHaveAttribute('data-position', /^(1[4-9]|2\d|30)$/);
  const iframes = page.locator('[data-testid="epub-frames"] iframe');
  // The document read and two either side stay; the rest go once the turns settle.
  await expect(iframes).toHaveCount(5);
  expect(await page.evaluate(() => (window as unknown as { __mostFrames: number }).__mostFrames)).toBeLessThanOrEqual(6);
  const at = Number(await frames(page).getAttribute('data-position'));
  for (let back = 1; back <= 4; back++) {
    await page.keyboard.press('ArrowLeft');
    // A key pressed while the previous turn is still settling is dropped, as a held key's are (by
    // design); a reader presses again. Pressed again only when the place has not moved for a second,
    // so an accepted press is never doubled.
    let looks = 0;
    await expect
      .poll(
        async () => {
          const position = await frames(page).getAttribute('data-position');
          // The first look comes at once, before the press could show: never pressed again then.
          if (looks++ > 0 && position === String(at - back + 1)) await page.keyboard.press('ArrowLeft');
          return position;
        },
        { intervals: [1_000, 2_000, 3_000] },
      )
      .toBe(String(at - back));
    await expect(frames(page)).toHaveAttribute('data-position', String(at - back));
    await expect(shown(page).getByText(`Marker of note ${at - back}.`, { exact: true })).toBeVisible();
  }
});

test('on a 360 px phone the page counter of a long book stays on one line inside the bar', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openBook(page, 'Long', '?incognito=true');
  const counter = page.getByTestId('reader-page-counter');
  await expect(counter).toHaveText(/^Page 1 of \d{1,2},\d{3}$/);
  const layout = await counter.evaluate((element) => {
    const range = element.ownerDocument.createRange();
    range.selectNodeContents(element);
    const bar = element.closest('footer')!;
    return {
      lines: new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size,
      barOverflows: bar.scrollWidth > bar.clientWidth,
    };
  });
  expect(layout).toEqual({ lines: 1, barOverflows: false });
});

test('an image in the text opens zoomable on a double click', async ({ page }) => {
  await openBook(page, 'Novels 2 - Illustrated', '?incognito=true');
  await page.getByRole('button', { name: 'Contents' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'The Beginning' }).click();
  await shown(page).getByRole('img', { name: 'A red plate' }).dblclick();
  const zoomed = page.getByTestId('epub-zoomed-image');
  await expect(zoomed).toBeVisible();
  const before = (await zoomed.boundingBox())!.width;
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(async () => (await zoomed.boundingBox())!.width).toBeGreaterThan(before);
});
