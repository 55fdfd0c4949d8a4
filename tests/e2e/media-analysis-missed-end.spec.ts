import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { createBrokenCbz } from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './support/api.ts';
import { watchEvents } from './support/event-watch.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';
import { holdEventStreamReconnection } from './support/held-reconnection.ts';

/**
 * An analysis asked for on the media analysis screen whose end (BookChanged) is sent while the
 * page's event stream is down: the row said "Analysis started" until the page was reloaded. Once
 * the stream reopens and the server's task counts hold no analysis, the screen reads the list again
 * and says the analysis has ended. The page's stream is held with page.route; the test hears the
 * end on a stream of its own.
 */
let folio: RunningFolio;
let root: string;
let api: APIRequestContext;

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-e2e-analysis-missed-'));
  await createBrokenCbz(path.join(root, 'Broken', 'Broken 01.cbz'));
  folio = await startFolio();
  api = await playwrightRequest.newContext();
  await claimAndLogIn(api, folio.url);
  await addLibraryAndWait(api, folio.url, root);
});

test.afterAll(async () => {
  await api?.dispose();
  await folio?.stop();
  await rm(root, { recursive: true, force: true });
});

test('an analysis that ended while the stream was down is told as ended once it reconnects', async ({ page }) => {
  await logIn(page.context().request, folio.url, ADMIN);
  // The first stream opens and ends at once, as when the server restarts; the reconnection is held.
  const { held, release } = await holdEventStreamReconnection(page);
  await page.goto(`${folio.url}/media-management/analysis`);
  const broken = page.getByRole('table').getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Broken 01' }) });
  const analyse = broken.getByRole('button', { name: en.media.analysis.analyse_book.replace('{{name}}', 'Broken 01') });
  await expect(analyse).toBeEnabled();
  await held;

  const events = await watchEvents(page.context().request, folio.url);
  try {
    await analyse.click();
    await expect(analyse).toHaveText(en.media.analysis.started);
    await events.next('BookChanged');
  } finally {
    events.close();
  }

  release();
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: en.media.analysis.finished.replace('{{name}}', 'Broken 01') })).toBeVisible();
  await expect(analyse).toBeEnabled();
  await expect(analyse).toHaveText(en.libraries.actions.analyze);
});
