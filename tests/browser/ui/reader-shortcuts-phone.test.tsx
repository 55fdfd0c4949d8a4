import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import '../../../src/ui/theme/theme.css.ts';
import { renderAt } from './render.tsx';

const { ShortcutsDialog } = await import('../../../src/ui/reader/ShortcutsDialog.tsx');

let view: ReturnType<typeof renderAt> | undefined;
afterEach(async () => {
  view?.unmount();
  await page.viewport(1280, 800);
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
});
