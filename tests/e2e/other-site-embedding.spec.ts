import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RED, createCbz } from '../fixtures/index.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * A page of another origin on the same site (here another port of 127.0.0.1; in real life another
 * app on the host or a sibling subdomain), opened in the browser of a signed-in reader. SameSite=Lax
 * sends the session cookie with its <img> requests, so without Cross-Origin-Resource-Policy it showed
 * the reader's book pages and posters and read their sizes. The browser must refuse them, while
 * Folio's own pages still show them.
 */
let folio: RunningFolio;
let root = '';
let bookId = '';
let hostile: Server;
let hostileUrl = '';

test.beforeAll(async ({ playwright }) => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-embedding-'));
  await createCbz(path.join(root, 'Private', 'Private 01.cbz'), [{ width: 60, height: 90, color: RED, format: 'png' }]);
  folio = await startFolio();
  const admin = await playwright.request.newContext();
  await claimAndLogIn(admin, folio.url);
  await addLibraryAndWait(admin, folio.url, root, 'Private');
  bookId = (await findBook(admin, folio.url, 'Private 01')).id;
  await admin.dispose();
  hostile = createServer((request, response) => {
    const images = ['pages/1', 'thumbnail'].map((p) => `<img id="${p.replace('/', '-')}" src="${folio.url}/api/v1/books/${bookId}/${p}">`).join('');
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>elsewhere</title>${images}`);
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise((resolve) => hostile?.close(resolve));
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

/** Width of each image of the page once it has loaded or failed (0: the browser refused it). */
const loadedWidths = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      [...document.images].map((img) =>
        img.complete ? img.naturalWidth : new Promise<number>((resolve) => {
          img.addEventListener('load', () => resolve(img.naturalWidth));
          img.addEventListener('error', () => resolve(0));
        }),
      ),
    ),
  );

test("a page of another origin on the same site cannot show a signed-in reader's pages or posters", async ({ page }) => {
  await logIn(page.request, folio.url, ADMIN);
  // Folio's own origin shows them with the same cookie.
  await page.goto(`${folio.url}/settings`);
  const own = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    return img.naturalWidth;
  }, `${folio.url}/api/v1/books/${bookId}/pages/1`);
  expect(own).toBe(60);

  const refused: string[] = [];
  page.on('requestfailed', (r) => {
    // The client's event stream, ended as the page goes, is not what this is about.
    if (r.frame().url() === hostileUrl) refused.push(`${new URL(r.url()).pathname} ${r.failure()?.errorText}`);
  });
  await page.goto(hostileUrl);
  expect(await loadedWidths(page)).toEqual([0, 0]);
  expect(refused.sort()).toEqual([
    `/api/v1/books/${bookId}/pages/1 net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin`,
    `/api/v1/books/${bookId}/thumbnail net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin`,
  ]);
});
