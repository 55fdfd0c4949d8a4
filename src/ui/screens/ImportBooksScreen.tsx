import { FolderSearch } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { analyseTransientBook, importBooks, scanForImport, type CopyMode, type TransientBookDto } from '../../api/bookImport.ts';
import { getSeries, getSeriesBooks, getSeriesList } from '../../api/series.ts';
import type { BookDto } from '../../api/types.ts';
import { EmptyState, ErrorMessage, LiveStatus } from '../components/Feedback.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import * as table from '../components/table.css.ts';
import { onLiveEvent } from '../events/liveStore.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { formatBytes } from '../format.ts';
import { t, tPlural } from '../i18n.ts';
import { explainMediaComment } from '../mediaComment.ts';
import { explainImportFailure } from '../importOutcome.ts';
import { preferences } from '../store/preferences.ts';
import { CompareBooksDialog } from '../dialogs/CompareBooksDialog.tsx';
import { FolderBrowserDialog } from '../dialogs/FolderBrowserDialog.tsx';
import { ImportTabs } from './ImportTabs.tsx';
import * as styles from './screens.css.ts';

interface Row {
  book: TransientBookDto;
  analysed: boolean;
  seriesId: string;
  number: string;
  /** File name in the series folder, without extension; empty keeps the file's own name. */
  destinationName: string;
  selected: boolean;
  outcome?: { success: boolean; message?: string };
}

/** SPEC §4: only analysed, error-free books with a series can be imported. */
function importable(row: Row): boolean {
  return row.analysed && row.book.status === 'READY' && !!row.seriesId;
}

