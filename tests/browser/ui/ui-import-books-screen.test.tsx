import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { logInAsAdmin, rest, seedLibrary, writeImportFolder } from '../support/folio.ts';
import { renderAt } from './render.tsx';
import en from '../../../locales/en.json' with { type: 'json' };
import { publishLiveEvent } from '../../../src/ui/events/liveStore.ts';

const { ImportBooksScreen } = await import('../../../src/ui/screens/ImportBooksScreen.tsx');

let series: SeriesDto;
let second: BookDto;
let inbox = '';

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('import-books', [
    { folder: 'Import Saga', books: [{ name: 'Import Saga 01', pages: [[255, 0, 0]] }, { name: 'Import Saga 02', pages: [[0, 255, 0]] }] },
  ]);
  series = (await rest<Page<SeriesDto>>('GET', `/api/v1/series?library_id=${libraryId}`)).content[0] as SeriesDto;
  const books = await rest<Page<BookDto>>('GET', `/api/v1/series/${series.id}/books?unpaged=true`);
  second = books.content.find((b) => b.name === 'Import Saga 02') as BookDto;
  inbox = await writeImportFolder('import-inbox', [{ name: 'Import Saga 02 v2', pages: [[0, 0, 255], [0, 0, 255]] }], ['Broken one']);
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('ImportBooksScreen', () => {
  it('imports only analysed, error-free books with a series, upgrading a same-number book', async () => {
    view = renderAt('/import/books', <ImportBooksScreen />);
    await userEvent.fill(page.getByLabelText('Folder to import from'), inbox);
    await userEvent.click(page.getByRole('button', { name: 'Scan folder' }));
    const good = page.getByRole('checkbox', { name: 'Import Import Saga 02 v2' });
    await expect.element(good).toBeDisabled();
    await userEvent.selectOptions(page.getByLabelText('Series for Import Saga 02 v2'), series.id);
    await expect.element(good).toBeDisabled();
    await userEvent.click(page.getByRole('button', { name: 'Analyse all' }));
    await expect.element(good).toBeEnabled();
    // The server's analysis refused the file that is no archive, and the screen says why.
    await expect.element(page.getByRole('row', { name: /Broken one/ }).getByText('The media type is not supported')).toBeVisible();
    await userEvent.selectOptions(page.getByLabelText('Series for Broken one'), series.id);
    await expect.element(page.getByRole('checkbox', { name: 'Import Broken one' })).toBeDisabled();
    await userEvent.fill(page.getByLabelText('Number for Import Saga 02 v2'), '2');
    await expect.element(page.getByText(/A book with this number exists \(Import Saga 02\)/)).toBeVisible();
    await userEvent.selectOptions(page.getByLabelText('Import by'), 'MOVE');
    await userEvent.click(page.getByRole('button', { name: 'Import 1 book' }));
    // The upgrade put the imported file in place of book 2's (it keeps the book and its name): two pages now.
    await vi.waitFor(
      async () => {
        const book = await rest<BookDto>('GET', `/api/v1/books/${second.id}`);
        expect(book.url).toMatch(/Import Saga\/Import Saga 02\.cbz$/);
        expect(book.media.pagesCount).toBe(2);
      },
      { timeout: 10_000, interval: 100 },
    );
    // Moved, not copied: the folder now offers only the broken file.
    const left = await rest<{ name: string }[]>('POST', '/api/v1/transient-books', { path: inbox });
    expect(left.map((b) => b.name)).toEqual(['Broken one']);
  });

  it("on a phone, a row's Analyse button keeps its word whole (the table scrolls sideways instead)", async () => {
    const folder = await writeImportFolder('import-phone', [{ name: 'Phone Saga 01', pages: [[9, 9, 9]] }], []);
    await page.viewport(360, 740);
    try {
      view = renderAt('/import/books', <ImportBooksScreen />);
      await userEvent.fill(page.getByLabelText('Folder to import from'), folder);
      await userEvent.click(page.getByRole('button', { name: 'Scan folder' }));
      const analyse = page.getByRole('button', { name: 'Analyse Phone Saga 01' });
      await expect.element(analyse).toBeVisible();
      // One line box: a table squeezes its columns to their narrowest, which once broke it as "Ana / lyse".
      const range = document.createRange();
      range.selectNodeContents(analyse.element());
      expect(new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size).toBe(1);
    } finally {
      await page.viewport(1280, 800);
    }
  });

  // The server's failed BookImported for an import put off for an hour and given up, or cancelled
  // while queued (server/domain/import/import-task.ts; its unit test import-given-up makes both).
  it("says in words on the file's row that its import was given up or cancelled", async () => {
    const folder = await writeImportFolder('import-given-up', [{ name: 'Given Up 01', pages: [[1, 2, 3]] }, { name: 'Cancelled 01', pages: [[3, 2, 1]] }], []);
    const files = await rest<{ name: string; url: string }[]>('POST', '/api/v1/transient-books', { path: folder });
    const url = (name: string) => files.find((f) => f.name === name)!.url;
    view = renderAt('/import/books', <ImportBooksScreen />);
    await userEvent.fill(page.getByLabelText('Folder to import from'), folder);
    await userEvent.click(page.getByRole('button', { name: 'Scan folder' }));
    await expect.element(page.getByRole('row', { name: /Given Up 01/ })).toBeVisible();
    publishLiveEvent({ name: 'BookImported', data: { sourceFile: url('Given Up 01'), success: false, message: 'Import given up after being put off for an hour: the database cannot be written now' } });
    publishLiveEvent({ name: 'BookImported', data: { sourceFile: url('Cancelled 01'), success: false, message: 'Import cancelled before it ran' } });
    await expect.element(page.getByRole('row', { name: /Given Up 01/ }).getByText(en.import_books.given_up)).toBeVisible();
    await expect.element(page.getByRole('row', { name: /Cancelled 01/ }).getByText(en.import_books.cancelled)).toBeVisible();
  });
});
