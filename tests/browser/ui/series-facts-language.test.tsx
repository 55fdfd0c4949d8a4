import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { SeriesScreen } = await import('../../../src/ui/screens/SeriesScreen.tsx');
const { SeriesBrowseView } = await import('../../../src/ui/screens/library/SeriesBrowseView.tsx');

/**
 * A series' facts as a reader of another language sees them, from the real server: its language was
 * the stored tag ("fr"), its age rating "12+" with Latin digits, its year the first four characters
 * of a date; each is now written by Intl or the locale in the reader's language.
 */
let SERIES: SeriesDto;
let LIBRARY_ID: string;

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = (LIBRARY_ID = await seedLibrary('series-facts-language', [{ folder: 'Facts Saga', books: [{ name: 'Facts Saga 01', pages: [[0, 128, 0]] }] }]));
  const book = (await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}`)).content[0]!;
  await rest('PATCH', `/api/v1/books/${book.id}/metadata`, { releaseDate: '2024-01-01' });
  await rest('PATCH', `/api/v1/series/${book.seriesId}/metadata`, { language: 'fr', ageRating: 12, alternateTitles: [{ label: 'Romaji', title: 'Fakuto' }] });
  SERIES = await vi.waitUntil(
    async () => {
      const series = await rest<SeriesDto>('GET', `/api/v1/series/${book.seriesId}`);
      return series.booksMetadata.releaseDate ? series : undefined;
    },
    { timeout: 15_000, interval: 50 },
  );
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());
afterAll(() => applyLocale('en'));

describe("a series' facts in the reader's language", () => {
  it('ja: language name, age rating and year are written in Japanese', async () => {
    await applyLocale('ja');
    view = renderAt(`/series/${SERIES.id}`, <SeriesScreen seriesId={SERIES.id} />);
    await expect.element(page.getByText('フランス語', { exact: true })).toBeVisible();
    await expect.element(page.getByText('12歳以上', { exact: true })).toBeVisible();
    await expect.element(page.getByText('2024年', { exact: true })).toBeVisible();
    // Its alternate title's label in Japanese brackets, not ASCII ones joined in code.
    await expect.element(page.getByText('Fakuto（Romaji）', { exact: true })).toBeVisible();
  });

  it('fa: the year and the age rating in Persian digits and calendar, the language named in Persian', async () => {
    await applyLocale('fa');
    view = renderAt(`/series/${SERIES.id}`, <SeriesScreen seriesId={SERIES.id} />);
    await expect.element(page.getByText(new Intl.DisplayNames(['fa'], { type: 'language' }).of('fr')!, { exact: true })).toBeVisible();
    await expect.element(page.getByText('+۱۲', { exact: true })).toBeVisible();
    // In the calendar Persian dates use everywhere in the client (1402 in the solar year), its digits.
    const year = new Intl.DateTimeFormat('fa', { year: 'numeric', timeZone: 'UTC' }).format(new Date('2024-01-01'));
    expect(year).toMatch(/^[۰-۹]+/);
    await expect.element(page.getByText(year, { exact: true })).toBeVisible();
  });

  it("fa: the library's page sizes are offered in Persian digits", async () => {
    await applyLocale('fa');
    view = renderAt(`/libraries/${LIBRARY_ID}/series`, <SeriesBrowseView libraryId={LIBRARY_ID} />);
    const persian = new Intl.NumberFormat('fa');
    const select = page.getByRole('combobox', { name: /.+/ }).filter({ hasText: persian.format(20) });
    await expect.element(select).toBeVisible();
    const labels = [...(select.element() as HTMLSelectElement).options].map((option) => option.text);
    expect(labels.length).toBeGreaterThan(1);
    for (const label of labels) expect(label).toMatch(/^[۰-۹٬]+$/);
  });
});
