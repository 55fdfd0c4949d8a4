import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { DisclosureMenu } from '../../../src/ui/components/DisclosureMenu.tsx';
import '../../../src/ui/theme/theme.css.ts';
import { renderAt } from './render.tsx';

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

const actions = ['Edit series', 'Posters', 'Refresh metadata', 'Add to collection'].map((label) => ({ key: label, label, run: () => {} }));

/**
 * On a phone a menu button sits near either edge of the screen (Series actions at the start, Book
 * actions at the end): its list of actions, wider than the button, must open on screen whichever
 * edge that is and whichever way the page runs. It used to hang from the button's end edge
 * always, so a button at the start of a 390 px screen put the actions' first letters off screen.
 */
describe.each(['ltr', 'rtl'] as const)('DisclosureMenu in a %s page', (dir) => {
  for (const edge of ['start', 'end'] as const) {
    it(`opened from a button at the ${edge} of the screen, lists its actions on screen`, async () => {
      view = renderAt(
        '/',
        <div dir={dir} style={{ display: 'flex', justifyContent: edge === 'start' ? 'flex-start' : 'flex-end', width: '100vw' }}>
          <DisclosureMenu label="Actions" actions={actions} />
        </div>,
      );
      await page.getByRole('button', { name: 'Actions' }).click();
      const item = page.getByRole('button', { name: 'Add to collection' });
      await expect.element(item).toBeVisible();
      await expect
        .poll(() => {
          const box = item.element().getBoundingClientRect();
          return box.left >= 0 && box.right <= document.documentElement.clientWidth;
        })
        .toBe(true);
    });
  }
});

/**
 * On a phone the book page's Book actions button sits near the bottom of the screen: its list opened
 * below the fold, so only the first action showed and nothing said there were five more. The page
 * now scrolls (no further than needed) to show the whole list.
 */
describe('DisclosureMenu near the bottom of the screen', () => {
  it('scrolls its list of actions into view as it opens', async () => {
    view = renderAt(
      '/',
      <div>
        <div style={{ height: 'calc(100vh - 60px)' }} />
        <DisclosureMenu label="Actions" actions={actions} />
        <div style={{ height: '150vh' }} />
      </div>,
    );
    await page.getByRole('button', { name: 'Actions' }).click();
    const last = page.getByRole('button', { name: 'Add to collection' });
    await expect.element(last).toBeInTheDocument();
    await expect.poll(() => last.element().getBoundingClientRect().bottom <= window.innerHeight).toBe(true);
    // The button stays on screen above its list.
    expect(page.getByRole('button', { name: 'Actions' }).element().getBoundingClientRect().top).toBeGreaterThanOrEqual(0);
  });
});
