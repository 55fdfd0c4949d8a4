import { expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { createBrokenCbz } from '../fixtures/comics.ts';
import { ADMIN, claimWithLibrary, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/** A book the server could not analyse, opened in the reader by its address: the reason and a way back. */
let folio: RunningFolio;
let libraryRoot: string;

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-unsupported-'));
  await createBrokenCbz(path.join(libraryRoot, 'Broken', 'Broken 01.cbz'));
  folio = await startFolio();
  await claimWithLibrary(folio.url, libraryRoot);
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test('an unreadable book opened in the reader says why and leads back to its page', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  const book = await findBook(p.context().request, folio.url, 'Broken 01');
  expect(['ERROR', 'UNSUPPORTED']).toContain(book.media.status);
  await p.goto(`${folio.url}/book/${book.id}/read`);
  // The book exists: not "cannot be found", and its page is there to go back to.
  await expect(p.getByRole('alert')).not.toHaveText(en.reader.book_not_found);
  await expect(p.getByRole('alert')).toContainText(/\S/);
  await p.getByRole('link', { name: en.reader.back }).click();
  await expect(p).toHaveURL(new RegExp(`/book/${book.id}$`));
});
