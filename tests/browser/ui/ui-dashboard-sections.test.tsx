import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { BookDto, Page, UserDto } from '../../../src/api/types.ts';
import { session } from '../../../src/ui/store/session.ts';
import { failRequests, logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { DashboardSections } = await import('../../../src/ui/components/DashboardSections.tsx');

const RED: [number, number, number] = [255, 0, 0];
let libraryId = '';
let emptyLibraryId = '';

beforeAll(async () => {
  await logInAsAdmin();
  libraryId = await seedLibrary('dashboard-sections', [
    { folder: 'Dashboard Saga', books: [{ name: 'Dashboard Saga 01', pages: [RED, RED, RED] }, { name: 'Dashboard Saga 02', pages: [RED] }] },
  ]);
  emptyLibraryId = await seedLibrary('dashboard-sections-empty', []);
  const books = await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}&unpaged=true`);
  const first = books.content.find((book) => book.name === 'Dashboard Saga 01');
  if (!first) throw new Error('the seeded book is missing');
  await rest('PATCH', `/api/v1/books/${first.id}/read-progress`, { page: 2 });
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());
afterAll(() => {
  session.me = null;
});

const user = (roles: UserDto['roles']): UserDto => ({
  id: 'u1',
  email: 'someone@example.org',
  roles,
  sharedAllLibraries: true,
  sharedLibrariesIds: [],
  labelsAllow: [],
  labelsExclude: [],
  ageRestriction: null,
});

/** Two frames: React has committed what the last answer changed. */
const twoFrames = async () => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
};

describe('DashboardSections', () => {
  it('shows rows with content, hides empty rows and rows the server lacks, reports other failures', async () => {
    // A server without On Deck (an older Komga answers 404) and one whose new-series list fails: the
    // real server has both, so the browser answers these two requests instead.
    const onDeck = await failRequests(/\/api\/v1\/books\/ondeck\?/, 404, { message: 'Not Found' });
    const newSeries = await failRequests(/\/api\/v1\/series\/new\?/, 500, { message: 'Database is locked' });
    try {
      view = renderAt('/dashboard', <DashboardSections libraryIds={[libraryId]} />);
      await expect.element(page.getByRole('heading', { name: 'Keep Reading' })).toBeVisible();
      await expect.element(page.getByRole('region', { name: 'Keep Reading' }).getByRole('link', { name: 'Dashboard Saga 01' })).toBeVisible();
      await expect.element(page.getByText('An error occurred while trying to retrieve series: Database is locked')).toBeVisible();
      await expect.element(page.getByRole('heading', { name: 'Recently Added Books' })).toBeVisible();
      // The 404 was answered and rendered: On Deck is left out, not reported as an error.
      await expect.poll(() => onDeck.answered()).toBeGreaterThan(0);
      await twoFrames();
      expect(page.getByRole('heading', { name: 'On Deck' }).query()).toBeNull();
      expect(page.getByRole('alert').elements()).toHaveLength(1);
      // Nothing read yet: an empty row has no heading.
      expect(page.getByRole('heading', { name: 'Recently Read Books' }).query()).toBeNull();
    } finally {
      await onDeck.restore();
      await newSeries.restore();
    }
  });

  it('says so when there is nothing at all: to an administrator, scan a library', async () => {
    session.me = user(['ADMIN']);
    view = renderAt('/dashboard', <DashboardSections libraryIds={[emptyLibraryId]} />);
    await expect.element(page.getByText('Nothing to show yet. Scan a library to fill it.')).toBeVisible();
  });

  it('says so when there is nothing at all: to a reader, who cannot scan, ask an administrator', async () => {
    session.me = user(['PAGE_STREAMING']);
    view = renderAt('/dashboard', <DashboardSections libraryIds={[emptyLibraryId]} />);
    await expect.element(page.getByText('Nothing to show yet. Ask an administrator to add books or to share them with you.')).toBeVisible();
  });
});
