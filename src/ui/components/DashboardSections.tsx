import type { ReactNode } from 'react';
import { browseBooks, getNewSeries, getOnDeckBooks, getUpdatedSeries } from '../../api/browse.ts';
import { ApiError } from '../../api/http.ts';
import type { BookDto, Page, SeriesDto } from '../../api/types.ts';
import { SERIES_OR_BOOK_EVENTS } from '../events/liveStore.ts';
import { useLiveRefresh } from '../events/useLiveRefresh.ts';
import { usePagedRow } from '../hooks/usePagedRow.ts';
import { t } from '../i18n.ts';
import { useSnapshot } from 'valtio';
import { isAdmin, session } from '../store/session.ts';
import { BookCard } from './BookCard.tsx';
import { EmptyState, ErrorMessage, Loading } from './Feedback.tsx';
import { HorizontalRow } from './HorizontalRow.tsx';
import { SeriesCard } from './SeriesCard.tsx';

type Loader<T> = (libraryIds: string[] | undefined, page: number, size: number) => Promise<Page<T>>;

interface SectionDefinition<T> {
  key: string;
  load: Loader<T>;
  render: (item: T) => ReactNode;
}

const READ_PROGRESS_EVENTS = new Set(['ReadProgressChanged', 'ReadProgressDeleted', 'ReadProgressSeriesChanged', 'ReadProgressSeriesDeleted']);

function monthAgo(): string {
  const date = new Date();
  date.setMonth(date.getMonth() - 1);
  return date.toISOString().slice(0, 10);
}

const bookCard = (book: BookDto) => <BookCard book={book} showSeries />;
const seriesCard = (series: SeriesDto) => <SeriesCard series={series} />;

/** The rows of REFERENCE §6.1, in Komga's default order. */
const SECTIONS: (SectionDefinition<BookDto> | SectionDefinition<SeriesDto>)[] = [
  {
    key: 'keep_reading',
    load: (libraryIds, page, size) =>
      browseBooks({ libraryIds, readStatus: ['IN_PROGRESS'] }, { page, size, sort: ['readProgress.readDate,desc'] }),
    render: bookCard,
  },
  { key: 'on_deck', load: (libraryIds, page, size) => getOnDeckBooks(libraryIds, { page, size }), render: bookCard },
  {
    key: 'recently_released_books',
    load: (libraryIds, page, size) =>
      browseBooks({ libraryIds, releasedAfter: monthAgo() }, { page, size, sort: ['metadata.releaseDate,desc'] }),
    render: bookCard,
  },
  {
    key: 'recently_added_books',
    load: (libraryIds, page, size) => browseBooks({ libraryIds }, { page, size, sort: ['createdDate,desc'] }),
    render: bookCard,
  },
  { key: 'recently_added_series', load: (libraryIds, page, size) => getNewSeries(libraryIds, { page, size }), render: seriesCard },
  {
    key: 'recently_updated_series',
    load: (libraryIds, page, size) => getUpdatedSeries(libraryIds, { page, size }),
    render: seriesCard,
  },
  {
    key: 'recently_read_books',
    load: (libraryIds, page, size) =>
      browseBooks({ libraryIds, readStatus: ['READ'] }, { page, size, sort: ['readProgress.readDate,desc'] }),
    render: bookCard,
  },
] as (SectionDefinition<BookDto> | SectionDefinition<SeriesDto>)[];

function Section<T extends { id: string; libraryId: string }>(props: {
  definition: SectionDefinition<T>;
  libraryIds: string[] | undefined;
}) {
  const { definition, libraryIds } = props;
  const row = usePagedRow((page, size) => definition.load(libraryIds, page, size), `${definition.key}:${libraryIds?.join(',') ?? 'all'}`);
  // Content and read-progress events can change any row; reload at most every 5 s (REFERENCE §6.1).
  useLiveRefresh(
    (event) =>
      READ_PROGRESS_EVENTS.has(event.name) ||
      (SERIES_OR_BOOK_EVENTS.includes(event.name) &&
        (!libraryIds || !event.data.libraryId || libraryIds.includes(event.data.libraryId))),
    row.reload,
    5_000,
  );
  // A server without this list (404) simply has no such row; other failures are reported.
  if (row.error instanceof ApiError && row.error.status === 404) return null;
  if (row.error) return <ErrorMessage error={row.error} />;
  if (row.items.length === 0) return null;
  return (
    <HorizontalRow
      title={t(`dashboard.sections.${definition.key}`)}
      items={row.items}
      itemKey={(item) => item.id}
      renderItem={definition.render}
      onNearEnd={row.loadMore}
    />
  );
}

/** Dashboard rows for all libraries (`libraryIds` undefined) or for one library (Recommended tab). */
export function DashboardSections({ libraryIds }: { libraryIds: string[] | undefined }) {
  const probe = usePagedRow(
    (page) => browseBooks({ libraryIds }, { page, size: 1 }),
    `probe:${libraryIds?.join(',') ?? 'all'}`,
  );
  useLiveRefresh((event) => SERIES_OR_BOOK_EVENTS.includes(event.name), probe.reload, 5_000);
  // Only an administrator can scan; a reader who sees nothing is told who can change that.
  const { me } = useSnapshot(session);
  return (
    <>
      {SECTIONS.map((definition) => (
        <Section key={definition.key} definition={definition as SectionDefinition<BookDto>} libraryIds={libraryIds} />
      ))}
      {probe.loading && probe.items.length === 0 && <Loading />}
      {!probe.loading && !probe.error && probe.total === 0 && <EmptyState>{t(isAdmin(me) ? 'dashboard.empty' : 'dashboard.empty_reader')}</EmptyState>}
    </>
  );
}
