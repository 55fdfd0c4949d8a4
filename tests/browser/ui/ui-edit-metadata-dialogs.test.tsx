import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { EditBookDialog } = await import('../../../src/ui/dialogs/EditBookDialog.tsx');
const { EditSeriesDialog } = await import('../../../src/ui/dialogs/EditSeriesDialog.tsx');
const { SeriesScreen } = await import('../../../src/ui/screens/SeriesScreen.tsx');
const { BookScreen } = await import('../../../src/ui/screens/BookScreen.tsx');

let BOOK: BookDto;
let SERIES: SeriesDto;

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('edit-metadata', [
    { folder: 'Edited Saga', books: [{ name: 'Edited Saga 01', pages: [[255, 0, 0]], comicInfo: { series: 'Edited Saga', number: '1', writer: 'Ann' } }] },
  ]);
  const books = await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}`);
  // ComicInfo is imported after the analysis seedLibrary waits for: wait for its author too.
  BOOK = await vi.waitUntil(
    async () => {
      const book = await rest<BookDto>('GET', `/api/v1/books/${books.content[0]?.id}`);
      return book.metadata.authors.length > 0 ? book : undefined;
    },
    { timeout: 15_000, interval: 50 },
  );
  SERIES = await rest<SeriesDto>('GET', `/api/v1/series/${BOOK.seriesId}`);
});

const bookNow = () => rest<BookDto>('GET', `/api/v1/books/${BOOK.id}`);
const seriesNow = () => rest<SeriesDto>('GET', `/api/v1/series/${SERIES.id}`);

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('EditBookDialog', () => {
  it('blocks saving on an invalid ISBN, date, link or duplicate author, and names each problem', async () => {
    const onSaved = vi.fn();
    view = renderAt(`/book/${BOOK.id}`, <EditBookDialog book={BOOK} open onClose={() => undefined} onSaved={onSaved} />);
    const dialog = page.getByRole('dialog', { name: 'Edit book' });
    await userEvent.fill(dialog.getByLabelText('ISBN'), '9780306406158');
    await userEvent.fill(dialog.getByLabelText('Release date'), '2023-02-30');
    await userEvent.fill(dialog.getByLabelText('Sort number'), '1.5');
    await userEvent.click(dialog.getByRole('button', { name: 'Add author' }));
    await userEvent.fill(dialog.getByLabelText('Author 2 name'), 'ann');
    await userEvent.click(dialog.getByRole('button', { name: 'Add link' }));
    await userEvent.fill(dialog.getByLabelText('Link 1 URL'), 'ftp://example.org');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog.getByText('Must be a valid ISBN-13.')).toBeVisible();
    await expect.element(dialog.getByText('Must be a valid date (YYYY-MM-DD).')).toBeVisible();
    await expect.element(dialog.getByText('Already exists.')).toBeVisible();
    await expect.element(dialog.getByText('Must be a valid http or https URL.')).toBeVisible();
    // A link needs a label too: the server refuses one without.
    await expect.element(dialog.getByText('Required.')).toBeVisible();
    await expect.element(dialog.getByLabelText('ISBN')).toHaveAttribute('aria-invalid', 'true');
    // Refused by the dialog itself: nothing reached the server.
    expect(onSaved).not.toHaveBeenCalled();
    expect((await bookNow()).metadata).toMatchObject({ isbn: '', releaseDate: null, links: [] });

    await userEvent.fill(dialog.getByLabelText('ISBN'), '978-0-306-40615-7');
    await userEvent.fill(dialog.getByLabelText('Release date'), '2024-02-29');
    await userEvent.selectOptions(dialog.getByLabelText('Author 2 role'), 'penciller');
    await userEvent.fill(dialog.getByLabelText('Link 1 URL'), 'https://example.org');
    await userEvent.fill(dialog.getByLabelText('Link 1 label'), 'Publisher');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect((await bookNow()).metadata).toMatchObject({
      numberSort: 1.5,
      numberSortLock: true,
      releaseDate: '2024-02-29',
      releaseDateLock: true,
      isbn: '9780306406157',
      isbnLock: true,
      authors: [
        { name: 'Ann', role: 'writer' },
        { name: 'ann', role: 'penciller' },
      ],
      authorsLock: true,
      links: [{ label: 'Publisher', url: 'https://example.org' }],
      linksLock: true,
      // Untouched fields keep what the file said, unlocked.
      title: 'Edited Saga 01',
      titleLock: false,
    });
  });
});

describe('EditSeriesDialog', () => {
  it('needs age rating 0 or more and total book count 1 or more', async () => {
    const onSaved = vi.fn();
    view = renderAt(`/series/${SERIES.id}`, <EditSeriesDialog series={SERIES} open onClose={() => undefined} onSaved={onSaved} />);
    const dialog = page.getByRole('dialog', { name: 'Edit series' });
    await userEvent.fill(dialog.getByLabelText('Age rating'), '-1');
    await userEvent.fill(dialog.getByLabelText('Total book count'), '0');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog.getByText('Must be 0 or more.')).toBeVisible();
    await expect.element(dialog.getByText('Must be greater than 0.')).toBeVisible();
    expect(onSaved).not.toHaveBeenCalled();
    expect((await seriesNow()).metadata).toMatchObject({ ageRating: null, totalBookCount: null });
    await userEvent.fill(dialog.getByLabelText('Age rating'), '0');
    await userEvent.fill(dialog.getByLabelText('Total book count'), '12');
    await userEvent.fill(dialog.getByLabelText('Genres'), 'Drama, SF, Drama');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect((await seriesNow()).metadata).toMatchObject({
      ageRating: 0,
      ageRatingLock: true,
      genres: ['Drama', 'SF'],
      genresLock: true,
      totalBookCount: 12,
      totalBookCountLock: true,
      titleLock: false,
    });
  });

  it("sets the series' sharing labels, which user restrictions allow or exclude (SPEC §3, §6)", async () => {
    const onSaved = vi.fn();
    const series = await seriesNow();
    view = renderAt(`/series/${SERIES.id}`, <EditSeriesDialog series={series} open onClose={() => undefined} onSaved={onSaved} />);
    const dialog = page.getByRole('dialog', { name: 'Edit series' });
    await userEvent.fill(dialog.getByLabelText('Sharing labels'), 'kids, family, kids');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    const saved = (await seriesNow()).metadata;
    expect([...saved.sharingLabels].sort()).toEqual(['family', 'kids']);
    expect(saved.sharingLabelsLock).toBe(true);
  });

  it('edits alternate titles: a title needs its label, blank rows are dropped (SPEC §3)', async () => {
    const onSaved = vi.fn();
    const series = await seriesNow();
    view = renderAt(`/series/${SERIES.id}`, <EditSeriesDialog series={series} open onClose={() => undefined} onSaved={onSaved} />);
    const dialog = page.getByRole('dialog', { name: 'Edit series' });
    await userEvent.click(dialog.getByRole('button', { name: 'Add alternate title' }));
    await userEvent.fill(dialog.getByLabelText('Alternate title 1', { exact: true }), 'Saga Éditée');
    await userEvent.click(dialog.getByRole('button', { name: 'Add alternate title' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog.getByText('Required.')).toBeVisible();
    expect(onSaved).not.toHaveBeenCalled();
    await userEvent.fill(dialog.getByLabelText('Alternate title 1 label'), 'French');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    const saved = (await seriesNow()).metadata;
    expect(saved.alternateTitles).toEqual([{ label: 'French', title: 'Saga Éditée' }]);
    expect(saved.alternateTitlesLock).toBe(true);
  });

  it('the series screen shows the alternate titles with their labels', async () => {
    await rest('PATCH', `/api/v1/series/${SERIES.id}/metadata`, { alternateTitles: [{ label: 'English', title: 'The Edited Saga' }] });
    view = renderAt(`/series/${SERIES.id}`, <SeriesScreen seriesId={SERIES.id} />);
    await expect.element(page.getByRole('term').filter({ hasText: 'Alternate titles' })).toBeVisible();
    await expect.element(page.getByRole('definition').filter({ hasText: 'The Edited Saga (English)' })).toBeVisible();
  });
});

describe('BookScreen', () => {
  it("shows the book's ISBN and its file format (SPEC §3 book fields)", async () => {
    await rest('PATCH', `/api/v1/books/${BOOK.id}/metadata`, { isbn: '9780306406157' });
    view = renderAt(`/book/${BOOK.id}`, <BookScreen bookId={BOOK.id} />);
    const details = page.getByRole('definition');
    await expect.element(page.getByRole('term').filter({ hasText: 'ISBN' })).toBeVisible();
    await expect.element(details.filter({ hasText: '9780306406157' })).toBeVisible();
    await expect.element(page.getByRole('term').filter({ hasText: 'Format' })).toBeVisible();
    await expect.element(details.filter({ hasText: /^CBZ$/ })).toBeVisible();
  });
});
