import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { useSnapshot } from 'valtio';
import { browseSeries, browseSeriesLetterGroups } from '../../../api/browse.ts';
import { getReferentialValues } from '../../../api/referential.ts';
import type { Page, SeriesDto } from '../../../api/types.ts';
import { CardGrid } from '../../components/CardGrid.tsx';
import { EmptyState, ErrorMessage, LiveStatus, Loading } from '../../components/Feedback.tsx';
import { LetterBar } from '../../components/LetterBar.tsx';
import { PagingFooter } from '../../components/PagingFooter.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { SelectionToolbar } from '../../components/SelectionToolbar.tsx';
import { SeriesCard } from '../../components/SeriesCard.tsx';
import { SERIES_OR_BOOK_EVENTS, live, onLiveEvent } from '../../events/liveStore.ts';
import { useLiveRefresh } from '../../events/useLiveRefresh.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { usePageParam } from '../../hooks/usePageParam.ts';
import { usePageSize } from '../../hooks/usePageSize.ts';
import { useRememberedQuery } from '../../hooks/useRememberedQuery.ts';
import { useScanRefresh } from '../../hooks/useScanRefresh.ts';
import { t } from '../../i18n.ts';
import { PAGE_SIZES, preferences } from '../../store/preferences.ts';
import { scans } from '../../store/scans.ts';
import { isAdmin, session } from '../../store/session.ts';
import { ALL_LIBRARIES } from './LibraryLayout.tsx';
import { formatNumber } from '../../format.ts';
import * as styles from './library.css.ts';
import { FilterButtons, SeriesFilterPanel } from './SeriesFilterPanel.tsx';
import {
  hasActiveFilter,
  parseSeriesBrowse,
  SERIES_FILTERS,
  SERIES_SORT_KEYS,
  sortParameter,
  writeSeriesBrowse,
  type SeriesBrowseState,
} from './seriesBrowseQuery.ts';

function contentSignature(page: Page<SeriesDto>): string {
  const books = page.content.reduce((sum, s) => sum + s.booksCount, 0);
  return `${page.totalElements}:${books}`;
}

