import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BLUE, RED } from '../fixtures/comics.ts';
import { createReflowableEpub, prose, type ReflowableChapter } from '../fixtures/epub.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, getBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

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

let libraryReady = false;
test.beforeEach(async ({ page }) => {
  const request = page.context().request;
  if (!libraryReady) {
    await claimAndLogIn(request, folio.url);
    await addLibraryAndWait(request, folio.url, libraryRoot, 'Books');
    libraryReady = true;
  } else {
    await logIn(request, folio.url, ADMIN);
  }
});

const frames = (page: Page) => page.getByTestId('epub-frames');
/** The frame on screen (the navigator keeps neighbours hidden in the pool). */
const shown = (page: Page): FrameLocator => page.frameLocator('[data-testid="epub-frames"] iframe:not([style*="visibility: hidden"])');

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
