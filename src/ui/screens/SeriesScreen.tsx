import { Check, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { setSeriesRead } from '../../api/readProgressSeries.ts';
import { getSeries, getSeriesBooks, seriesThumbnailUrl } from '../../api/series.ts';
import type { SeriesDto } from '../../api/types.ts';
import { BookCard } from '../components/BookCard.tsx';
import { CardGrid } from '../components/CardGrid.tsx';
import { ContentAdminActions } from '../components/ContentAdminActions.tsx';
import { EditSeriesDialog } from '../dialogs/EditSeriesDialog.tsx';
import { SelectionToolbar } from '../components/SelectionToolbar.tsx';
import { EmptyState, ErrorMessage, LiveStatus, Loading } from '../components/Feedback.tsx';
import { MembershipLinks } from '../components/MembershipLinks.tsx';
import { PagingFooter } from '../components/PagingFooter.tsx';
import { Poster } from '../components/Poster.tsx';
import { SelectField } from '../components/SelectField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { SERIES_OR_BOOK_EVENTS } from '../events/liveStore.ts';
import { useLiveRefresh } from '../events/useLiveRefresh.ts';
import { formatLanguage, formatList, formatYear } from '../format.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePageParam } from '../hooks/usePageParam.ts';
import { usePageSize } from '../hooks/usePageSize.ts';
import { t, tPlural } from '../i18n.ts';
import * as library from './library/library.css.ts';
import * as styles from './screens.css.ts';
import { flipInRtl } from '../theme/direction.css.ts';

/** Book sorts a series offers (REFERENCE §3.3); the first is the default. */
const BOOK_SORTS = [
  'metadata.numberSort,asc',
  'metadata.numberSort,desc',
  'createdDate,desc',
  'lastModifiedDate,desc',
  'metadata.releaseDate,desc',
  'readProgress.readDate,desc',
  'fileSize,desc',
  'name,asc',
  'media.pagesCount,desc',
] as const;

function SeriesFacts({ series }: { series: SeriesDto }) {
  const m = series.metadata;
  const authors = [...new Set(series.booksMetadata.authors.map((a) => a.name))];
  const facts: [string, string][] = [];
  facts.push([t('series.facts.status'), t(`series_status.${m.status}`)]);
  if (m.alternateTitles.length) {
    facts.push([t('edit_series.fields.alternate_titles'), formatList(m.alternateTitles.map((a) => t('series.facts.alternate_title', { title: a.title, label: a.label })))]);
  }
  if (m.publisher) facts.push([t('series.facts.publisher'), m.publisher]);
  if (authors.length) facts.push([t('book.authors'), formatList(authors)]);
  if (series.booksMetadata.releaseDate) facts.push([t('series.facts.year'), formatYear(series.booksMetadata.releaseDate)]);
  if (m.genres.length) facts.push([t('series.facts.genres'), formatList(m.genres)]);
  if (m.tags.length) facts.push([t('book.tags'), formatList(m.tags)]);
  if (m.language) facts.push([t('series.facts.language'), formatLanguage(m.language)]);
  if (m.ageRating !== null) facts.push([t('series.facts.age_rating'), t('series.facts.age_rating_value', { age: m.ageRating })]);
  if (m.readingDirection) facts.push([t('series.facts.reading_direction'), t(`reading_direction.${m.readingDirection}`)]);
  return (
    <dl className={styles.details}>
      {facts.map(([term, value]) => (
        <div key={term} style={{ display: 'contents' }}>
          <dt className={styles.detailTerm}>{term}</dt>
          <dd className={styles.detailValue}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One series: poster, facts, summary, and its books (sortable, paged). */
export function SeriesScreen({ seriesId }: { seriesId: string }) {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const [size] = usePageSize();
  const sort = BOOK_SORTS.includes(params.get('sort') as (typeof BOOK_SORTS)[number])
    ? (params.get('sort') as string)
    : BOOK_SORTS[0];
  const series = useAsync(() => getSeries(seriesId), [seriesId]);
  const books = useAsync(() => getSeriesBooks(seriesId, { page, size, sort: [sort] }), [seriesId, page, size, sort]);
  const reloadAll = () => {
    series.reload();
    books.reload();
  };
  useLiveRefresh(
    (event) =>
      event.data.seriesId === seriesId &&
      (SERIES_OR_BOOK_EVENTS.includes(event.name) || event.name.startsWith('ReadProgress')),
    reloadAll,
  );
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [posterVersion, setPosterVersion] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const [, navigate] = useLocation();
  const [actionError, setActionError] = useState<unknown>(undefined);
  async function markAll(read: boolean) {
    setBusy(true);
    setActionError(undefined);
    try {
      await setSeriesRead(seriesId, read);
      reloadAll();
    } catch (error) {
      setActionError(error);
    } finally {
      setBusy(false);
    }
  }
  const data = series.data;
  const title = data ? data.metadata.title || data.name : undefined;
  useDocumentTitle(title);
  const content = books.data?.content ?? [];

  return (
    <>
      <ErrorMessage error={series.error} />
      {series.loading && !data && <Loading />}
      {data && (
        <div className={styles.bookLayout}>
          <Poster src={`${seriesThumbnailUrl(data.id)}?v=${encodeURIComponent(data.lastModified)}-${posterVersion}`} />
          <div>
            <div className={styles.pageHeader}>
              <h1 className={styles.pageTitle}>{title}</h1>
            </div>
            <p className={feedback.muted}>
              {tPlural('units.books', data.booksCount)}
              {data.booksReadCount > 0 && ` · ${tPlural('series.read_count', data.booksReadCount)}`}
            </p>
            {/* As the book page says of a deleted book: still listed, but nothing is on disk any more. */}
            <LiveStatus as="p" className={feedback.errorBox} message={data.deleted ? t('content.series_unavailable') : undefined} />
            <div className={styles.actionsRow}>
              {/* A partly read series offers both: finish it, or clear its progress as a whole. */}
              {data.booksReadCount < data.booksCount && (
                <button type="button" className={buttons.quiet} onClick={() => markAll(true)} disabled={busy}>
                  <Check aria-hidden="true" size={18} />
                  {t('series.mark_read')}
                </button>
              )}
              {data.booksUnreadCount < data.booksCount && (
                <button type="button" className={buttons.quiet} onClick={() => markAll(false)} disabled={busy}>
                  <Undo2 className={flipInRtl} aria-hidden="true" size={18} />
                  {t('series.mark_unread')}
                </button>
              )}
              <ContentAdminActions
                scope="series"
                id={data.id}
                name={title ?? data.name}
                onEdit={() => setEditing(true)}
                onDeleted={() => navigate(`/libraries/${data.libraryId}/series`)}
                onPosterChanged={() => setPosterVersion((v) => v + 1)}
              />
              <EditSeriesDialog
                series={data}
                open={editing}
                onClose={() => setEditing(false)}
                onSaved={() => {
                  setEditing(false);
                  reloadAll();
                }}
              />
            </div>
            <ErrorMessage error={actionError} />
            <SeriesFacts series={data} />
            <MembershipLinks kind="series" id={data.id} />
            {data.metadata.summary && <p className={styles.summary}>{data.metadata.summary}</p>}
          </div>
        </div>
      )}
      {/* A series that failed to load has its one message; an empty book list under it would only confuse. */}
      {!series.error && (
        <>
          <h2 className={styles.sectionTitle}>{t('series.book_list')}</h2>
          <div className={library.toolbar}>
            <SelectField
              label={t('browse.sort_by')}
              value={sort}
              options={BOOK_SORTS.map((value) => ({ value, label: t(`series.book_sorts.${value.replace(/[.,]/g, '_')}`) }))}
              onChange={(value) =>
                setParams((previous) => {
                  const next = new URLSearchParams(previous);
                  next.delete('page');
                  if (value === BOOK_SORTS[0]) next.delete('sort');
                  else next.set('sort', value);
                  return next;
                })
              }
            />
          </div>
          <SelectionToolbar kind="books" ids={selected} onClear={() => setSelected([])} onChanged={reloadAll} />
          <ErrorMessage error={books.error} />
          {books.loading && !books.data && !series.loading && <Loading />}
          {books.data && content.length === 0 && <EmptyState>{t('series.empty')}</EmptyState>}
          {content.length > 0 && (
            <CardGrid
              items={content}
              itemKey={(book) => book.id}
              renderItem={(book) => (
                <BookCard
                  book={book}
                  selection={{
                    selected: selected.includes(book.id),
                    onToggle: (on) => setSelected((ids) => (on ? [...ids, book.id] : ids.filter((id) => id !== book.id))),
                  }}
                />
              )}
              label={t('series.book_list')}
            />
          )}
          {books.data && <PagingFooter page={page} size={size} total={books.data.totalElements} onPage={setPage} />}
        </>
      )}
    </>
  );
}