/** After a scan started here, refresh from live events, or poll when none arrive. */
function useRefreshAfterScan(libraryId: string, list: { data: Page<SeriesDto> | undefined; reload: () => void }) {
  const refresher = useScanRefresh(list.data, contentSignature, list.reload);
  const startPolling = useRef(refresher.start);
  startPolling.current = refresher.start;
  const scanTimes = useSnapshot(scans);
  const scannedAt = scanTimes[libraryId];
  const [mountedAt] = useState(() => Date.now());

  useEffect(() => {
    if (!scannedAt || scannedAt < mountedAt) return;
    if (!live.connected) {
      startPolling.current();
      return;
    }
    // A server known to announce changes will tell us; a scan that changes nothing sends nothing.
    if (live.announcesContentChanges) return;
    // The stream is up: the scan's own events refresh the grid. If none arrives soon (a server
    // that does not send them), fall back to polling.
    let heard = false;
    const stop = onLiveEvent((event) => {
      if (SERIES_OR_BOOK_EVENTS.includes(event.name)) heard = true;
    });
    const timer = setTimeout(() => {
      if (!heard) startPolling.current();
    }, 5_000);
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [scannedAt, mountedAt]);
  return refresher.polling;
}

/** Series of one library (or of all) with sort, filters, letter bar and paging, all kept in the URL. */
export function SeriesBrowseView({ libraryId }: { libraryId: string }) {
  const { me } = useSnapshot(session);
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const [pageSize, setPageSize] = usePageSize();
  useRememberedQuery(preferences.libraryBrowse, libraryId, params, setParams);
  const state = parseSeriesBrowse(params);
  const [filtersOpen, setFiltersOpen] = useState(hasActiveFilter({ ...state, letter: undefined }));
  // On "All libraries" the library filter narrows the libraries; elsewhere the library is fixed.
  const { library: chosenLibraries, ...valueFilters } = state.values;
  const libraryIds =
    libraryId === ALL_LIBRARIES ? (chosenLibraries.length > 0 ? chosenLibraries : undefined) : [libraryId];
  const query = { libraryIds, readStatus: state.readStatus, status: state.status, complete: state.complete, ...valueFilters };
  const list = useAsync(
    () => browseSeries({ ...query, letter: state.letter }, { page, size: pageSize, sort: sortParameter(state) }),
    [libraryId, page, pageSize, state],
  );
  const groups = useAsync(() => browseSeriesLetterGroups(query), [libraryId, state.readStatus, state.status, state.complete, state.values]);
  const reloadAll = () => {
    list.reload();
    groups.reload();
  };
  useLiveRefresh(
    (event) =>
      SERIES_OR_BOOK_EVENTS.includes(event.name) && (libraryId === ALL_LIBRARIES || event.data.libraryId === libraryId),
    reloadAll,
  );
  const polling = useRefreshAfterScan(libraryId, { data: list.data, reload: reloadAll });

  function update(next: Partial<SeriesBrowseState>) {
    setParams((previous) => writeSeriesBrowse(previous, { ...state, ...next }));
  }

  const series = list.data?.content ?? [];
  const filtered = hasActiveFilter(state);
  const [selected, setSelected] = useState<string[]>([]);
  // A new filter, sort, letter or page shows other series: drop the selection, so a batch action
  // (delete included) never reaches series the user can no longer see.
  const view = params.toString();
  useEffect(() => setSelected([]), [view]);
  const filterPanelId = `series-filters-${libraryId}`;

  return (
    <>
      <div className={styles.toolbar}>
        <SelectField
          label={t('browse.sort_by')}
          value={state.sortKey}
          options={SERIES_SORT_KEYS.map((key) => ({ value: key, label: t(`browse.sort_keys.${key.replace('.', '_')}`) }))}
          onChange={(value) => update({ sortKey: value as SeriesBrowseState['sortKey'] })}
        />
        <SelectField
          label={t('browse.direction')}
          value={state.descending ? 'desc' : 'asc'}
          options={[
            { value: 'asc', label: t('browse.ascending') },
            { value: 'desc', label: t('browse.descending') },
          ]}
          onChange={(value) => update({ descending: value === 'desc' })}
        />
        <SelectField
          label={t('browse.page_size')}
          value={String(pageSize)}
          options={PAGE_SIZES.map((size) => ({ value: String(size), label: formatNumber(size) }))}
          onChange={(value) => setPageSize(Number(value))}
        />
        <FilterButtons
          panelId={filterPanelId}
          open={filtersOpen}
          onToggle={() => setFiltersOpen((open) => !open)}
          filtered={filtered}
          update={update}
        />
      </div>
      {filtersOpen && (
        <SeriesFilterPanel
          id={filterPanelId}
          kinds={libraryId === ALL_LIBRARIES ? [...SERIES_FILTERS, 'library'] : SERIES_FILTERS}
          state={state}
          update={update}
          valuesKey={libraryId}
          loadValues={(kind) =>
            kind === 'library'
              ? Promise.resolve(session.libraries.map((l) => l.id))
              : getReferentialValues(kind, { library_id: libraryId === ALL_LIBRARIES ? undefined : [libraryId] })
          }
        />
      )}
      {groups.data && <LetterBar groups={groups.data} selected={state.letter} onSelect={(letter) => update({ letter })} />}
      <ErrorMessage error={list.error} />
      <LiveStatus as="p" className={styles.legend} message={polling ? t('libraries.scan_started') : undefined} />
      <SelectionToolbar
        kind="series"
        ids={selected}
        onClear={() => setSelected([])}
        onChanged={reloadAll}
        titleOf={(id) => series.find((s) => s.id === id)?.metadata.title ?? id}
      />
      {list.loading && !list.data && <Loading />}
      {list.data && series.length === 0 && (
        <EmptyState>
          {filtered
            ? t('browse.no_match')
            : isAdmin(me) && libraryId !== ALL_LIBRARIES
              ? t('libraries.empty_admin')
              : t('libraries.empty')}
        </EmptyState>
      )}
      {series.length > 0 && (
        <CardGrid
          items={series}
          itemKey={(s) => s.id}
          renderItem={(s) => (
            <SeriesCard
              series={s}
              selection={{
                selected: selected.includes(s.id),
                onToggle: (on) => setSelected((ids) => (on ? [...ids, s.id] : ids.filter((id) => id !== s.id))),
              }}
            />
          )}
          label={t('libraries.series_list')}
        />
      )}
      {list.data && <PagingFooter page={page} size={pageSize} total={list.data.totalElements} onPage={setPage} />}
    </>
  );
}
