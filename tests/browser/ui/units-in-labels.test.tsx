import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { t } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { logInAsAdmin } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { ServerScreen } = await import('../../../src/ui/screens/ServerScreen.tsx');
const { ImportReadListScreen } = await import('../../../src/ui/screens/ImportReadListScreen.tsx');
const { session } = await import('../../../src/ui/store/session.ts');
const { READ_LIST_FILE_MAX_MB } = await import('../../../src/api/readListImport.ts');

let view: ReturnType<typeof renderAt> | undefined;
beforeAll(async () => {
  session.me = await logInAsAdmin();
});
afterEach(() => view?.unmount());
afterAll(() => applyLocale('en'));

/**
 * Sizes written inside messages kept the English digits and unit: the poster sizes "(300 px)" in
 * Persian and Thai beside their own pixel word elsewhere, the read list limit "5 MB" in every
 * language. The number now comes written by Intl or common.pixels.
 */
describe('sizes in labels', () => {
  it('fa: the poster sizes are in Persian digits and its word for pixels', async () => {
    await applyLocale('fa');
    view = renderAt('/settings/server', <ServerScreen />);
    const select = page.getByRole('combobox', { name: t('server.settings.thumbnail_size') });
    await expect.element(select).toBeVisible();
    const options = [...select.element().querySelectorAll('option')].map((option) => option.textContent ?? '');
    expect(options).toEqual(['DEFAULT', 'MEDIUM', 'LARGE', 'XLARGE'].map((size, index) => t(`server.thumbnail_sizes.${size}`, { size: t('common.pixels', { n: [300, 600, 900, 1200][index]! }) })));
    expect(options.join(' ')).toContain('۳۰۰');
    expect(options.join(' ')).not.toMatch(/\d|px/);
  });

  it('fr: the read list limit is named in French units', async () => {
    await applyLocale('fr');
    view = renderAt('/import/readlist', <ImportReadListScreen />);
    const big = new File([new Uint8Array(READ_LIST_FILE_MAX_MB * 1024 * 1024 + 1)], 'huge.cbl', { type: 'application/xml' });
    await userEvent.upload(page.getByLabelText(t('import_readlist.file')), big);
    await userEvent.click(page.getByRole('button', { name: t('import_readlist.analyse') }));
    await expect.element(page.getByRole('alert')).toBeVisible();
    // Intl puts a no-break space between number and unit.
    const shown = (page.getByRole('alert').element().textContent ?? '').replace(/\s/g, ' ');
    expect(shown).toBe('Le fichier doit faire moins de 5 Mo.');
  });
});
