import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { writeBzip2NavEpub } from '../fixtures/bzip2-nav-epub.ts';
import { pollUntil } from '../support/poll.ts';
import { addLibraryAndWait, claimAndLogIn, findBook } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { ARMED_FILE } from './support/seven-zip-armed.ts';
import { epubFrames, shownFrame } from './support/epub-library.ts';

/**
 * An EPUB whose table of contents the server could not read just now (its 7-Zip call timed out),
 * end to end: the server answers the manifest without it and says so in Folio-Navigation-Unavailable;
 * the client opens the book anyway and its contents say the table could not be read just now, not
 * that the book has none. The server is the real one, made to time out by a test-only preload
 * (support/seven-zip-times-out.ts) once the book is analysed.
 */
let folio: RunningFolio;
let root: string;

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-nav-unavailable-'));
  await mkdir(path.join(root, 'Packed'), { recursive: true });
  await writeBzip2NavEpub(path.join(root, 'Packed', 'Packed.epub'));
  folio = await startFolio({ nodeOptions: ['--import', './tests/e2e/support/seven-zip-times-out.ts'] });
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test('a book whose table of contents timed out on the server opens, and its contents say they could not be read just now', async ({ page }) => {
  const request = page.context().request;
  await claimAndLogIn(request, folio.url);
  await addLibraryAndWait(request, folio.url, root, 'Books');
  const book = await findBook(request, folio.url, 'Packed');
  expect(book.media.status).toBe('READY');

  process.kill(folio.pid, 'SIGUSR2');
  await pollUntil('the server to take the signal', () => existsSync(path.join(folio.dataDir, ARMED_FILE)));
  // The first read times out for real; the table of contents is then refused for a minute.
  const manifest = await request.get(`${folio.url}/api/v1/books/${book.id}/manifest`);
  expect(manifest.status()).toBe(200);
  expect(Number(manifest.headers()['folio-navigation-unavailable'])).toBeGreaterThan(0);

  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto(`${folio.url}/book/${book.id}/read?incognito=true`);
  await expect(epubFrames(page)).toHaveAttribute('data-ready', 'true');
  // Readable: the chapters were never the problem.
  await expect(shownFrame(page).getByText(/Words of a chapter\./).first()).toBeVisible();
  await page.getByRole('button', { name: 'Contents' }).click();
  const contents = page.getByRole('dialog', { name: 'Contents' });
  await expect(contents.getByRole('alert')).toHaveText(en.reader.epub.contents_unavailable);
  await expect(contents.getByText(en.reader.epub.no_contents)).toHaveCount(0);
  expect(warnings.some((text) => text.includes('could not be read by the server just now'))).toBe(true);
});
