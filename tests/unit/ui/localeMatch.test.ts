import { describe, expect, it } from 'vitest';
import { matchBrowserLocale } from '../../../src/ui/localeMatch.ts';

const shipped = ['en', 'ar', 'de', 'fr', 'nb', 'pt', 'pt-BR', 'zh-Hans', 'zh-Hant'];

describe('matchBrowserLocale', () => {
  it.each([
    [['pt-BR'], 'pt-BR'],
    [['pt-PT'], 'pt'],
    [['pt'], 'pt'],
    [['zh-TW'], 'zh-Hant'],
    [['zh-HK'], 'zh-Hant'],
    [['zh-Hant'], 'zh-Hant'],
    [['zh-CN'], 'zh-Hans'],
    [['zh'], 'zh-Hans'],
    [['zh-SG'], 'zh-Hans'],
    [['nb-NO'], 'nb'],
    [['no'], 'nb'],
    [['nn-NO'], 'nb'],
    [['de-AT'], 'de'],
    [['AR-eg'], 'ar'],
    [['fr-CA', 'de'], 'fr'],
  ])('%j → %s', (preferred, expected) => {
    expect(matchBrowserLocale(preferred, shipped)).toBe(expected);
  });

  it('walks the preferences in order, skipping languages not shipped and tags that are not tags', () => {
    expect(matchBrowserLocale(['sw-KE', 'not a tag!', 'de-CH', 'fr'], shipped)).toBe('de');
  });

  it('takes any shipped variant of the language when the plain language is not shipped', () => {
    expect(matchBrowserLocale(['pt-AO'], ['en', 'pt-BR'])).toBe('pt-BR');
  });

  it('falls back to English when nothing matches or the browser gives nothing', () => {
    expect(matchBrowserLocale(['sw', 'ko'], shipped)).toBe('en');
    expect(matchBrowserLocale([], shipped)).toBe('en');
  });
});
