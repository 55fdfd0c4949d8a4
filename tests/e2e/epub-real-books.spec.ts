import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { opfXml, writeEpub } from '../fixtures/epub.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

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

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-real-books-'));
  await writeDamagedNovel(path.join(libraryRoot, 'Damaged', 'Damaged.epub'));
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

async function openBook(page: Page, name: string): Promise<void> {
  const book = await findBook(page.context().request, folio.url, name);
  await page.goto(`${folio.url}/book/${book.id}/read`);
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
