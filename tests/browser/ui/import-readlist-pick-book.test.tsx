import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import en from '../../../locales/en.json';
import type { ReadListDto } from '../../../src/api/collections.ts';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/**
 * A read list entry the server matched to no book offered only "No match". As Komga's web client
 * does (a series picker, then a book of that series, on each row of its read list import), the user
 * can now find the book themselves; the read list is created with it. Real server throughout.
 */
const { ImportReadListScreen } = await import('../../../src/ui/screens/ImportReadListScreen.tsx');

let book: BookDto;

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('readlist-pick', [{ folder: 'Hidden Harbour', books: [{ name: 'Hidden Harbour 01', pages: [[10, 90, 200]] }] }]);
  const series = (await rest<Page<SeriesDto>>('GET', `/api/v1/series?library_id=${libraryId}`)).content[0] as SeriesDto;
  book = (await rest<Page<BookDto>>('GET', `/api/v1/series/${series.id}/books`)).content[0] as BookDto;
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('read list import, an entry with no match', () => {
  it('offers to choose the book, by its series, and creates the read list with it', async () => {
    view = renderAt('/import/readlist', <ImportReadListScreen />);
    const list = '<?xml version="1.0"?><ReadingList><Name>Picked by hand</Name><Books><Book Series="No Such Series Anywhere" Number="1"/></Books></ReadingList>';
    await userEvent.upload(page.getByLabelText(en.import_readlist.file), new File([list], 'picked.cbl', { type: 'application/xml' }));
    await userEvent.click(page.getByRole('button', { name: en.import_readlist.analyse }));
    await expect.element(page.getByText(en.import_readlist.no_match)).toBeVisible();

    await userEvent.click(page.getByRole('button', { name: en.import_readlist.pick_for.replace('{{n}}', '1') }));
    const picker = page.getByRole('dialog', { name: en.import_readlist.pick_for.replace('{{n}}', '1') });
    await userEvent.fill(picker.getByLabelText(en.import_books.series_search), 'Hidden Harbour');
    const seriesSelect = picker.getByLabelText(en.import_books.series, { exact: true });
    await expect.element(seriesSelect.getByRole('option', { name: 'Hidden Harbour' })).toBeInTheDocument();
    await userEvent.selectOptions(seriesSelect, 'Hidden Harbour');
    const bookSelect = picker.getByLabelText(en.import_readlist.book, { exact: true });
    await expect.element(bookSelect.getByRole('option', { name: new RegExp(book.metadata.title) })).toBeInTheDocument();
    await userEvent.selectOptions(bookSelect, book.id);
    await userEvent.click(picker.getByRole('button', { name: en.import_readlist.pick_submit }));
    await expect.element(picker).not.toBeInTheDocument();

    // The entry now holds the chosen book, and the read list is made with it.
    await expect.element(page.getByLabelText(en.import_readlist.book_for.replace('{{n}}', '1'))).toHaveValue(book.id);
    await userEvent.click(page.getByRole('button', { name: en.import_readlist.create }));
    await expect.element(page.getByRole('link', { name: 'Picked by hand' })).toBeVisible();
    const lists = await rest<Page<ReadListDto>>('GET', '/api/v1/readlists?search=Picked%20by%20hand&unpaged=true');
    expect(lists.content.find((r) => r.name === 'Picked by hand')?.bookIds).toEqual([book.id]);
  });
});
