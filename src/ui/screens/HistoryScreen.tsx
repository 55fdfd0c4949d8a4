import { Link } from 'wouter';
import { getHistory } from '../../api/history.ts';
import { EmptyState, ErrorMessage, Loading } from '../components/Feedback.tsx';
import { PagingFooter } from '../components/PagingFooter.tsx';
import * as table from '../components/table.css.ts';
import { formatDateTime } from '../format.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { usePageParam } from '../hooks/usePageParam.ts';
import { usePageSize } from '../hooks/usePageSize.ts';
import { t } from '../i18n.ts';
import * as styles from './screens.css.ts';
import { LabelledCell } from '../components/LabelledCell.tsx';
import { historyDetailsText } from './historyDetails.ts';

/** Known event types are translated; an unknown one from a newer server is shown as sent. */
function typeLabel(type: string): string {
  const key = `history.types.${type}`;
  const label = t(key);
  return label === key ? type : label;
}

/** /history: file-level events (imports, conversions, deletions), newest first. */
export function HistoryScreen() {
  const [page, setPage] = usePageParam();
  const [size] = usePageSize();
  const history = useAsync(() => getHistory({ page, size, sort: ['timestamp,desc'] }), [page, size]);
  const rows = history.data?.content ?? [];
  return (
    <>
      <div className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{t('history.title')}</h1>
      </div>
      <ErrorMessage error={history.error} />
      {history.loading && !history.data && <Loading />}
      {history.data && rows.length === 0 && <EmptyState>{t('history.empty')}</EmptyState>}
      {rows.length > 0 && (
        <div className={table.wrapper}>
          <table className={`${table.table} ${table.stacked}`}>
            <thead>
              <tr>
                <th scope="col">{t('history.columns.date')}</th>
                <th scope="col">{t('history.columns.type')}</th>
                <th scope="col">{t('history.columns.content')}</th>
                <th scope="col">{t('history.columns.details')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((event) => (
                <tr key={event.id}>
                  <LabelledCell label={t('history.columns.date')}>{formatDateTime(event.timestamp)}</LabelledCell>
                  <LabelledCell label={t('history.columns.type')}>{typeLabel(event.type)}</LabelledCell>
                  <LabelledCell label={t('history.columns.content')}>
                    {event.bookId ? (
                      <Link href={`/book/${event.bookId}`}>{t('history.open_book')}</Link>
                    ) : event.seriesId ? (
                      <Link href={`/series/${event.seriesId}`}>{t('history.open_series')}</Link>
                    ) : null}
                  </LabelledCell>
                  <LabelledCell label={t('history.columns.details')}>{historyDetailsText(event)}</LabelledCell>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {history.data && <PagingFooter page={page} size={size} total={history.data.totalElements} onPage={setPage} />}
    </>
  );
}
