import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { getBooks } from '../../../api/books.ts';
import { searchBooks, type SearchCondition } from '../../../api/browse.ts';
import { analyzeContent } from '../../../api/contentActions.ts';
import { ApiError } from '../../../api/http.ts';
import type { PageRequest } from '../../../api/paging.ts';
import type { MediaStatus } from '../../../api/types.ts';
import { EmptyState, ErrorMessage, LiveStatus, Loading } from '../../components/Feedback.tsx';
import { LabelledCell } from '../../components/LabelledCell.tsx';
import { PagingFooter } from '../../components/PagingFooter.tsx';
import * as buttons from '../../components/buttons.css.ts';
import * as feedback from '../../components/feedback.css.ts';
import * as table from '../../components/table.css.ts';
import { useLiveRefresh } from '../../events/useLiveRefresh.ts';
import { useOnLiveEvent } from '../../events/useOnLiveEvent.ts';
import { streamOpenings } from '../../events/liveStore.ts';
import { useMissedTaskEnds } from '../../events/useMissedTaskEnds.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { usePageParam } from '../../hooks/usePageParam.ts';
import { t } from '../../i18n.ts';
import { explainMediaComment } from '../../mediaComment.ts';
import { MediaManagementLayout } from './MediaManagementLayout.tsx';
import { analysisFailureKey } from './analysisFailure.ts';

const PROBLEM_STATUSES: MediaStatus[] = ['ERROR', 'UNSUPPORTED', 'OUTDATED', 'UNKNOWN'];
/**
 * Books in a problem status, and READY books with pages that cannot be decoded or files missing:
 * the analysis keeps those readable (as Komga does) and records ERR_1007 or ERR_1033 in the
 * comment, which the server can filter on.
 */
const PROBLEMS: SearchCondition = {
  anyOf: [
    ...PROBLEM_STATUSES.map((status) => ({ mediaStatus: { operator: 'is', value: status } })),
    { mediaComment: { operator: 'contains', value: 'ERR_1007' } },
    { mediaComment: { operator: 'contains', value: 'ERR_1033' } },
  ],
};
const SIZE = 50;

/**
 * The books to list. `mediaComment` is Folio's condition: Komga answers 400 to a condition it does
 * not know (and never marks READY books with ERR_1007), so against Komga the list is the problem
 * statuses alone.
 */
async function problemBooks(paging: PageRequest) {
  try {
    return await searchBooks({ condition: PROBLEMS }, paging);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 400)) throw error;
    return getBooks({ mediaStatus: PROBLEM_STATUSES }, paging);
  }
}

