import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../api/http.ts';
import { getMetric, type MetricDto } from '../../api/server.ts';
import { EmptyState, ErrorMessage, Loading } from '../components/Feedback.tsx';
import * as table from '../components/table.css.ts';
import { formatBytes, formatDuration, formatNumber } from '../format.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import { session } from '../store/session.ts';
import * as styles from './screens.css.ts';
import { LabelledCell } from '../components/LabelledCell.tsx';
import { taskName } from './metrics/taskNames.ts';

// Chart.js is loaded with the charts only, when this screen shows them.
const MetricsCharts = lazy(() => import('./metrics/MetricsCharts.tsx'));

function statistic(metric: MetricDto | null, name: string): number {
  return metric?.measurements.find((m) => m.statistic === name)?.value ?? 0;
}

/** A metric the server does not have counts as absent, not as a failure. */
async function optionalMetric(name: string, tags: string[] = []): Promise<MetricDto | null> {
  try {
    return await getMetric(name, tags);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

async function loadMetrics(libraryIds: readonly string[]) {
  const [libraries, collections, readLists, execution, failures] = await Promise.all([
    optionalMetric('komga.libraries'),
    optionalMetric('komga.collections'),
    optionalMetric('komga.readlists'),
    optionalMetric('komga.tasks.execution'),
    optionalMetric('komga.tasks.failure'),
  ]);
  const perLibrary = await Promise.all(
    libraryIds.map(async (id) => {
      const tag = [`library:${id}`];
      const [series, books, size, sidecars] = await Promise.all([
        optionalMetric('komga.series', tag),
        optionalMetric('komga.books', tag),
        optionalMetric('komga.books.filesize', tag),
        optionalMetric('komga.sidecars', tag),
      ]);
      return {
        id,
        series: statistic(series, 'VALUE'),
        books: statistic(books, 'VALUE'),
        size: statistic(size, 'VALUE'),
        sidecars: statistic(sidecars, 'VALUE'),
      };
    }),
  );
  const taskTypes = execution?.availableTags.find((tag) => tag.tag === 'type')?.values ?? [];
  const tasks = await Promise.all(
    taskTypes.map(async (type) => {
      const [run, failed] = await Promise.all([
        optionalMetric('komga.tasks.execution', [`type:${type}`]),
        optionalMetric('komga.tasks.failure', [`type:${type}`]),
      ]);
      return { type, count: statistic(run, 'COUNT'), seconds: statistic(run, 'TOTAL_TIME'), failures: statistic(failed, 'COUNT') };
    }),
  );
  return {
    totals: {
      libraries: statistic(libraries, 'VALUE'),
      collections: statistic(collections, 'VALUE'),
      readLists: statistic(readLists, 'VALUE'),
      failures: statistic(failures, 'COUNT'),
    },
    perLibrary,
    tasks,
  };
}

/** /settings/metrics: what the libraries hold and what the task queue has done. */
export function MetricsScreen() {
  const { libraries } = useSnapshot(session);
  const ids = libraries.map((l) => l.id);
  const metrics = useAsync(() => loadMetrics(ids), [ids]);
  const nameOf = (id: string) => libraries.find((l) => l.id === id)?.name ?? id;
  const data = metrics.data;

  return (
    <>
      <div className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{t('metrics.title')}</h1>
      </div>
      <ErrorMessage error={metrics.error} />
      {metrics.loading && !data && <Loading />}
      {data && (
        <>
          <dl className={styles.details}>
            <dt className={styles.detailTerm}>{t('nav.libraries')}</dt>
            <dd className={styles.detailValue}>{formatNumber(data.totals.libraries)}</dd>
            <dt className={styles.detailTerm}>{t('libraries.tabs.collections')}</dt>
            <dd className={styles.detailValue}>{formatNumber(data.totals.collections)}</dd>
            <dt className={styles.detailTerm}>{t('libraries.tabs.readlists')}</dt>
            <dd className={styles.detailValue}>{formatNumber(data.totals.readLists)}</dd>
          </dl>
          <Suspense fallback={<Loading />}>
            <MetricsCharts
              libraries={data.perLibrary.map((row) => ({ ...row, name: nameOf(row.id) }))}
              tasks={data.tasks}
              formatBytes={formatBytes}
            />
          </Suspense>
          <h2 className={styles.sectionTitle}>{t('metrics.libraries')}</h2>
          {data.perLibrary.length === 0 ? (
            <EmptyState>{t('welcome.no_library')}</EmptyState>
          ) : (
            <div className={table.wrapper}>
              <table className={`${table.table} ${table.stacked}`}>
                <thead>
                  <tr>
                    <th scope="col">{t('metrics.columns.library')}</th>
                    <th scope="col">{t('metrics.columns.series')}</th>
                    <th scope="col">{t('metrics.columns.books')}</th>
                    <th scope="col">{t('metrics.columns.disk_space')}</th>
                    <th scope="col">{t('metrics.columns.sidecars')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.perLibrary.map((row) => (
                    <tr key={row.id}>
                      <th scope="row">{nameOf(row.id)}</th>
                      <LabelledCell label={t('metrics.columns.series')}>{formatNumber(row.series)}</LabelledCell>
                      <LabelledCell label={t('metrics.columns.books')}>{formatNumber(row.books)}</LabelledCell>
                      <LabelledCell label={t('metrics.columns.disk_space')}>{formatBytes(row.size)}</LabelledCell>
                      <LabelledCell label={t('metrics.columns.sidecars')}>{formatNumber(row.sidecars)}</LabelledCell>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h2 className={styles.sectionTitle}>{t('metrics.tasks')}</h2>
          {data.tasks.length === 0 ? (
            <EmptyState>{t('metrics.no_tasks')}</EmptyState>
          ) : (
            <div className={table.wrapper}>
              <table className={`${table.table} ${table.stacked}`}>
                <thead>
                  <tr>
                    <th scope="col">{t('metrics.columns.task')}</th>
                    <th scope="col">{t('metrics.columns.executed')}</th>
                    <th scope="col">{t('metrics.columns.total_time')}</th>
                    <th scope="col">{t('metrics.columns.failures')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.tasks.map((row) => (
                    <tr key={row.type}>
                      <th scope="row">{taskName(row.type)}</th>
                      <LabelledCell label={t('metrics.columns.executed')}>{formatNumber(row.count)}</LabelledCell>
                      <LabelledCell label={t('metrics.columns.total_time')}>{formatDuration(row.seconds)}</LabelledCell>
                      <LabelledCell label={t('metrics.columns.failures')}>{formatNumber(row.failures)}</LabelledCell>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}
