import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import type { BookDto } from '../../src/api/types.ts';
import { GREEN, RED, createCbz } from '../fixtures/comics.ts';
import { ADMIN, claimWithLibrary, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Ordinary use leaves a user's DevTools console empty: no request the app makes answers with an
 * error. Komga's API answers 404 for "the book after the last one" and for "the latest login of
 * a user who never logged in", and a browser writes every 404 into the console as an error,
 * however the app takes it; the app finds those answers without asking such questions.
 */
let folio: RunningFolio;
let root = '';
const CSRF = { 'X-Requested-With': 'XMLHttpRequest' };

test.beforeAll(async () => {
  folio = await startFolio();
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-quiet-'));
  const page = { width: 60, height: 90, color: RED, format: 'png' } as const;
  // Two books share number 2: the server orders them by id, and next/previous walk through both.
  for (const [file, number] of [['Trio 01', '1'], ['Trio 02a', '2'], ['Trio 02b', '2'], ['Trio 03', '3']] as const) {
    await createCbz(path.join(root, 'Trio', `${file}.cbz`), [{ ...page, color: number === '2' ? GREEN : RED }], { comicInfo: { series: 'Trio', number } });
  }
  await claimWithLibrary(folio.url, root);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

/** Every answer of 400 or more and every console error or warning, from now on. */
function watchFailures(p: Page): string[] {
  const failures: string[] = [];
  p.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  p.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') failures.push(`console.${message.type()}: ${message.text()}`);
  });
  p.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  return failures;
}

/** The server's own answer to /books/{id}/next or /previous: the book's id, or null for its 404. */
async function serverSibling(p: Page, bookId: string, which: 'next' | 'previous'): Promise<string | null> {
  const response = await p.request.get(`${folio.url}/api/v1/books/${bookId}/${which}`, { headers: CSRF });
  if (response.status() === 404) return null;
  expect(response.ok()).toBe(true);
  return ((await response.json()) as BookDto).id;
}

test('a book page, from the first book of a series to its last and through two books sharing a number, links the books the server calls previous and next, and no request fails', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const failures = watchFailures(p);
  for (const name of ['Trio 01', 'Trio 02a', 'Trio 02b', 'Trio 03']) {
    const book = await findBook(p.request, folio.url, name);
    await p.goto(`${folio.url}/book/${book.id}`);
    await expect(p.getByRole('heading', { level: 1 })).toBeVisible();
    const siblings = p.getByRole('navigation', { name: en.book.siblings });
    for (const which of ['previous', 'next'] as const) {
      const expected = await serverSibling(p, book.id, which);
      const link = siblings.getByRole('link', { name: which === 'next' ? en.book.next_book : en.book.previous_book });
      if (expected) await expect(link, `${name}: ${which}`).toHaveAttribute('href', `/book/${expected}`);
      else await expect(link, `${name}: ${which}`).toHaveCount(0);
    }
  }
  // The server's own 404s above were asked by the test, not the page.
  expect(failures).toEqual([]);
});

test('the reader of the first and of the last book of a series asks for no book that is not there', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const failures = watchFailures(p);
  for (const name of ['Trio 01', 'Trio 03']) {
    const book = await findBook(p.request, folio.url, name);
    // The neighbours are looked for once the book is known: wait for those answers, then look.
    const neighbours = p.waitForResponse((r) => r.url().includes('/api/v1/books/list') && r.url().includes('unpaged=true'));
    await p.goto(`${folio.url}/book/${book.id}/read`);
    await expect(p.getByTestId('reader-canvas')).toHaveAttribute('data-painted-page', /\d/);
    expect((await neighbours).ok()).toBe(true);
  }
  expect(failures).toEqual([]);
});

test('a book page opened from a read list links its neighbours in the list, none before the first', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const last = await findBook(p.request, folio.url, 'Trio 03');
  const first = await findBook(p.request, folio.url, 'Trio 01');
  const created = await p.request.post(`${folio.url}/api/v1/readlists`, { data: { name: 'Backwards', bookIds: [last.id, first.id] }, headers: CSRF });
  expect(created.ok()).toBe(true);
  const readList = (await created.json()) as { id: string };
  const failures = watchFailures(p);
  await p.goto(`${folio.url}/book/${last.id}?readlist=${readList.id}`);
  const siblings = p.getByRole('navigation', { name: en.book.siblings_read_list });
  await expect(siblings.getByRole('link', { name: en.book.next_book })).toHaveAttribute('href', `/book/${first.id}?readlist=${readList.id}`);
  await expect(siblings.getByRole('link', { name: en.book.previous_book })).toHaveCount(0);
  await p.goto(`${folio.url}/book/${first.id}?readlist=${readList.id}`);
  await expect(siblings.getByRole('link', { name: en.book.previous_book })).toHaveAttribute('href', `/book/${last.id}?readlist=${readList.id}`);
  await expect(siblings.getByRole('link', { name: en.book.next_book })).toHaveCount(0);
  expect(failures).toEqual([]);
});

test('the users screen shows a user who never logged in as such, without a failing request', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const added = await p.request.post(`${folio.url}/api/v2/users`, {
    data: { email: 'never@example.org', password: 'a long enough password', roles: ['USER'] },
    headers: CSRF,
  });
  expect(added.ok()).toBe(true);
  const failures = watchFailures(p);
  await p.goto(`${folio.url}/settings/users`);
  const row = p.getByRole('row', { name: /^never@example\.org/ });
  await expect(row).toContainText(en.users_admin.never);
  // The admin, who did log in, has a latest activity.
  await expect(p.getByRole('row', { name: /^admin@example\.org/ })).toContainText(en.users_admin.activity.success);
  expect(failures).toEqual([]);
});
