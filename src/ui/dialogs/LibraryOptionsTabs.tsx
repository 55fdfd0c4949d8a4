import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { SCAN_INTERVALS, SERIES_COVERS, type LibraryDto } from '../../api/types.ts';
import { CheckboxList, type CheckboxOption } from '../components/CheckboxList.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextArea } from '../components/TextArea.tsx';
import { TextField } from '../components/TextField.tsx';
import { t } from '../i18n.ts';
import * as styles from './dialog.css.ts';

/** Every setting of a library but its identity: what the add and edit dialogs let the user choose. */
export type LibraryOptions = Omit<LibraryDto, 'id' | 'name' | 'root' | 'unavailable'>;

type Flag = {
  [K in keyof LibraryOptions]: LibraryOptions[K] extends boolean ? K : never;
}[keyof LibraryOptions];

/**
 * What Komga's web client proposes for a new library: everything imported but barcode ISBNs (slow:
 * pages are decoded to look for one), file hashes and page dimensions on, page hashes off, a scan
 * every 6 hours, the usual NAS recycle-bin folders excluded.
 */
export const NEW_LIBRARY_OPTIONS: LibraryOptions = {
  importComicInfoBook: true,
  importComicInfoSeries: true,
  importComicInfoCollection: true,
  importComicInfoReadList: true,
  importComicInfoSeriesAppendVolume: true,
  importEpubBook: true,
  importEpubSeries: true,
  importMylarSeries: true,
  importLocalArtwork: true,
  importBarcodeIsbn: false,
  scanForceModifiedTime: false,
  scanInterval: 'EVERY_6H',
  scanOnStartup: false,
  scanCbx: true,
  scanPdf: true,
  scanEpub: true,
  scanDirectoryExclusions: ['#recycle', '@eaDir', '@Recycle'],
  repairExtensions: false,
  convertToCbz: false,
  emptyTrashAfterScan: false,
  seriesCover: 'FIRST',
  hashFiles: true,
  hashPages: false,
  hashKoreader: false,
  analyzeDimensions: true,
  oneshotsDirectory: null,
};

const TABS = ['general', 'analysis', 'files', 'scanner', 'series_cover', 'import'] as const;
type Tab = (typeof TABS)[number];
export type LibraryOptionsTab = Tab;

// hashKoreader is not offered: it only serves KOReader sync, which Folio does not have (see
// RoleCheckboxes); the option is kept as it is on save.
const FLAGS: Partial<Record<Tab, Flag[]>> = {
  analysis: ['analyzeDimensions', 'hashFiles', 'hashPages'],
  files: ['convertToCbz', 'repairExtensions'],
  scanner: ['scanOnStartup', 'scanForceModifiedTime', 'emptyTrashAfterScan', 'scanCbx', 'scanPdf', 'scanEpub'],
  import: [
    'importComicInfoBook',
    'importComicInfoSeries',
    'importComicInfoCollection',
    'importComicInfoReadList',
    'importComicInfoSeriesAppendVolume',
    'importEpubBook',
    'importEpubSeries',
    'importMylarSeries',
    'importLocalArtwork',
    'importBarcodeIsbn',
  ],
};

const tabLabel = (tab: Tab) => (tab === 'series_cover' ? t('libraries.edit_dialog.series_cover') : t(`libraries.option_groups.${tab}`));

/**
 * A field whose option is a cleaned form of the typed text (trimmed, split in lines). Showing the
 * cleaned form back while typing ate every new line and trailing space: "Old Stuff" typed after
 * "@Recycle" became "@RecycleOldStuff". The typed text is kept as typed while it still cleans to
 * the option; an option changed from outside (the dialog reopened) shows in its own form.
 */
function TypedText<T>(props: {
  value: T;
  format: (value: T) => string;
  parse: (text: string) => T;
  onChange: (value: T) => void;
  children: (text: string, setText: (text: string) => void) => ReactNode;
}) {
  const { value, format, parse } = props;
  const [typed, setTyped] = useState(() => format(value));
  const text = format(parse(typed)) === format(value) ? typed : format(value);
  return props.children(text, (next) => {
    setTyped(next);
    props.onChange(parse(next));
  });
}

