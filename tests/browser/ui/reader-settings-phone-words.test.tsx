import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import '../../../src/ui/theme/theme.css.ts';
import { t } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { renderAt } from './render.tsx';

const { SettingsDialog } = await import('../../../src/ui/reader/SettingsDialog.tsx');

let view: ReturnType<typeof renderAt> | undefined;
afterEach(async () => {
  view?.unmount();
  await page.viewport(1280, 800);
  await applyLocale('en');
});

/** The words of an element's text that the layout broke between two lines, letter from letter. */
function brokenWords(element: Element): string[] {
  const broken: string[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    for (const match of text.matchAll(/\p{L}+/gu)) {
      const tops = new Set<number>();
      for (let at = match.index; at < match.index + match[0].length; at++) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        tops.add(Math.round(range.getBoundingClientRect().top));
      }
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}

/**
 * On a phone the reader's settings gave a checkbox's label the width left of the widest select, a
 * third of the dialog: long words broke mid-letter ("перелистыван|ие", "przesuwani|a",
 * "diagnostycz|ną"). Languages with long words, at a phone's width.
 */
describe('reader settings on a phone', () => {
  it.each(['ru', 'pl', 'de', 'fi', 'uk'])('%s: no label breaks a word, and each checkbox and select stays in the dialog (360 px)', async (code) => {
    await applyLocale(code);
    await page.viewport(360, 740);
    view = renderAt('/book/b/read', <SettingsDialog direction="LEFT_TO_RIGHT" onDirection={() => undefined} onClose={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: t('reader.settings') });
    await expect.element(dialog).toBeVisible();
    const labels = [...dialog.element().querySelectorAll('label')];
    expect(labels.length).toBeGreaterThan(8);
    expect(labels.flatMap((label) => brokenWords(label))).toEqual([]);
    const box = dialog.element().getBoundingClientRect();
    for (const checkbox of dialog.element().querySelectorAll('input[type="checkbox"], select')) {
      const rect = checkbox.getBoundingClientRect();
      expect(rect.right).toBeLessThanOrEqual(box.right);
      expect(rect.left).toBeGreaterThanOrEqual(box.left);
    }
  });

  it('on a wide screen, a checkbox stays in the column of the selects', async () => {
    await applyLocale('ru');
    view = renderAt('/book/b/read', <SettingsDialog direction="LEFT_TO_RIGHT" onDirection={() => undefined} onClose={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: t('reader.settings') });
    await expect.element(dialog).toBeVisible();
    const select = dialog.element().querySelector('select')!.getBoundingClientRect();
    const checkbox = dialog.element().querySelector('input[type="checkbox"]')!.getBoundingClientRect();
    // (A checkbox's own margin aside.)
    expect(Math.abs(checkbox.left - select.left)).toBeLessThan(6);
  });
});
