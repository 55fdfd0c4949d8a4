import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import '../../../src/ui/theme/theme.css.ts';
import { t } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { renderAt } from './render.tsx';

const { ShortcutsDialog } = await import('../../../src/ui/reader/ShortcutsDialog.tsx');

let view: ReturnType<typeof renderAt> | undefined;
afterEach(async () => {
  view?.unmount();
  await page.viewport(1280, 800);
  await applyLocale('en');
});

describe('reader shortcut help on a phone', () => {
  // With the app's own type (theme.css.ts), as the reader shows it.
  it('every shortcut row fits inside the dialog (360 px wide)', async () => {
    await page.viewport(360, 740);
    view = renderAt('/book/b/read', <ShortcutsDialog onClose={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect.element(dialog).toBeVisible();
    const box = dialog.element().getBoundingClientRect();
    // "Space PageDown PageUp" kept on one line once pushed the descriptions past the dialog's edge.
    for (const table of dialog.element().querySelectorAll('table')) {
      expect(table.getBoundingClientRect().right).toBeLessThanOrEqual(box.right);
    }
  });

  // Named keys are printed in the language on its keyboards ("Pos1", "Leertaste"), and longer there.
  it('names keys as German keyboards label them, and the rows still fit (360 px wide)', async () => {
    await applyLocale('de');
    await page.viewport(360, 740);
    view = renderAt('/book/b/read', <ShortcutsDialog onClose={() => undefined} reader="text" />);
    const dialog = page.getByRole('dialog', { name: t('reader.shortcuts') });
    await expect.element(dialog).toBeVisible();
    const caps = [...dialog.element().querySelectorAll('kbd')].map((kbd) => kbd.textContent);
    expect(caps).toEqual(expect.arrayContaining(['Pos1', 'Ende', 'Leertaste', 'Umschalt+←']));
    expect(caps.filter((cap) => /Home|End\b|Space|Shift|Page/.test(cap ?? ''))).toEqual([]);
    const box = dialog.element().getBoundingClientRect();
    for (const table of dialog.element().querySelectorAll('table')) {
      expect(table.getBoundingClientRect().right).toBeLessThanOrEqual(box.right);
    }
  });

  // The description named the chord in English ("Shift+Space") in 14 languages whose key caps beside it are translated.
  it.each(['cs', 'ar', 'ja'])('%s: the text reader help names the chord in its description as its key caps do', async (code) => {
    await applyLocale(code);
    view = renderAt('/book/b/read', <ShortcutsDialog onClose={() => undefined} reader="text" />);
    const dialog = page.getByRole('dialog', { name: t('reader.shortcuts') });
    await expect.element(dialog).toBeVisible();
    const chord = `${t('reader.keys.Shift')}+${t('reader.keys.Space')}`;
    const descriptions = [...dialog.element().querySelectorAll('td:last-child')].map((cell) => cell.textContent ?? '');
    expect(descriptions.filter((text) => text.includes(chord))).toHaveLength(1);
    expect(descriptions.filter((text) => /Space|\{\{/.test(text))).toEqual([]);
  });
});
