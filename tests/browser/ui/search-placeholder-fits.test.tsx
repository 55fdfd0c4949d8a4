import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import '../../../src/ui/theme/theme.css.ts';
import { t } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { renderAt } from './render.tsx';

const { SearchBox } = await import('../../../src/ui/search/SearchBox.tsx');
const LOCALES = Object.keys(import.meta.glob('../../../locales/*.json')).map((path) => path.replace(/^.*\/([^/]+)\.json$/, '$1'));

let view: ReturnType<typeof renderAt> | undefined;
afterEach(async () => {
  view?.unmount();
  await page.viewport(1280, 800);
  await applyLocale('en');
});

/**
 * Whether `text` fits whole in `input`, as the browser lays it out: a copy of the field (same
 * classes, same width) holding it as its value scrolls when it does not. Another measure than
 * the one the search box uses to choose (a hidden copy of the text).
 */
function fits(input: HTMLInputElement, text: string): boolean {
  const copy = input.cloneNode() as HTMLInputElement;
  copy.removeAttribute('id');
  copy.value = text;
  copy.style.width = `${input.getBoundingClientRect().width}px`;
  input.parentElement!.append(copy);
  try {
    return copy.scrollWidth <= copy.clientWidth;
  } finally {
    copy.remove();
  }
}

/**
 * On a phone the app bar's search field is 45% of the screen wide and its placeholder was cut at
 * its edge ("Искать сери…" for "Искать серии, книги…"). It now shows the full hint where it fits,
 * a short one (search.placeholder_short) where only that fits, never a cut one; its name stays.
 */
describe('the search field\'s placeholder', () => {
  it.each(LOCALES)('%s: fits whole at 360 px', async (code) => {
    await applyLocale(code);
    await page.viewport(360, 740);
    view = renderAt('/dashboard', <SearchBox />);
    const box = page.getByRole('combobox', { name: t('search.label') });
    await expect.element(box).toBeVisible();
    const input = box.element() as HTMLInputElement;
    await expect.poll(() => input.placeholder === t('search.placeholder') || input.placeholder === t('search.placeholder_short')).toBe(true);
    // Once laid out: the placeholder shown is one that fits, and a short one only when the full one does not.
    await expect.poll(() => fits(input, input.placeholder)).toBe(true);
    if (input.placeholder === t('search.placeholder_short')) expect(fits(input, t('search.placeholder'))).toBe(false);
  });

  it('shows the full hint on a wide screen', async () => {
    await page.viewport(1280, 800);
    view = renderAt('/dashboard', <SearchBox />);
    const box = page.getByRole('combobox', { name: 'Search' });
    await expect.element(box).toHaveAttribute('placeholder', 'Search series, books…');
  });
});
