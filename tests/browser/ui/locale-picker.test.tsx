import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { t } from '../../../src/ui/i18n.ts';
import { LocalePicker } from '../../../src/ui/shell/LocalePicker.tsx';
import { LocaleRoot } from '../../../src/ui/shell/LocaleRoot.tsx';
import { ThemeSwitch } from '../../../src/ui/shell/ThemeSwitch.tsx';
import { applyLocale, readSavedLocale } from '../../../src/ui/store/localeChoice.ts';
import { renderAt } from './render.tsx';

/** A slice of the shell: the picker beside the theme switch, and a translated heading. */
function Shell() {
  return (
    <LocaleRoot>
      {() => (
        <>
          <h1>{t('nav.home')}</h1>
          <ThemeSwitch />
          <LocalePicker />
        </>
      )}
    </LocaleRoot>
  );
}

const html = document.documentElement;

/** Runs `body` while `navigator.languages` reports `languages`, as a browser set to them would. */
function withBrowserLanguages(languages: string[], body: () => void): void {
  Object.defineProperty(navigator, 'languages', { configurable: true, get: () => languages });
  try {
    body();
  } finally {
    delete (navigator as { languages?: unknown }).languages;
  }
}
let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());
afterAll(async () => {
  localStorage.removeItem('folio.locale');
  await applyLocale('en');
});

describe('LocalePicker', () => {
  it('lists every locale file under its own name', async () => {
    view = renderAt('/', <Shell />);
    const picker = page.getByRole('combobox', { name: 'Language' });
    await expect.element(picker).toHaveValue('en');
    const names = [...picker.element().querySelectorAll('option')].map((option) => option.textContent);
    expect(names).toEqual(expect.arrayContaining(['English', 'Français', 'Deutsch', 'Español', 'العربية', 'Polski']));
  });

  it('switches to Arabic right-to-left and back to French left-to-right, live', async () => {
    view = renderAt('/', <Shell />);
    const english = page.getByRole('combobox', { name: 'Language' });
    await expect.element(english).toBeVisible();
    const selectElement = english.element();
    await userEvent.selectOptions(english, 'ar');
    await expect.element(page.getByRole('heading', { name: 'الرئيسية' })).toBeVisible();
    expect(html.dir).toBe('rtl');
    expect(html.lang).toBe('ar');
    // The rest of the tree re-rendered too: the theme switch beside the picker speaks Arabic.
    await expect.element(page.getByRole('group', { name: 'المظهر' })).toBeVisible();
    const picker = page.getByRole('combobox', { name: 'اللغة' });
    await expect.element(picker).toHaveValue('ar');
    // Re-rendered, not remounted: the same select element, so keyboard focus is not thrown away.
    expect(picker.element()).toBe(selectElement);

    await userEvent.selectOptions(picker, 'fr');
    await expect.element(page.getByRole('heading', { name: 'Accueil' })).toBeVisible();
    expect(html.dir).toBe('ltr');
    expect(html.lang).toBe('fr');
    await expect.element(page.getByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
  });

  it('remembers the choice: a fresh read of the store from localStorage applies it again', async () => {
    view = renderAt('/', <Shell />);
    await userEvent.selectOptions(page.getByRole('combobox', { name: /Language|Langue|اللغة/ }), 'ar');
    await expect.element(page.getByRole('heading', { name: 'الرئيسية' })).toBeVisible();
    expect(localStorage.getItem('folio.locale')).toBe('ar');

    // Back to English without saving, as a new page would start, then the startup path of main.tsx.
    await applyLocale('en');
    await expect.element(page.getByRole('heading', { name: 'Home' })).toBeVisible();
    expect(html.dir).toBe('ltr');

    vi.resetModules();
    const fresh = await import('../../../src/ui/store/localeChoice.ts');
    expect(fresh.readSavedLocale()).toBe('ar');
    expect(readSavedLocale()).toBe('ar');
    await applyLocale(readSavedLocale());
    await expect.element(page.getByRole('heading', { name: 'الرئيسية' })).toBeVisible();
    expect(html.dir).toBe('rtl');
  });

  it('ignores a stored locale that is not shipped', () => {
    localStorage.setItem('folio.locale', 'xx-Nope');
    withBrowserLanguages(['en-US'], () => expect(readSavedLocale()).toBe('en'));
  });

  it('starts a first visit in the best of the browser languages, region variants included', async () => {
    localStorage.removeItem('folio.locale');
    withBrowserLanguages(['sw-KE', 'ar-EG', 'fr-FR'], () => expect(readSavedLocale()).toBe('ar'));
    withBrowserLanguages(['fr-CA', 'ar'], () => expect(readSavedLocale()).toBe('fr'));
    withBrowserLanguages(['de-AT'], () => expect(readSavedLocale()).toBe('de'));
    withBrowserLanguages(['sw', 'xx-Nope'], () => expect(readSavedLocale()).toBe('en'));

    // The startup path of main.tsx: the page comes up in Arabic, right-to-left, with nothing saved.
    withBrowserLanguages(['ar-EG'], () => void applyLocale(readSavedLocale()));
    view = renderAt('/', <Shell />);
    await expect.element(page.getByRole('heading', { name: 'الرئيسية' })).toBeVisible();
    expect(html.dir).toBe('rtl');
    expect(localStorage.getItem('folio.locale')).toBeNull();
  });

  it('lets a saved choice win over the browser languages', () => {
    localStorage.setItem('folio.locale', 'de');
    withBrowserLanguages(['fr-FR'], () => expect(readSavedLocale()).toBe('de'));
    localStorage.removeItem('folio.locale');
  });
});
