import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatBytes, formatDate, formatDateTime, formatDuration, formatList, formatNumber, formatPercent } from '../../../src/ui/format.ts';
import { t, tPlural } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';

/** Everything the client shows as a number, size, date or duration goes through Intl in the chosen locale. */
afterAll(() => applyLocale('en'));

describe('Intl formatting in the chosen locale', () => {
  it('English: grouping, decimal sizes with their unit, dates from ISO values', async () => {
    await applyLocale('en');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatBytes(999)).toBe('999 byte');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatDate('2024-03-05')).toBe('Mar 5, 2024');
    expect(formatDuration(42.25)).toBe('42.3 sec');
    expect(formatDuration(125)).toBe('2 min 5 sec');
    expect(formatDuration(3725)).toBe('1 hr 2 min');
  });

  it('French: comma decimals, narrow-space grouping and French unit names', async () => {
    await applyLocale('fr');
    expect(formatNumber(1234567)).toBe('1\u202f234\u202f567');
    expect(formatBytes(1_500_000)).toBe('1,5\u202fMo');
    expect(formatDate('2024-03-05')).toBe('5 mars 2024');
    // Numbers handed to a message are formatted too: the count of a plural and a page counter.
    expect(tPlural('units.books', 1500)).toContain('1\u202f500');
    expect(t('reader.page_counter', { page: 1200, total: 1500 })).toContain('1\u202f200');
  });

  it('Arabic: the locale’s own date order, bidi marks, digits and unit names', async () => {
    await applyLocale('ar');
    const arabic = /[\u0600-\u06FF]/;
    expect(formatDate('2024-03-05')).toBe(new Intl.DateTimeFormat('ar', { dateStyle: 'medium' }).format(new Date('2024-03-05')));
    expect(formatDateTime('2024-03-05T10:20:00Z')).toBe(
      new Intl.DateTimeFormat('ar', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2024-03-05T10:20:00Z')),
    );
    expect(formatBytes(2_000_000)).toMatch(arabic);
    expect(formatNumber(1234.5)).toBe(new Intl.NumberFormat('ar').format(1234.5));
    expect(t('reader.page_counter', { page: 1234, total: 5000 })).toContain(new Intl.NumberFormat('ar').format(1234));
  });

  it('lists of names (tags, authors, roles) take the language’s separator', async () => {
    await applyLocale('en');
    expect(formatList(['Ada', 'Brook', 'Cole'])).toBe('Ada, Brook, Cole');
    await applyLocale('ar');
    expect(formatList(['أ', 'ب'])).toBe('أ، ب');
    await applyLocale('ja');
    expect(formatList(['冒険', 'ギャグ'])).toBe('冒険、ギャグ');
    await applyLocale('zh-Hans');
    expect(formatList(['冒险', '喜剧'])).toBe('冒险、喜剧');
    expect(formatList([])).toBe('');
  });

  it('percentages take the locale’s sign, spacing and digits', async () => {
    await applyLocale('en');
    expect(formatPercent(5)).toBe('5%');
    await applyLocale('fr');
    expect(formatPercent(5)).toBe('5\u00a0%');
    await applyLocale('tr');
    expect(formatPercent(5)).toBe('%5');
    await applyLocale('fa');
    expect(formatPercent(5)).toBe(new Intl.NumberFormat('fa', { style: 'percent' }).format(0.05));
    expect(formatPercent(5)).toMatch(/[\u06F0-\u06F9]/);
  });

  it('messages with numbers reuse one number formatter per locale (the reader formats its counter on every turn)', async () => {
    await applyLocale('fr');
    t('reader.page_counter', { page: 1, total: 2 });
    const construct = vi.spyOn(Intl, 'NumberFormat');
    try {
      for (let page = 1; page <= 50; page++) t('reader.page_counter', { page, total: 5000 });
      expect(construct).not.toHaveBeenCalled();
      expect(t('reader.page_counter', { page: 1200, total: 5000 })).toContain('1\u202f200');
    } finally {
      construct.mockRestore();
    }
    await applyLocale('ar');
    expect(t('reader.page_counter', { page: 1234, total: 5000 })).toContain(new Intl.NumberFormat('ar').format(1234));
  });

  it('leaves a value it cannot read as a date as it is', async () => {
    await applyLocale('en');
    expect(formatDate('not a date')).toBe('not a date');
  });
});
