import { expect, request as apiRequest, test, type ConsoleMessage, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOSTILE_PATHS, PWNED_EMAIL, createHostileEpub } from '../fixtures/hostile-epub.ts';
import { addLibraryAndWait, claimAndLogIn, findBook } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Stored XSS through book content (issue 10, item 1), in real Chromium with the admin logged in: a
 * generated EPUB whose XHTML, HTML and SVG documents try to create an ADMIN account. Each way a
 * browser may meet them — opened in a tab, framed by a reader, rebuilt as a blob document the way
 * Readium's web navigator shows chapters — must end with the browser refusing the script (the
 * console message Chromium prints when it blocks one) and no new account.
 */
let folio: RunningFolio;
let root = '';
let bookId = '';

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-hostile-'));
  await createHostileEpub(path.join(root, 'Hostile', 'Hostile.epub'));
  folio = await startFolio();
  const admin = await apiRequest.newContext();
  await claimAndLogIn(admin, folio.url);
  await addLibraryAndWait(admin, folio.url, root, 'Hostile books');
  bookId = (await findBook(admin, folio.url, 'Hostile')).id;
  await admin.dispose();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

const resourceUrl = (p: string) => `${folio.url}/api/v1/books/${bookId}/resource/${p}`;

/** Chromium's console error when it blocks a script (CSP, sandbox or strict MIME checking). */
const blocked = (pattern: RegExp) => (m: ConsoleMessage) => m.type() === 'error' && pattern.test(m.text());
const CSP_BLOCK = /Content Security Policy|sandboxed and the 'allow-scripts' permission is not set/;

/** Logs the page's context in and records every attempt to create a user. */
async function loggedIn(page: Page): Promise<string[]> {
  await claimOrLogIn(page);
  const attempts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v2/users') attempts.push(r.frame().url());
  });
  return attempts;
}

async function claimOrLogIn(page: Page) {
  const me = await page.request.get(`${folio.url}/api/v2/users/me`, {
    headers: { Authorization: `Basic ${Buffer.from('admin@example.org:correct horse battery staple').toString('base64')}` },
  });
  expect(me.ok()).toBe(true);
}

async function expectNoNewAdmin(page: Page, attempts: string[]) {
  expect(attempts).toEqual([]);
  const users = await page.request.get(`${folio.url}/api/v2/users`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  expect(users.ok()).toBe(true);
  expect(((await users.json()) as { email: string }[]).map((u) => u.email)).not.toContain(PWNED_EMAIL);
}

for (const [kind, resource] of [
  ['SVG', HOSTILE_PATHS.svg],
  ['XHTML', HOSTILE_PATHS.xhtml],
  ['HTML', HOSTILE_PATHS.html],
] as const) {
  test(`a book's ${kind} opened in a tab runs no script`, async ({ page }) => {
    const attempts = await loggedIn(page);
    const refused = page.waitForEvent('console', blocked(CSP_BLOCK));
    const response = await page.goto(resourceUrl(resource));
    expect(response?.status()).toBe(200);
    await refused;
    // The document is still shown (the SVG draws its red square; the chapter its text).
    if (kind === 'SVG') await expect(page.locator('rect')).toHaveCount(1);
    await expectNoNewAdmin(page, attempts);
  });
}

test("a book's XHTML framed by a reader inside Folio runs no script but stays readable", async ({ page }) => {
  const attempts = await loggedIn(page);
  await page.goto(`${folio.url}/`);
  const refused = page.waitForEvent('console', blocked(/Content Security Policy/));
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.append(frame);
  }, resourceUrl(HOSTILE_PATHS.xhtml));
  await refused;
  // Same origin, as Komga's web reader needs: the parent can read and style the chapter.
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('#title')).toHaveText('A harmless chapter');
  const title = await page.evaluate(() => document.querySelector('iframe')!.contentDocument?.getElementById('title')?.textContent);
  expect(title).toBe('A harmless chapter');
  await expectNoNewAdmin(page, attempts);
});

test("a book's XHTML rebuilt as a blob document (Readium's navigator) runs neither inline nor external script", async ({ page }) => {
  const attempts = await loggedIn(page);
  await page.goto(`${folio.url}/`);
  const inline = page.waitForEvent('console', blocked(/Content Security Policy/));
  const external = page.waitForEvent('console', blocked(/MIME type .* is not executable/));
  await page.evaluate(async (src) => {
    const text = await (await fetch(src, { credentials: 'include' })).text();
    // As the navigator does: point relative links at the resource, then show it from a blob: URL.
    const withBase = text.replace('<head>', `<head><base href="${src}"/>`);
    const frame = document.createElement('iframe');
    frame.src = URL.createObjectURL(new Blob([withBase], { type: 'application/xhtml+xml' }));
    document.body.append(frame);
  }, resourceUrl(HOSTILE_PATHS.xhtml));
  await Promise.all([inline, external]);
  await expect(page.frameLocator('iframe').locator('#title')).toHaveText('A harmless chapter');
  await expectNoNewAdmin(page, attempts);
});
