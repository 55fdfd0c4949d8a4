import { SlidersHorizontal } from 'lucide-react';
import { useSnapshot } from 'valtio';
import * as buttons from '../../components/buttons.css.ts';
import { CheckboxGroup } from '../../components/CheckboxGroup.tsx';
import { ErrorMessage } from '../../components/Feedback.tsx';
import { useAsync } from '../../hooks/useAsync.ts';
import { formatLanguage } from '../../format.ts';
import { t } from '../../i18n.ts';
import { session } from '../../store/session.ts';
import { READ_STATUSES_FOR_FILTER, SERIES_STATUS_VALUES } from './filterValues.ts';
import * as styles from './library.css.ts';
import { emptyValueFilters, VALUE_FILTERS, type SeriesBrowseState, type ValueFilter } from './seriesBrowseQuery.ts';

/** The filter groups a list may offer: fixed ones, then those whose values the server lists. */
export type FilterKind = 'readStatus' | 'complete' | 'status' | ValueFilter;

/** Language tags read as language names; a missing age rating gets a word; library ids their names. */
function valueLabel(filter: ValueFilter, value: string, libraries: readonly { id: string; name: string }[]): string {
  if (filter === 'library') return libraries.find((l) => l.id === value)?.name ?? value;
  if (filter === 'language' && value) return formatLanguage(value);
  if (filter === 'ageRating') return /^\d+$/.test(value) ? t('series.facts.age_rating_value', { age: Number(value) }) : t('browse.no_age_rating');
  return value;
}

/**
 * The filter panel of a series or book list (library browse, collection, read list): the groups in
 * `kinds`, with server-fed values loaded by `loadValues` (null: the server has no such list).
 */
export function SeriesFilterPanel(props: {
  id: string;
  kinds: readonly FilterKind[];
  state: SeriesBrowseState;
  update: (next: Partial<SeriesBrowseState>) => void;
  /** Identifies what the values depend on; they are fetched again when it changes. */
  valuesKey: string;
  loadValues: (kind: ValueFilter) => Promise<string[] | null>;
}) {
  const { kinds, state, update } = props;
  const { libraries } = useSnapshot(session);
  const valueKinds = kinds.filter((kind): kind is ValueFilter => kind in VALUE_FILTERS);
  const values = useAsync(async () => {
    const lists = await Promise.all(valueKinds.map((kind) => props.loadValues(kind)));
    return Object.fromEntries(valueKinds.map((kind, i) => [kind, lists[i]])) as Partial<Record<ValueFilter, string[] | null>>;
  }, [props.valuesKey, valueKinds.join()]);
  const completeSelected = state.complete === undefined ? [] : [String(state.complete) as 'true' | 'false'];

  return (
    <div id={props.id} className={styles.filterPanel}>
      {kinds.includes('readStatus') && (
        <CheckboxGroup
          legend={t('browse.read_status')}
          options={READ_STATUSES_FOR_FILTER.map((value) => ({ value, label: t(`browse.read_statuses.${value}`) }))}
          selected={state.readStatus}
          onChange={(readStatus) => update({ readStatus })}
        />
      )}
      {kinds.includes('complete') && (
        <CheckboxGroup
          legend={t('browse.completeness')}
          options={(['true', 'false'] as const).map((value) => ({ value, label: t(`browse.complete_values.${value}`) }))}
          selected={completeSelected}
          // The two answers exclude each other: the one just ticked wins.
          onChange={(picked) => {
            const chosen = picked.find((value) => !completeSelected.includes(value)) ?? picked[0];
            update({ complete: chosen === undefined ? undefined : chosen === 'true' });
          }}
        />
      )}
      {kinds.includes('status') && (
        <CheckboxGroup
          legend={t('browse.series_status')}
          options={SERIES_STATUS_VALUES.map((value) => ({ value, label: t(`series_status.${value}`) }))}
          selected={state.status}
          onChange={(status) => update({ status })}
        />
      )}
      <ErrorMessage error={values.error} />
      {values.data &&
        valueKinds.map((name) => {
          // Keep chosen values visible even if the server no longer lists them.
          const offered = values.data?.[name] ?? null;
          if (offered === null && state.values[name].length === 0) return null;
          const all = [...new Set([...(offered ?? []), ...state.values[name]])];
          if (all.length === 0) return null;
          return (
            <div key={name} className={styles.scrollGroup}>
              <CheckboxGroup
                legend={t(`browse.value_filters.${name}`)}
                options={all.map((value) => ({ value, label: valueLabel(name, value, libraries) }))}
                selected={state.values[name]}
                onChange={(selected) => update({ values: { ...state.values, [name]: selected } })}
              />
            </div>
          );
        })}
    </div>
  );
}

/** The "Filters" button that opens the panel, and "Clear filters" while any filter is on. */
export function FilterButtons(props: {
  panelId: string;
  open: boolean;
  onToggle: () => void;
  filtered: boolean;
  update: (next: Partial<SeriesBrowseState>) => void;
}) {
  return (
    <>
      <button type="button" className={buttons.secondary} aria-expanded={props.open} aria-controls={props.panelId} onClick={props.onToggle}>
        <SlidersHorizontal aria-hidden="true" size={16} />
        {t('browse.filters')}
      </button>
      {props.filtered && (
        <button
          type="button"
          className={buttons.quiet}
          onClick={() => props.update({ readStatus: [], status: [], complete: undefined, letter: undefined, values: emptyValueFilters() })}
        >
          {t('browse.clear_filters')}
        </button>
      )}
    </>
  );
}
