import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Page } from '../../../src/api/types.ts';
import { logInAsAdmin, rest, writeImportFolder } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/**
 * The duplicate pages lists from the keyboard, against the run's real server: a row decided on
 * leaves its list, and the button or field that had focus goes with it. Focus must stay in the list
 * (the next row's same control), not fall on <body> before the page.
 */
const { DuplicatePagesScreen } = await import('../../../src/ui/screens/media/DuplicatePagesScreen.tsx');

type Hash = { hash: string; size: number; matchCount: number };
let shared: Hash[] = [];

beforeAll(async () => {
  await logInAsAdmin();
  // Two 4-page books sharing their first three pages: every page is an edge page, so all are hashed.
  const white = [250, 250, 250] as [number, number, number];
  const black = [5, 5, 5] as [number, number, number];
  const grey = [128, 128, 128] as [number, number, number];
  const folder = await writeImportFolder('dup-focus', [
    { name: 'Dup Focus 01', pages: [white, black, grey, [200, 0, 0]] },
    { name: 'Dup Focus 02', pages: [white, black, grey, [0, 0, 200]] },
  ], []);
  await rest('POST', '/api/v1/libraries', { name: 'dup-focus', root: folder, hashPages: true });
  await vi.waitFor(
    async () => {
      shared = (await rest<Page<Hash>>('GET', '/api/v1/page-hashes/unknown?size=50')).content.filter((h) => h.matchCount === 2);
      expect(shared).toHaveLength(3);
    },
    { timeout: 30_000, interval: 200 },
  );
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

/** The hash shown in the row holding the focused control. */
const focusedRowHash = () => document.activeElement?.closest('tr')?.querySelector('img')?.getAttribute('src')?.match(/page-hashes\/(?:unknown\/)?([^/]+)\/thumbnail/)?.[1];

const screen = (which: 'known' | 'unknown') => (
  // The shell's <main> (AppShell), where focus goes on once no row is left.
  <main tabIndex={-1}>
    <DuplicatePagesScreen which={which} />
  </main>
);

describe('duplicate pages from the keyboard', () => {
  it('the unknown tab: a decided row leaves, focus moves to the next row\'s same action, then the previous, then <main>', async () => {
    view = renderAt('/media-management/duplicate-pages/unknown', screen('unknown'));
    const rows = page.getByRole('row').filter({ has: page.getByRole('img') });
    await expect.poll(() => rows.elements().length).toBe(3);

    const first = page.getByRole('button', { name: 'Ignore: page 1' });
    (first.element() as HTMLElement).focus();
    const decided = focusedRowHash();
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => rows.elements().length).toBe(2);
    await expect.element(page.getByRole('button', { name: 'Ignore: page 1' })).toHaveFocus();
    expect(focusedRowHash()).not.toBe(decided);

    // The last row: the one before it takes focus.
    (page.getByRole('button', { name: 'Ignore: page 2' }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => rows.elements().length).toBe(1);
    await expect.element(page.getByRole('button', { name: 'Ignore: page 1' })).toHaveFocus();

    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByText('No unknown duplicate pages.')).toBeVisible();
    await expect.element(page.getByRole('main')).toHaveFocus();
  });

  it('the known tab filtered by action: a row whose action changed leaves, focus moves to the next row\'s action', async () => {
    for (const hash of shared) await rest('PUT', '/api/v1/page-hashes', { hash: hash.hash, size: hash.size, action: 'IGNORE' });
    view = renderAt('/media-management/duplicate-pages/known', screen('known'));
    await userEvent.selectOptions(page.getByLabelText('Show'), 'IGNORE');
    const rows = page.getByRole('row').filter({ has: page.getByRole('combobox') });
    await expect.poll(() => rows.elements().length).toBe(3);
    const field = page.getByLabelText('Action for page 1');
    (field.element() as HTMLElement).focus();
    const changed = focusedRowHash();
    await userEvent.selectOptions(field, 'DELETE_MANUAL');
    await expect.poll(() => rows.elements().length).toBe(2);
    await expect.element(page.getByLabelText('Action for page 1')).toHaveFocus();
    expect(focusedRowHash()).not.toBe(changed);
  });
});
