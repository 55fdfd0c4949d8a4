import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import en from '../../../locales/en.json';
import { logInAsAdmin } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/**
 * The add-library dialog's name and folder sit on its General tab. On any other tab its Add button
 * was greyed out with nothing saying why; now Add takes the user to the missing field and says so.
 * And on a phone, the navigation drawer it is opened from closes instead of staying behind it.
 */
const { AddLibraryDialog } = await import('../../../src/ui/dialogs/AddLibraryDialog.tsx');
const { AppShell } = await import('../../../src/ui/shell/AppShell.tsx');
const { session } = await import('../../../src/ui/store/session.ts');
const { dialogs } = await import('../../../src/ui/store/dialogs.ts');

beforeAll(async () => {
  session.me = await logInAsAdmin();
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  dialogs.addLibrary = false;
});

describe('the add-library dialog', () => {
  it('Add on another tab, with the name missing, goes back to General, marks the name and focuses it', async () => {
    view = renderAt('/welcome', <AddLibraryDialog open onClose={() => undefined} onAdded={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: en.libraries.add_dialog.title });
    await userEvent.fill(dialog.getByLabelText(en.libraries.add_dialog.root), '/somewhere');
    await userEvent.click(dialog.getByRole('tab', { name: en.libraries.option_groups.scanner }));
    const add = dialog.getByRole('button', { name: en.libraries.add_dialog.submit });
    await expect.element(add).toBeEnabled();
    await userEvent.click(add);
    await expect.element(dialog.getByRole('tab', { name: en.libraries.option_groups.general })).toHaveAttribute('aria-selected', 'true');
    const name = dialog.getByLabelText(en.libraries.add_dialog.name);
    await expect.element(name).toHaveFocus();
    await expect.element(name).toHaveAttribute('aria-invalid', 'true');
    await expect.element(name).toHaveAccessibleDescription(en.validation.required);
    // The folder was given: it is not marked.
    await expect.element(dialog.getByLabelText(en.libraries.add_dialog.root)).not.toHaveAttribute('aria-invalid');
  });

  it('on a phone, opening it from the menu closes the menu', async () => {
    // The browser tests' viewport is phone-wide, under the drawer's modal breakpoint.
    expect(window.matchMedia('screen and (max-width: 900px)').matches).toBe(true);
    view = renderAt('/dashboard', <AppShell>{null}</AppShell>);
    await userEvent.click(page.getByRole('button', { name: en.nav.toggle }));
    await userEvent.click(page.getByRole('button', { name: en.nav.new_library }));
    const add = page.getByRole('dialog', { name: en.libraries.add_dialog.title });
    await expect.element(add).toBeVisible();
    await expect.element(add.getByLabelText(en.libraries.add_dialog.name)).toHaveFocus();
    await expect.element(page.getByRole('button', { name: en.nav.toggle })).toHaveAttribute('aria-expanded', 'false');
    expect(document.querySelectorAll('dialog[open]').length).toBe(1);
  });
});
