import { afterAll, describe, expect, it } from 'vitest';
import { t } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';

const { applySettingShortcut } = await import('../../../src/ui/reader/settingShortcuts.ts');
const { readerPreferences } = await import('../../../src/ui/reader/settingsStore.ts');

afterAll(() => applyLocale('en'));

/**
 * The webtoon's side padding and page margin notices (keys p and n) wrote their unit inside each
 * message: Russian, Catalan, Galician and Romanian "10%" without the space their languages put there,
 * Persian, Thai and Chinese "px" where their pixel word is "پیکسل", "พิกเซล", "像素". The number now
 * comes written with its unit as Intl and common.pixels write it.
 */
describe('reader setting notices', () => {
  it.each([
    ['tr', '%10'],
    ['ru', '10 %'],
    ['fr', '10 %'],
    ['en', '10%'],
  ])('%s: the side padding is a percentage as the language writes it (%s)', async (code, percent) => {
    await applyLocale(code);
    readerPreferences.sidePadding = 5;
    const notice = applySettingShortcut('cycle-padding', true)!;
    // (Intl's spaces there are no-break ones: compared as spaces.)
    const spaced = (text: string) => text.replace(/\s/g, ' ');
    expect(spaced(notice)).toBe(spaced(t('reader.notice_padding', { value: percent })));
  });

  it.each(['fa', 'th', 'zh-Hans', 'ru'])('%s: the page margin names pixels as the language does', async (code) => {
    await applyLocale(code);
    readerPreferences.pageMargin = 5;
    const notice = applySettingShortcut('cycle-margin', true)!;
    expect(notice).toContain(t('common.pixels', { n: 10 }));
    expect(notice).not.toMatch(/px/);
  });
});
