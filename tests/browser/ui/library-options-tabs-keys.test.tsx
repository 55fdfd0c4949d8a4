import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/ui/theme/theme.css.ts';
import { renderAt } from './render.tsx';

const { LibraryOptionsTabs, NEW_LIBRARY_OPTIONS } = await import('../../../src/ui/dialogs/LibraryOptionsTabs.tsx');

/*
 * The library dialogs' option tabs from the keyboard (WAI-ARIA tabs): the arrow pointing the way
 * the tabs run goes to the next one (left in a right-to-left page), Home and End to the ends.
 */
let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe.each([
  ['ltr', '{ArrowRight}', '{ArrowLeft}'],
  ['rtl', '{ArrowLeft}', '{ArrowRight}'],
] as const)('library option tabs in a %s page', (dir, forward, backward) => {
  it('move with the arrow toward the next tab, and with Home and End', async () => {
    view = renderAt(
      '/',
      <div dir={dir}>
        <LibraryOptionsTabs general={<p>general</p>} options={NEW_LIBRARY_OPTIONS} onChange={() => undefined} />
      </div>,
    );
    const general = page.getByRole('tab', { name: 'General' });
    await expect.element(general).toBeVisible();
    (general.element() as HTMLElement).focus();
    await userEvent.keyboard(forward);
    await expect.element(page.getByRole('tab', { name: 'Analysis' })).toHaveFocus();
    await expect.element(page.getByRole('tab', { name: 'Analysis' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard(backward);
    await expect.element(general).toHaveFocus();
    await userEvent.keyboard('{End}');
    await expect.element(page.getByRole('tab', { name: 'Metadata import' })).toHaveFocus();
    await userEvent.keyboard('{Home}');
    await expect.element(general).toHaveFocus();
    await expect.element(general).toHaveAttribute('aria-selected', 'true');
  });
});