/**
 * The library dialogs' body (SPEC §3): the General tab (name, folder: given by the dialog) and one
 * tab per option group. Tabs follow the WAI-ARIA tab pattern: arrows move between them.
 */
export function LibraryOptionsTabs(props: {
  general: ReactNode;
  options: LibraryOptions;
  onChange: (patch: Partial<LibraryOptions>) => void;
  /** The tab shown, when the dialog must choose it (to take the user to a missing field on General). */
  tab?: LibraryOptionsTab;
  onTabChange?: (tab: LibraryOptionsTab) => void;
}) {
  const { options, onChange } = props;
  const [ownTab, setOwnTab] = useState<Tab>('general');
  const tab = props.tab ?? ownTab;
  const setTab = (next: Tab) => (props.onTabChange ? props.onTabChange(next) : setOwnTab(next));
  const baseId = useId();
  const tabId = (name: Tab) => `${baseId}-tab-${name}`;
  const panelId = `${baseId}-panel`;

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    // The arrow toward the next tab is the one pointing the way the tabs run: left in a
    // right-to-left language. Home and End go to the first and last, as the pattern has it.
    const forward = getComputedStyle(event.currentTarget).direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = forward === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
    const at = TABS.indexOf(tab);
    const index =
      event.key === forward ? (at + 1) % TABS.length
      : event.key === backward ? (at - 1 + TABS.length) % TABS.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? TABS.length - 1
      : -1;
    if (index < 0) return;
    event.preventDefault();
    const next = TABS[index]!;
    setTab(next);
    document.getElementById(tabId(next))?.focus();
  }

  const flags = FLAGS[tab];
  return (
    <>
      <div role="tablist" aria-label={t('libraries.option_groups.label')} className={styles.tabs} onKeyDown={onKeyDown}>
        {TABS.map((name) => (
          <button
            key={name}
            id={tabId(name)}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={panelId}
            tabIndex={tab === name ? 0 : -1}
            className={styles.tab}
            onClick={() => setTab(name)}
          >
            {tabLabel(name)}
          </button>
        ))}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(tab)} className={styles.scrollBody}>
        {tab === 'general' && props.general}
        {flags && (
          <CheckboxList
            legend={tabLabel(tab)}
            options={flags.map<CheckboxOption>((flag) => ({ key: flag, label: t(`libraries.options.${flag}`), checked: options[flag] }))}
            onToggle={(flag, checked) => onChange({ [flag]: checked } as Partial<LibraryOptions>)}
          />
        )}
        {tab === 'scanner' && (
          <>
            <SelectField
              label={t('libraries.edit_dialog.scan_interval')}
              value={options.scanInterval}
              options={SCAN_INTERVALS.map((value) => ({ value, label: t(`libraries.scan_interval.${value}`) }))}
              onChange={(value) => onChange({ scanInterval: value as LibraryOptions['scanInterval'] })}
            />
            <TypedText
              value={options.scanDirectoryExclusions}
              format={(names) => names.join('\n')}
              parse={(text) => text.split('\n').map((line) => line.trim()).filter(Boolean)}
              onChange={(names) => onChange({ scanDirectoryExclusions: names })}
            >
              {(text, setText) => (
                <TextArea label={t('libraries.options.scanDirectoryExclusions')} value={text} rows={3} onChange={(e) => setText(e.target.value)} />
              )}
            </TypedText>
            <TypedText
              value={options.oneshotsDirectory}
              format={(folder) => folder ?? ''}
              parse={(text) => text.trim() || null}
              onChange={(folder) => onChange({ oneshotsDirectory: folder })}
            >
              {(text, setText) => (
                <TextField label={t('libraries.options.oneshotsDirectory')} value={text} onChange={(e) => setText(e.target.value)} />
              )}
            </TypedText>
          </>
        )}
        {tab === 'series_cover' && (
          <SelectField
            label={t('libraries.edit_dialog.series_cover')}
            value={options.seriesCover}
            options={SERIES_COVERS.map((value) => ({ value, label: t(`libraries.series_cover.${value}`) }))}
            onChange={(value) => onChange({ seriesCover: value as LibraryOptions['seriesCover'] })}
          />
        )}
      </div>
    </>
  );
}
