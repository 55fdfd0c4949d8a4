import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { failRequests, logInAsAdmin, rest, seedLibrary, writeImportFolder } from '../support/folio.ts';
import { expectSpokenInRegionThatWasThere, markLiveRegions } from '../support/live-regions.ts';
import { renderAt } from './render.tsx';

/**
 * Messages that answer an action (started, saved, imported, shutting down) against the run's real
 * server: each must appear inside a live region that was in the page before it, or many screen
 * readers say nothing (LiveStatus, Feedback.tsx).
 */
const { ServerScreen } = await import('../../../src/ui/screens/ServerScreen.tsx');
const { AccountScreen } = await import('../../../src/ui/account/AccountScreen.tsx');
const { LibraryLayout } = await import('../../../src/ui/screens/library/LibraryLayout.tsx');
const { ContentAdminActions } = await import('../../../src/ui/components/ContentAdminActions.tsx');
const { ImportBooksScreen } = await import('../../../src/ui/screens/ImportBooksScreen.tsx');
const { LiveEvents } = await import('../../../src/ui/events/LiveEvents.tsx');
const { live } = await import('../../../src/ui/events/liveStore.ts');
const { session } = await import('../../../src/ui/store/session.ts');

let library: LibraryDto;
let series: SeriesDto;
let book: BookDto;

beforeAll(async () => {
  session.me = await logInAsAdmin();
  const libraryId = await seedLibrary('live-status', [{ folder: 'Spoken Saga', books: [{ name: 'Spoken Saga 01', pages: [[10, 90, 200]] }] }]);
  library = await rest<LibraryDto>('GET', `/api/v1/libraries/${libraryId}`);
  session.libraries = [library];
  series = (await rest<Page<SeriesDto>>('GET', `/api/v1/series?library_id=${libraryId}`)).content[0] as SeriesDto;
  book = (await rest<Page<BookDto>>('GET', `/api/v1/series/${series.id}/books`)).content[0] as BookDto;
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('status messages are spoken: their live region is there before them', () => {
  it('the server screen: tasks cancelled, settings saved, shutting down', async () => {
    view = renderAt('/settings/server', <ServerScreen />);
    const save = page.getByRole('button', { name: 'Save' });
    await expect.element(save).toBeVisible();

    markLiveRegions();
    await userEvent.click(page.getByRole('button', { name: 'Cancel all tasks' }));
    await expectSpokenInRegionThatWasThere(page.getByText(/^\d+ tasks? cancelled$/));

    markLiveRegions();
    await userEvent.click(save);
    await expectSpokenInRegionThatWasThere(page.getByText('Settings saved.'));

    // Answered in the browser: a real shutdown would end the server every browser file shares.
    const shutdown = await failRequests(/\/actuator\/shutdown$/, 204, '');
    try {
      markLiveRegions();
      await userEvent.click(page.getByRole('button', { name: 'Shut down server' }));
      await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Shut down server' }));
      await expectSpokenInRegionThatWasThere(page.getByText('The server is shutting down.'));
      expect(await shutdown.answered()).toBe(1);
    } finally {
      await shutdown.restore();
    }
  });

  it('the account screen: password changed', async () => {
    // As accounts-screens.test.tsx: a real change would end the sessions of the administrator all files share.
    const change = await failRequests(/\/api\/v2\/users\/me\/password$/, 204, '');
    try {
      view = renderAt('/account', <AccountScreen />);
      await userEvent.fill(page.getByLabelText('Current password'), 'zero');
      await userEvent.fill(page.getByLabelText('New password', { exact: true }), 'one');
      await userEvent.fill(page.getByLabelText('Repeat new password'), 'one');
      markLiveRegions();
      await userEvent.click(page.getByRole('button', { name: 'Change password' }));
      await expectSpokenInRegionThatWasThere(page.getByText('Your password has been changed.'));
    } finally {
      await change.restore();
    }
  });

  it('a library\'s header: a confirmed task started', async () => {
    view = renderAt(`/libraries/${library.id}/series`, (
      <LibraryLayout libraryId={library.id} view="series">
        <p>content</p>
      </LibraryLayout>
    ));
    await userEvent.click(page.getByRole('button', { name: 'Library actions' }));
    await userEvent.click(page.getByRole('button', { name: 'Analyse' }));
    markLiveRegions();
    await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Analyse' }));
    await expectSpokenInRegionThatWasThere(page.getByText('Analysis started.'));
  });

  it('a book\'s actions: analysis started', async () => {
    view = renderAt(`/book/${book.id}`, <ContentAdminActions scope="books" id={book.id} name={book.name} />);
    await userEvent.click(page.getByRole('button', { name: 'Book actions' }));
    markLiveRegions();
    await userEvent.click(page.getByRole('button', { name: 'Analyse' }));
    await expectSpokenInRegionThatWasThere(page.getByText('Analysis started.'));
  });

  it('the import screen: the import started, then each row\'s outcome as its event arrives', async () => {
    const inbox = await writeImportFolder('live-status-inbox', [{ name: 'Spoken Saga 02', pages: [[0, 120, 0]] }], []);
    view = renderAt('/import/books', (
      <>
        <LiveEvents />
        <ImportBooksScreen />
      </>
    ));
    await vi.waitFor(() => expect(live.connected).toBe(true), { timeout: 15_000 });
    await userEvent.fill(page.getByLabelText('Folder to import from'), inbox);
    await userEvent.click(page.getByRole('button', { name: 'Scan folder' }));
    await userEvent.click(page.getByRole('button', { name: 'Analyse Spoken Saga 02' }));
    await userEvent.selectOptions(page.getByLabelText('Series for Spoken Saga 02'), series.id);
    const importButton = page.getByRole('button', { name: 'Import 1 book' });
    await expect.element(importButton).toBeEnabled();
    markLiveRegions();
    await userEvent.click(importButton);
    await expectSpokenInRegionThatWasThere(page.getByText('Import of 1 book started.'));
    await expectSpokenInRegionThatWasThere(page.getByRole('row', { name: /Spoken Saga 02/ }).getByText('Imported', { exact: true }));
  }, 60_000);
});
