import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { SearchBox } = await import('../../../src/ui/search/SearchBox.tsx');

/** A name no other test file uses: the search covers every library of the run's server. */
let bookId = '';
beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('search-box', [{ folder: 'Zephyrine', books: [{ name: 'Zephyrine 01', pages: [[0, 0, 255]] }] }]);
  const books = await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}`);
  bookId = books.content[0]?.id ?? '';
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('SearchBox', () => {
  it('suggests series and books, and opens the one chosen with the arrow keys', async () => {
    view = renderAt('/dashboard', <SearchBox />);
    const box = page.getByRole('combobox', { name: 'Search' });
    await userEvent.fill(box, 'zephyr');
    await expect.element(page.getByRole('option', { name: /Zephyrine 01/ })).toBeVisible();
    await expect.element(page.getByRole('option', { name: /^Zephyrine$/ })).toBeVisible();
    await expect.element(box).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    await expect.element(page.getByRole('option', { name: /Zephyrine 01/ })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(view?.currentPath()).toBe(`/book/${bookId}`));
  });

  it('opens the results page on Enter without a chosen suggestion, and Escape closes the list', async () => {
    view = renderAt('/dashboard', <SearchBox />);
    const box = page.getByRole('combobox', { name: 'Search' });
    await userEvent.fill(box, 'zephyrine & co');
    await expect.element(page.getByRole('listbox')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByRole('listbox')).not.toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/search?q=zephyrine+%26+co'));
  });
});
