import { expect, request as playwrightRequest, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { RED, createCbz } from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './support/api.ts';
import { smallTapTargets } from './support/tap-targets.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * On a touch phone. Tab rows wider than the screen scroll sideways: opened on a tab past the
 * screen's edge (a library's Read Lists, media management's duplicate pages), the row showed no tab
 * marked as the current one. And the buttons a fingertip must hit are at least 40 px.
 */
let folio: RunningFolio;
let libraryRoot: string;
let libraryId = '';

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-tabs-'));
  await createCbz(path.join(libraryRoot, 'Saga', 'Saga 01.cbz'), [{ width: 600, height: 900, color: RED, format: 'png' }]);
  folio = await startFolio();
  const setup = await playwrightRequest.newContext();
  await claimAndLogIn(setup, folio.url);
  libraryId = (await addLibraryAndWait(setup, folio.url, libraryRoot)).id;
  await setup.dispose();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

for (const { route, name } of [
  { route: () => `/libraries/${libraryId}/readlists`, name: en.libraries.tabs.readlists },
  { route: () => '/media-management/duplicate-pages/known', name: en.media.tabs.duplicate_pages },
]) {
  test(`opened on "${name}", the current tab is on screen`, async ({ page: p }) => {
    await logIn(p.context().request, folio.url, ADMIN);
    await p.goto(`${folio.url}${route()}`);
    const tab = p.getByRole('link', { name, exact: true });
    await expect(tab).toHaveAttribute('aria-current', 'page');
    await expect.poll(async () => {
      const box = (await tab.boundingBox())!;
      return box.x >= 0 && box.x + box.width <= 390;
    }).toBe(true);
  });
}

test('every button on the series browse screen is at least 40 px for a fingertip: navigation, letters, pages', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/libraries/${libraryId}/series`);
  await expect(p.getByRole('button', { name: 'All', exact: true })).toBeVisible();
  await expect(p.getByRole('navigation', { name: 'Pagination' })).toBeVisible();
  const small = await p.getByRole('button').evaluateAll((buttons) =>
    buttons
      .filter((b) => b.checkVisibility())
      .map((b) => ({ name: b.getAttribute('aria-label') ?? b.textContent?.trim(), box: b.getBoundingClientRect() }))
      .filter(({ box }) => Math.min(box.width, box.height) < 40)
      .map(({ name, box }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
  expect(small).toEqual([]);
});

test('a tap beside a card\'s small selection box, within a fingertip\'s 40 px, selects the card', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/libraries/${libraryId}/series`);
  const box = p.getByRole('checkbox', { name: 'Select Saga' });
  await expect(box).not.toBeChecked();
  const drawn = (await box.boundingBox())!;
  // 12 px right of and below the drawn box: a finger's miss by a few pixels.
  await p.touchscreen.tap(drawn.x + drawn.width + 12, drawn.y + drawn.height + 12);
  await expect(box).toBeChecked();
});

test('the series filters\' check boxes each have a row a fingertip can hit: 40 px tall, and a tap on the row toggles it', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/libraries/${libraryId}/series`);
  await p.getByRole('button', { name: en.browse.filters, exact: true }).click();
  const unread = p.getByRole('checkbox', { name: en.browse.read_statuses.UNREAD, exact: true });
  await expect(unread).toBeVisible();
  // The target is the check box's label (the drawn box is 13 px): each label must be 40 px tall.
  const short = await p.locator('input[type=checkbox]').evaluateAll((elements) =>
    (elements as HTMLInputElement[])
      .filter((input) => input.checkVisibility() && !input.closest('[aria-label^="Select"]'))
      .map((input) => ({ name: input.labels?.[0]?.textContent?.trim(), height: input.labels?.[0]?.getBoundingClientRect().height ?? 0 }))
      .filter(({ height }) => height < 40)
      .map(({ name, height }) => `${name} ${Math.round(height)}`),
  );
  expect(short).toEqual([]);
  // A finger lands on the row beside the words, a little below their middle.
  const label = (await p.locator('label', { hasText: en.browse.read_statuses.UNREAD }).first().boundingBox())!;
  await p.touchscreen.tap(label.x + label.width - 2, label.y + label.height - 6);
  await expect(unread).toBeChecked();
});

test('every check box and radio is itself 24 px on a touch phone (the browser draws 13 px), wherever its label is', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, ADMIN);
  await p.goto(`${folio.url}/libraries/${libraryId}/series`);
  await p.getByRole('button', { name: en.browse.filters, exact: true }).click();
  await expect(p.getByRole('checkbox', { name: en.browse.read_statuses.UNREAD, exact: true })).toBeVisible();
  const boxes = p.locator('input[type=checkbox], input[type=radio]');
  const shown = await boxes.evaluateAll((inputs) =>
    inputs
      // The theme switch's radios are hidden on purpose: their drawn labels are the control.
      .filter((input) => input.checkVisibility() && getComputedStyle(input).opacity !== '0')
      .map((input) => ({ name: input.getAttribute('aria-label') ?? (input as HTMLInputElement).labels?.[0]?.textContent?.trim(), box: input.getBoundingClientRect() }))
      .map(({ name, box }) => ({ name, small: Math.min(box.width, box.height) < 24, size: `${Math.round(box.width)}×${Math.round(box.height)}` })),
  );
  // The filters' statuses, genres, tags… and each card's selection box.
  expect(shown.length).toBeGreaterThan(5);
  expect(shown.filter((b) => b.small).map((b) => `${b.name} ${b.size}`)).toEqual([]);
  // And nothing else on the screen (pagination, toolbar, cards) is under WCAG 2.2's 24 px.
  expect(await smallTapTargets(p)).toEqual([]);
});
