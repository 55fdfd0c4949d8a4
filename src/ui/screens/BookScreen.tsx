import { BookOpen, Check, ChevronLeft, ChevronRight, Download, EyeOff, Undo2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { getReadList } from '../../api/collections.ts';
import { readListNeighbours, seriesNeighbours, type Neighbours } from '../../api/bookNeighbours.ts';
import { bookThumbnailUrl, deleteReadProgress, getBook, updateReadProgress } from '../../api/books.ts';
import { bookFileUrl } from '../../api/readProgressSeries.ts';
import { useSnapshot } from 'valtio';
import { useLiveRefresh } from '../events/useLiveRefresh.ts';
import { session } from '../store/session.ts';
import { ContentAdminActions } from '../components/ContentAdminActions.tsx';
import { libraryUnavailable } from '../components/unavailable.ts';
import { EditBookDialog } from '../dialogs/EditBookDialog.tsx';
import { ErrorMessage, LiveStatus, Loading } from '../components/Feedback.tsx';
import { MembershipLinks } from '../components/MembershipLinks.tsx';
import { Poster } from '../components/Poster.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { formatBytes, formatDate, formatList, formatNumber } from '../format.ts';
import { useActionFailure } from '../hooks/useActionFailure.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useRefreshWhile } from '../hooks/useRefreshWhile.ts';
import { t } from '../i18n.ts';
import { bookFormat } from '../bookFormat.ts';
import { explainMediaComment } from '../mediaComment.ts';
import { aboutToRead, prepareReaderFor } from '../reader/readerLaunch.ts';
import { readerHref } from '../reader/readerQuery.ts';
import * as styles from './screens.css.ts';
import { flipInRtl } from '../theme/direction.css.ts';

/** Known author roles are translated; anything else a server sends is shown as is. */
function roleLabel(role: string): string {
  const key = `author_roles.${role}`;
  const label = t(key);
  return label === key ? role : label;
}

/** One book: what it is, whether it can be read, and the way into the reader. */
export function BookScreen({ bookId }: { bookId: string }) {
  const book = useAsync(() => getBook(bookId), [bookId]);
  // Opened from a read list, previous/next follow that list instead of the series.
  const [params] = useSearchParams();
  const readListId = params.get('readlist') ?? undefined;
  const readList = useAsync(async () => (readListId ? getReadList(readListId) : null), [readListId]);
  // Found from the book and its read list once they are here; the series' order follows its number.
  const seriesBook = readListId ? null : book.data;
  const siblings = useAsync(
    async (): Promise<Neighbours | null> => {
      if (readList.data) return readListNeighbours(readList.data, bookId);
      return seriesBook ? seriesNeighbours(seriesBook) : null;
    },
    [bookId, readList.data?.id, readList.data?.bookIds, readList.data?.ordered, seriesBook?.seriesId, seriesBook?.metadata.numberSort, seriesBook?.deleted],
  );
  const siblingQuery = readListId ? `?readlist=${encodeURIComponent(readListId)}` : '';
  const { me, libraries } = useSnapshot(session);
  useLiveRefresh(
    (event) =>
      event.data.bookId === bookId &&
      ['BookChanged', 'BookDeleted', 'ReadProgressChanged', 'ReadProgressDeleted', 'ThumbnailBookAdded'].includes(event.name),
    book.reload,
  );
  // One failure at a time for everything run from this page (marking, the admin menu): the last.
  const actionFailure = useActionFailure();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [posterVersion, setPosterVersion] = useState(0);
  const [, navigate] = useLocation();
  const data = book.data;
  const title = data ? data.metadata.title || data.name : undefined;
  useDocumentTitle(title);
  // A freshly scanned book may not be analysed yet; keep looking until it is.
  const awaitingAnalysis = data?.media.status === 'UNKNOWN' || data?.media.status === 'OUTDATED';
  useRefreshWhile(awaitingAnalysis, bookId, book.reload, data);
  // A book that can be read (a deleted file cannot, whatever its analysis said) by a user whose role
  // lets them stream pages (REFERENCE §5: else reading is not offered, and no page is fetched ahead):
  // the reader gets ready while the screen is looked at.
  const mayStream = me?.roles.includes('PAGE_STREAMING') === true;
  const offline = data ? libraryUnavailable(libraries, data.libraryId) : false;
  const readable = data?.media.status === 'READY' && !data.deleted && !offline && mayStream ? data : null;
  useEffect(() => (readable ? prepareReaderFor(readable) : undefined), [readable]);
  const readIntent = {
    onPointerEnter: () => aboutToRead(bookId),
    onPointerDown: () => aboutToRead(bookId),
    onFocus: () => aboutToRead(bookId),
  };

  async function markRead(read: boolean) {
    if (!data) return;
    setBusy(true);
    actionFailure.clear();
    try {
      if (read) await updateReadProgress(data.id, { completed: true });
      else await deleteReadProgress(data.id);
      book.reload();
    } catch (error) {
      actionFailure.report(error);
    } finally {
      setBusy(false);
    }
  }

  if (!data) {
    return (
      <>
        <ErrorMessage error={book.error} />
        {book.loading && <Loading />}
      </>
    );
  }

  const media = data.media;
  const ready = readable !== null;
  const progress = data.readProgress;
  const readState = progress?.completed
    ? t('book.read_state.read')
    : progress
      ? t('book.read_state.in_progress', { page: formatNumber(progress.page), total: formatNumber(media.pagesCount) })
      : t('book.read_state.unread');

  return (
    <article className={styles.bookLayout}>
      <Poster src={`${bookThumbnailUrl(data.id)}?v=${encodeURIComponent(data.lastModified)}-${posterVersion}`} />
      <div>
        <h1 className={styles.pageTitle}>{title}</h1>
        <Link href={`/series/${data.seriesId}`} className={styles.subtitleLink}>
          {data.seriesTitle}
        </Link>
        {/* The library can become unreachable while the page is open (a live event): said when it does. */}
        <LiveStatus
          as="p"
          className={feedback.errorBox}
          message={data.deleted || offline ? t(data.deleted ? 'content.book_unavailable' : 'content.library_unavailable') : undefined}
        />
        <div className={styles.actionsRow}>
          {ready && (
            <>
              <Link href={readerHref(data.id, readListId)} className={buttons.primary} {...readIntent}>
                <BookOpen aria-hidden="true" size={18} />
                {t('book.read')}
              </Link>
              <Link href={readerHref(data.id, readListId, true)} className={buttons.secondary} {...readIntent}>
                <EyeOff aria-hidden="true" size={18} />
                {t('book.read_incognito')}
              </Link>
            </>
          )}
          {me?.roles.includes('FILE_DOWNLOAD') && (
            <a href={bookFileUrl(data.id)} className={buttons.quiet} download>
              <Download aria-hidden="true" size={18} />
              {t('book.download')}
            </a>
          )}
          {/* A book in progress offers both: finish it, or drop its progress. */}
          {!progress?.completed && (
            <button type="button" className={buttons.quiet} onClick={() => markRead(true)} disabled={busy}>
              <Check aria-hidden="true" size={18} />
              {t('book.mark_read')}
            </button>
          )}
          {progress && (
            <button type="button" className={buttons.quiet} onClick={() => markRead(false)} disabled={busy}>
              <Undo2 className={flipInRtl} aria-hidden="true" size={18} />
              {t('book.mark_unread')}
            </button>
          )}
          <ContentAdminActions
            scope="books"
            id={data.id}
            name={title ?? data.name}
            onEdit={() => setEditing(true)}
            onDeleted={() => navigate(`/series/${data.seriesId}`)}
            onPosterChanged={() => setPosterVersion((v) => v + 1)}
            failures={actionFailure}
          />
          <EditBookDialog
            book={data}
            open={editing}
            onClose={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              book.reload();
            }}
          />
        </div>
        <ErrorMessage error={actionFailure.failure} onDismiss={actionFailure.clear} />
        <ErrorMessage error={book.error} />
        <dl className={styles.details}>
          <dt className={styles.detailTerm}>{t('book.media_status')}</dt>
          <dd className={styles.detailValue}>{t(`media_status.${media.status}`)}</dd>
          {media.comment && (
            <>
              <dt className={styles.detailTerm}>{t('book.media_comment')}</dt>
              <dd className={styles.detailValue}>{explainMediaComment(media.comment)}</dd>
            </>
          )}
          <dt className={styles.detailTerm}>{t('book.pages')}</dt>
          <dd className={styles.detailValue}>{formatNumber(media.pagesCount)}</dd>
          <dt className={styles.detailTerm}>{t('book.size')}</dt>
          <dd className={styles.detailValue}>{formatBytes(data.sizeBytes)}</dd>
          <dt className={styles.detailTerm}>{t('book.read_status')}</dt>
          <dd className={styles.detailValue}>{readState}</dd>
          {data.metadata.authors.length > 0 && (
            <>
              <dt className={styles.detailTerm}>{t('book.authors')}</dt>
              <dd className={styles.detailValue}>
                {formatList(data.metadata.authors.map((a) => `${a.name} (${roleLabel(a.role)})`))}
              </dd>
            </>
          )}
          {data.metadata.tags.length > 0 && (
            <>
              <dt className={styles.detailTerm}>{t('book.tags')}</dt>
              <dd className={styles.detailValue}>{formatList(data.metadata.tags)}</dd>
            </>
          )}
          {data.metadata.number && (
            <>
              <dt className={styles.detailTerm}>{t('book.number')}</dt>
              <dd className={styles.detailValue}>{data.metadata.number}</dd>
            </>
          )}
          {data.metadata.releaseDate && (
            <>
              <dt className={styles.detailTerm}>{t('book.release_date')}</dt>
              <dd className={styles.detailValue}>{formatDate(data.metadata.releaseDate)}</dd>
            </>
          )}
          {data.metadata.isbn && (
            <>
              <dt className={styles.detailTerm}>{t('edit_book.fields.isbn')}</dt>
              <dd className={styles.detailValue}>{data.metadata.isbn}</dd>
            </>
          )}
          {media.mediaType && (
            <>
              <dt className={styles.detailTerm}>{t('book.format')}</dt>
              <dd className={styles.detailValue}>{bookFormat(media.mediaType)}</dd>
            </>
          )}
          <dt className={styles.detailTerm}>{t('book.file')}</dt>
          <dd className={styles.detailValue}>{data.url}</dd>
        </dl>
        {data.metadata.summary && <p className={styles.summary}>{data.metadata.summary}</p>}
        <MembershipLinks kind="book" id={data.id} />
        {data.metadata.links.length > 0 && (
          <ul className={styles.linkList} aria-label={t('book.links')}>
            {data.metadata.links.map((link) => (
              <li key={`${link.label}-${link.url}`}>
                <a href={link.url} target="_blank" rel="noreferrer noopener">
                  {link.label || link.url}
                </a>
              </li>
            ))}
          </ul>
        )}
        {readList.data && (
          <p>
            {t('book.in_read_list')} <Link href={`/readlists/${readList.data.id}`}>{readList.data.name}</Link>
          </p>
        )}
        <ErrorMessage error={siblings.error} />
        <nav className={styles.actionsRow} aria-label={readListId ? t('book.siblings_read_list') : t('book.siblings')}>
          {siblings.data?.previous && (
            <Link href={`/book/${siblings.data.previous.id}${siblingQuery}`} className={buttons.secondary}>
              <ChevronLeft className={flipInRtl} aria-hidden="true" size={18} />
              {t('book.previous_book')}
            </Link>
          )}
          {siblings.data?.next && (
            <Link href={`/book/${siblings.data.next.id}${siblingQuery}`} className={buttons.secondary}>
              {t('book.next_book')}
              <ChevronRight className={flipInRtl} aria-hidden="true" size={18} />
            </Link>
          )}
        </nav>
      </div>
    </article>
  );
}