/** /import/books: scan a folder, analyse, assign series and numbers, import (upgrading same-number books). */
export function ImportBooksScreen() {
  const prefs = useSnapshot(preferences);
  const [path, setPath] = useState(prefs.importPath);
  const [rows, setRows] = useState<Row[]>([]);
  const [scanned, setScanned] = useState(false);
  const [copyMode, setCopyMode] = useState<CopyMode>('HARDLINK');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const allId = useId();
  const [browsing, setBrowsing] = useState(false);
  const [comparing, setComparing] = useState<number | null>(null);
  // The series picker searches the server and never offers a deleted series (its folder is gone).
  const [seriesSearch, setSeriesSearch] = useState('');
  const searched = useDebounced(seriesSearch.trim(), 300);
  const series = useAsync(
    () => getSeriesList({ search: searched || undefined, deleted: false }, { size: 200, sort: ['metadata.titleSort,asc'] }),
    [searched],
  );
  // Titles of series already chosen, so a row keeps its choice when a new search leaves it out.
  const [chosenTitles, setChosenTitles] = useState<Record<string, string>>({});
  // Books of every series chosen so far, to spot numbers that already exist (an upgrade).
  const chosenSeries = useMemo(() => [...new Set(rows.map((r) => r.seriesId).filter(Boolean))].sort(), [rows]);
  const seriesBooks = useAsync(async () => {
    const entries = await Promise.all(
      chosenSeries.map(async (id) => [id, (await getSeriesBooks(id, { unpaged: true })).content] as const),
    );
    return new Map<string, BookDto[]>(entries);
  }, [chosenSeries]);

  // Results arrive as BookImported events, one per file.
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (event.name !== 'BookImported' || typeof event.data.sourceFile !== 'string') return;
        const outcome = { success: event.data.success === true, message: typeof event.data.message === 'string' ? event.data.message : undefined };
        setRows((previous) => previous.map((row) => (row.book.url === event.data.sourceFile ? { ...row, outcome, selected: false } : row)));
      }),
    [],
  );

  const update = (index: number, patch: Partial<Row>) =>
    setRows((previous) => previous.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  function upgradeTarget(row: Row): BookDto | undefined {
    if (!row.seriesId || row.number.trim() === '') return undefined;
    const number = Number(row.number);
    return seriesBooks.data?.get(row.seriesId)?.find((b) => b.metadata.numberSort === number);
  }

  async function scan(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    preferences.importPath = path.trim();
    try {
      const found = await scanForImport(path.trim());
      setRows(
        found.map((book) => ({
          book,
          analysed: book.status !== 'UNKNOWN',
          seriesId: book.seriesId ?? '',
          number: book.number === null || book.number === undefined ? '' : String(book.number),
          destinationName: '',
          selected: false,
        })),
      );
      setScanned(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function analyse(indexes: number[]) {
    setBusy(true);
    setError(undefined);
    try {
      for (const index of indexes) {
        const row = rows[index];
        if (!row) continue;
        const book = await analyseTransientBook(row.book.id);
        // The file's own metadata fills what the user has not chosen yet (series when it matches one).
        const seriesId = row.seriesId || book.seriesId || '';
        const number = row.number || (book.number === null || book.number === undefined ? '' : String(book.number));
        if (seriesId && !row.seriesId) await rememberSeriesTitle(seriesId);
        update(index, { book, analysed: true, seriesId, number, selected: book.status === 'READY' && !!seriesId });
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function rememberSeriesTitle(seriesId: string) {
    const known = series.data?.content.find((s) => s.id === seriesId);
    const title = known ? known.metadata.title || known.name : (await getSeries(seriesId)).metadata.title;
    setChosenTitles((previous) => ({ ...previous, [seriesId]: title }));
  }

  async function runImport() {
    const chosen = rows.filter((row) => row.selected && importable(row));
    if (chosen.length === 0) return;
    setBusy(true);
    setError(undefined);
    try {
      await importBooks(
        chosen.map((row) => {
          const upgrade = upgradeTarget(row);
          const name = row.destinationName.trim();
          return {
            sourceFile: row.book.url,
            seriesId: row.seriesId,
            ...(upgrade ? { upgradeBookId: upgrade.id } : {}),
            ...(name && name !== row.book.name ? { destinationName: name } : {}),
          };
        }),
        copyMode,
      );
      setNotice(tPlural('import_books.started', chosen.length));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const found = (series.data?.content ?? []).map((s) => ({ value: s.id, label: s.metadata.title || s.name }));
  const seriesOptionsFor = (row: Row) => [
    { value: '', label: t('import_books.choose_series') },
    ...(row.seriesId && !found.some((o) => o.value === row.seriesId) ? [{ value: row.seriesId, label: chosenTitles[row.seriesId] ?? row.seriesId }] : []),
    ...found,
  ];
  const selectable = rows.filter(importable);
  const allSelected = selectable.length > 0 && selectable.every((r) => r.selected);

  return (
    <>
      <div className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{t('import_books.title')}</h1>
      </div>
      <ImportTabs current="books" />
      <form onSubmit={scan} className={styles.actionsRow}>
        <TextField label={t('import_books.folder')} value={path} onChange={(e) => setPath(e.target.value)} required />
        <button type="button" className={buttons.secondary} style={{ alignSelf: 'flex-end' }} onClick={() => setBrowsing(true)}>
          {t('folders.browse')}
        </button>
        <button type="submit" className={buttons.primary} disabled={busy || !path.trim()} style={{ alignSelf: 'flex-end' }}>
          <FolderSearch aria-hidden="true" size={16} />
          {t('import_books.scan')}
        </button>
      </form>
      <FolderBrowserDialog
        open={browsing}
        initialPath={path}
        onClose={() => setBrowsing(false)}
        onChoose={(chosen) => {
          setPath(chosen);
          setBrowsing(false);
        }}
      />
      {comparing !== null && rows[comparing] && upgradeTarget(rows[comparing]) && (
        <CompareBooksDialog
          open
          existing={upgradeTarget(rows[comparing]) as BookDto}
          incoming={rows[comparing].book}
          onClose={() => setComparing(null)}
        />
      )}
      <ErrorMessage error={error} />
      <ErrorMessage error={series.error} />
      <LiveStatus as="p" message={notice} />
      {scanned && rows.length === 0 && <EmptyState>{t('import_books.none')}</EmptyState>}
      {rows.length > 0 && (
        <>
          <div className={styles.actionsRow}>
            <button type="button" className={buttons.secondary} disabled={busy} onClick={() => void analyse(rows.map((_, i) => i).filter((i) => !rows[i]?.analysed))}>
              {t('import_books.analyse_all')}
            </button>
            <TextField type="search" label={t('import_books.series_search')} value={seriesSearch} onChange={(e) => setSeriesSearch(e.target.value)} />
          </div>
          <div className={table.wrapper}>
            {/* Cards on a phone (five columns put the series and number fields past the screen's edge); the select-all box stays above them. */}
            <table className={`${table.table} ${table.stacked} ${table.keepsFirstHeader}`}>
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      id={allId}
                      type="checkbox"
                      aria-label={t('import_books.select_all')}
                      checked={allSelected}
                      disabled={selectable.length === 0}
                      onChange={(e) => setRows(rows.map((r) => (importable(r) ? { ...r, selected: e.target.checked } : r)))}
                    />
                  </th>
                  <th scope="col">{t('import_books.file')}</th>
                  <th scope="col">{t('book.media_status')}</th>
                  <th scope="col">{t('import_books.series')}</th>
                  <th scope="col">{t('edit_book.fields.number')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, index) => {
                  const upgrade = upgradeTarget(row);
                  return (
                    <tr key={row.book.id}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={t('import_books.select', { name: row.book.name })}
                          checked={row.selected}
                          disabled={!importable(row)}
                          onChange={(e) => update(index, { selected: e.target.checked })}
                        />
                      </td>
                      <th scope="row">
                        {row.book.name}
                        <div className={feedback.muted} style={{ margin: 0, fontWeight: 'normal', fontSize: 12 }}>
                          {formatBytes(row.book.sizeBytes)}
                        </div>
                      </th>
                      <td>
                        {row.analysed ? t(`media_status.${row.book.status}`) : t('import_books.not_analysed')}
                        {row.book.comment && <div className={feedback.muted} style={{ margin: 0 }}>{explainMediaComment(row.book.comment)}</div>}
                        {!row.analysed && (
                          <div>
                            <button type="button" className={buttons.quiet} disabled={busy} onClick={() => void analyse([index])} aria-label={t('import_books.analyse_one', { name: row.book.name })}>
                              {t('libraries.actions.analyze')}
                            </button>
                          </div>
                        )}
                        {/* Each row's region is there before its outcome, which arrives later as an event. */}
                        <LiveStatus
                          className={row.outcome?.success === false ? feedback.errorBox : undefined}
                          message={row.outcome && (row.outcome.success ? t('import_books.imported') : explainImportFailure(row.outcome.message))}
                        />
                      </td>
                      <td>
                        <SelectField
                          label={t('import_books.series_for', { name: row.book.name })}
                          value={row.seriesId}
                          options={seriesOptionsFor(row)}
                          onChange={(seriesId) => {
                            const label = found.find((o) => o.value === seriesId)?.label;
                            if (label) setChosenTitles((previous) => ({ ...previous, [seriesId]: label }));
                            update(index, { seriesId, selected: importable({ ...row, seriesId }) });
                          }}
                        />
                        <TextField
                          label={t('import_books.destination_for', { name: row.book.name })}
                          value={row.destinationName}
                          placeholder={row.book.name}
                          list={`${allId}-names-${row.seriesId}`}
                          onChange={(e) => update(index, { destinationName: e.target.value })}
                        />
                        {/* Names of the series' books: a pattern to follow for the new one. */}
                        <datalist id={`${allId}-names-${row.seriesId}`}>
                          {(seriesBooks.data?.get(row.seriesId) ?? []).map((b) => (
                            <option key={b.id} value={b.name} />
                          ))}
                        </datalist>
                      </td>
                      <td>
                        <TextField
                          label={t('import_books.number_for', { name: row.book.name })}
                          inputMode="decimal"
                          value={row.number}
                          onChange={(e) => update(index, { number: e.target.value })}
                        />
                        {upgrade && (
                          <div role="note" className={feedback.errorBox}>
                            {t('import_books.upgrade_warning', { title: upgrade.metadata.title || upgrade.name })}
                            <div>
                              <button type="button" className={buttons.quiet} onClick={() => setComparing(index)}>
                                {t('import_books.compare', { name: row.book.name })}
                              </button>
                            </div>
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className={styles.actionsRow}>
            <SelectField
              label={t('import_books.copy_mode')}
              value={copyMode}
              options={[
                { value: 'HARDLINK', label: t('import_books.copy_modes.HARDLINK') },
                { value: 'MOVE', label: t('import_books.copy_modes.MOVE') },
              ]}
              onChange={(value) => setCopyMode(value as CopyMode)}
            />
            <button
              type="button"
              className={buttons.primary}
              style={{ alignSelf: 'flex-end' }}
              disabled={busy || !rows.some((r) => r.selected && importable(r))}
              onClick={() => void runImport()}
            >
              {tPlural('import_books.import', rows.filter((r) => r.selected && importable(r)).length)}
            </button>
          </div>
        </>
      )}
    </>
  );
}