/** Books whose analysis failed or is due, with the reason and a way to analyse again. */
export function MediaAnalysisScreen() {
  const [page, setPage] = usePageParam();
  const books = useAsync(
    () => problemBooks({ page, size: SIZE, sort: ['media.status,asc', 'name,asc'] }),
    [page],
  );
  useLiveRefresh((event) => event.name === 'BookChanged' || event.name === 'BookDeleted', books.reload, 2_000);
  const [error, setError] = useState<unknown>(undefined);
  /**
   * Books whose analysis was asked for here and has not ended yet, with the name the row showed and
   * the stream opening (streamOpenings) at which the server accepted it (Infinity until then).
   */
  const [started, setStarted] = useState<ReadonlyMap<string, { name: string; accepted: number }>>(new Map());
  const [status, setStatus] = useState<string | undefined>(undefined);
  const rows = books.data?.content ?? [];
  const end = (bookId: string, message: (name: string) => string) => {
    setStatus(message(started.get(bookId)?.name ?? ''));
    setStarted((previous) => {
      const next = new Map(previous);
      next.delete(bookId);
      return next;
    });
  };
  // An analysis ends with BookChanged, whether the book is readable now or failed again (it then
  // stays listed, with its new status): the row's button is offered again, and the end is said.
  useOnLiveEvent(
    (event) => (event.name === 'BookChanged' || event.name === 'BookDeleted') && started.has(event.data.bookId ?? ''),
    (event) => end(event.data.bookId ?? '', (name) => t('media.analysis.finished', { name })),
  );
  // One that recorded nothing (the file went meanwhile), failed outside the book, or was cancelled
  // while it waited to be tried again (server: TaskQueue.retryLater) says so instead.
  useOnLiveEvent(
    (event) => event.name === 'TaskFailed' && event.data.taskType === 'AnalyzeBook' && started.has(event.data.bookId ?? ''),
    (event) =>
      end(event.data.bookId ?? '', (name) =>
        t(analysisFailureKey(event.data.reason), { name }),
      ),
  );

  // An end missed while the stream was closed: the queue has no analysis left, so those accepted
  // before the stream reopened have ended. The list is read again and shows how each ended.
  useMissedTaskEnds('AnalyzeBook', (latestOpening) => {
    const ended = [...started].filter(([, { accepted }]) => accepted < latestOpening);
    if (ended.length === 0) return;
    books.reload();
    for (const [bookId] of ended) end(bookId, (name) => t('media.analysis.finished', { name }));
  });

  // Marked before the request: the analysis of a broken book can end (and say so) before the
  // server's answer is read. A refused request unmarks it.
  async function analyse(bookId: string, name: string) {
    setError(undefined);
    setStatus(undefined);
    setStarted((previous) => new Map(previous).set(bookId, { name, accepted: Number.POSITIVE_INFINITY }));
    try {
      await analyzeContent('books', bookId);
      const accepted = streamOpenings();
      setStarted((previous) => {
        const entry = previous.get(bookId);
        return entry ? new Map(previous).set(bookId, { ...entry, accepted }) : previous;
      });
    } catch (failure) {
      setStarted((previous) => {
        const next = new Map(previous);
        next.delete(bookId);
        return next;
      });
      setError(failure);
    }
  }

  return (
    <MediaManagementLayout current="analysis">
      <ErrorMessage error={books.error} />
      <ErrorMessage error={error} />
      <LiveStatus as="p" message={status} />
      {books.loading && !books.data && <Loading />}
      {books.data && rows.length === 0 && <EmptyState>{t('media.analysis.none')}</EmptyState>}
      {rows.length > 0 && (
        <div className={table.wrapper}>
          {/* Cards on a phone: the file path and the action were past the screen's edge. */}
          <table className={`${table.table} ${table.stacked}`}>
            <thead>
              <tr>
                <th scope="col">{t('media.columns.book')}</th>
                <th scope="col">{t('book.media_status')}</th>
                <th scope="col">{t('book.media_comment')}</th>
                <th scope="col">{t('book.file')}</th>
                <th scope="col">
                  <span className={feedback.visuallyHidden}>{t('media.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((book) => (
                <tr key={book.id}>
                  <th scope="row">
                    <Link href={`/book/${book.id}`}>{book.metadata.title || book.name}</Link>
                  </th>
                  <LabelledCell label={t('book.media_status')}>
                    {book.media.status === 'READY'
                      ? t('media.analysis.bad_pages')
                      : t(`media_status.${book.media.status}`)}
                  </LabelledCell>
                  <LabelledCell label={t('book.media_comment')}>{explainMediaComment(book.media.comment)}</LabelledCell>
                  <LabelledCell label={t('book.file')}>{book.url}</LabelledCell>
                  <td>
                    <button
                      type="button"
                      className={buttons.quiet}
                      disabled={started.has(book.id)}
                      aria-label={t('media.analysis.analyse_book', { name: book.metadata.title || book.name })}
                      onClick={() => void analyse(book.id, book.metadata.title || book.name)}
                    >
                      <RefreshCw aria-hidden="true" size={16} />
                      {started.has(book.id) ? t('media.analysis.started') : t('libraries.actions.analyze')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {books.data && <PagingFooter page={page} size={SIZE} total={books.data.totalElements} onPage={setPage} />}
    </MediaManagementLayout>
  );
}
