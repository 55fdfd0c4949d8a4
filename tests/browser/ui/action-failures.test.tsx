import { afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import en from '../../../locales/en.json';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { failRequests, logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/**
 * The failure of an action the user ran is said once, in that action's words, replaced by the
 * next action's, and can be dismissed. The server is the run's real one; the failures are answered
 * in the browser, as the real server cannot be made to fail a mark-as-read or a scan on demand.
 */
const { BookScreen } = await import('../../../src/ui/screens/BookScreen.tsx');
const { ServerScreen } = await import('../../../src/ui/screens/ServerScreen.tsx');
const { session } = await import('../../../src/ui/store/session.ts');

let library: LibraryDto;
let book: BookDto;

beforeAll(async () => {
  session.me = await logInAsAdmin();
  const libraryId = await seedLibrary('action-failures', [{ folder: 'Failing Saga', books: [{ name: 'Failing Saga 01', pages: [[10, 90, 200]] }] }]);
  library = await rest<LibraryDto>('GET', `/api/v1/libraries/${libraryId}`);
  session.libraries = [library];
  const series = (await rest<Page<SeriesDto>>('GET', `/api/v1/series?library_id=${libraryId}`)).content[0] as SeriesDto;
  book = (await rest<Page<BookDto>>('GET', `/api/v1/series/${series.id}/books`)).content[0] as BookDto;
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

function failed(action: string, message: string): string {
  return en.errors.call_failed_with_message.replace('{{action}}', action).replace('{{message}}', message);
}

function alerts(): string[] {
  return [...(view?.container.querySelectorAll('[role="alert"]') ?? [])].map((alert) => alert.textContent ?? '');
}

describe('an action\'s failure', () => {
  it('on a book\'s page: the next failure replaces the last (marking, then the admin menu), and it can be dismissed', async () => {
    const marking = await failRequests(new RegExp(`/api/v1/books/${book.id}/read-progress$`), 500, { message: 'Disk full' }, 'PATCH');
    onTestFinished(() => marking.restore());
    const analysing = await failRequests(new RegExp(`/api/v1/books/${book.id}/analyze$`), 500, { message: 'Queue full' }, 'POST');
    onTestFinished(() => analysing.restore());
    view = renderAt(`/book/${book.id}`, <BookScreen bookId={book.id} />);
    await userEvent.click(page.getByRole('button', { name: en.book.mark_read }));
    const markFailure = failed(en.api_actions.update_read_progress, 'Disk full');
    await expect.element(page.getByText(markFailure)).toBeVisible();

    await userEvent.click(page.getByRole('button', { name: en.content_actions.book_label }));
    await userEvent.click(page.getByRole('button', { name: en.libraries.actions.analyze }));
    const analyseFailure = failed(en.api_actions.analyze_content, 'Queue full');
    await expect.element(page.getByText(analyseFailure)).toBeVisible();
    // Said once: the earlier failure is gone, not piled above it.
    expect(alerts()).toEqual([analyseFailure]);

    await userEvent.click(page.getByRole('button', { name: en.errors.dismiss }));
    await expect.element(page.getByText(analyseFailure)).not.toBeInTheDocument();
    expect(alerts()).toEqual([]);
  });

  it('on the server screen: "Scan all libraries" failing is said as that action, and can be dismissed', async () => {
    const scanning = await failRequests(/\/api\/v1\/libraries\/[^/]+\/scan(\?|$)/, 500, { message: 'Scanner busy' }, 'POST');
    onTestFinished(() => scanning.restore());
    view = renderAt('/settings/server', <ServerScreen />);
    await userEvent.click(page.getByRole('button', { name: en.server.scan_all }));
    const scanFailure = failed(en.api_actions.scan_all_libraries, 'Scanner busy');
    await expect.element(page.getByText(scanFailure)).toBeVisible();
    expect(alerts()).toEqual([scanFailure]);
    await userEvent.click(page.getByRole('button', { name: en.errors.dismiss }));
    await expect.element(page.getByText(scanFailure)).not.toBeInTheDocument();
  });
});
