import { expect, test, type Page, type Route } from '@playwright/test';
import { useBrowseServer } from './support/browse-server.ts';

/**
 * What changed while the live event stream was not connected reaches the page when it connects.
 * The server's events go to the streams open at that moment: a change made before a page's stream
 * is up (the page just loaded) or while it is down (server restart, network gone) is announced to
 * no one, so the page reloads what it shows when its stream (re)opens.
 *
 * The stream's requests are held with page.route, so the change is certainly made while no stream
 * is connected; no timing is assumed.
 */
const server = useBrowseServer('live-resync');
const api = () => server.api();
const EVENTS = /\/sse\/v1\/events(\?|$)/;

/** Holds each event stream request until `release()`; `arrived` resolves when the n-th one is held. */
function holdStreams(page: Page, answer: (route: Route, n: number) => Promise<void>) {
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    async install() {
      await page.route(EVENTS, async (route) => {
        count += 1;
        const n = count;
        for (const w of waiters.filter((w) => w.n === n)) w.resolve();
        await answer(route, n);
      });
    },
    arrived(n: number): Promise<void> {
      if (count >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
  };
}

test('a series renamed before the page\'s first stream connected shows its new title once the stream opens', async ({ page }) => {
  const series = await api().seriesByTitle('Crimson Tide');
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const streams = holdStreams(page, async (route) => {
    await released;
    await route.continue();
  });
  await streams.install();

  await page.goto(`${server.folio.url}/series/${series.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Crimson Tide' })).toBeVisible();
  await streams.arrived(1);

  // No stream is connected: the SeriesChanged event of this edit reaches no one.
  await api().send('PATCH', `/api/v1/series/${series.id}/metadata`, { title: 'Crimson Tide Renamed' });
  const opened = page.waitForResponse((response) => EVENTS.test(response.url()) && response.ok());
  release();
  await opened;
  await expect(page.getByRole('heading', { level: 1, name: 'Crimson Tide Renamed' })).toBeVisible();
  await api().send('PATCH', `/api/v1/series/${series.id}/metadata`, { title: 'Crimson Tide' });
});

test('a series renamed while the stream was down (it ended, the reconnection is held) shows its new title once it reconnects', async ({ page }) => {
  const series = await api().seriesByTitle('Delta Files');
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const streams = holdStreams(page, async (route, n) => {
    // The first stream opens and ends at once, as when the server stops; the browser reconnects.
    if (n === 1) return route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 200\n\n:\n\n' });
    await released;
    await route.continue();
  });
  await streams.install();

  await page.goto(`${server.folio.url}/series/${series.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Delta Files' })).toBeVisible();
  await streams.arrived(2);

  await api().send('PATCH', `/api/v1/series/${series.id}/metadata`, { title: 'Delta Files Renamed' });
  const reopened = page.waitForResponse((response) => EVENTS.test(response.url()) && response.ok());
  release();
  await reopened;
  await expect(page.getByRole('heading', { level: 1, name: 'Delta Files Renamed' })).toBeVisible();
  await api().send('PATCH', `/api/v1/series/${series.id}/metadata`, { title: 'Delta Files' });
});
