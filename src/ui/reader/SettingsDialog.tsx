import { useId, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import type { ReadingDirection } from '../../api/types.ts';
import {
  BACKGROUNDS,
  PAGE_MARGINS,
  SIDE_PADDINGS,
  WEBTOON_SCALES,
  type ReaderSettings,
} from '../../engine/readerSettings.ts';
import { PAGE_LAYOUTS, SCALE_TYPES } from '../../engine/types.ts';
import { formatPercent } from '../format.ts';
import { t } from '../i18n.ts';
import { ReaderDialog } from './ReaderDialog.tsx';
import * as styles from './reader.css.ts';
import { readerPreferences } from './settingsStore.ts';

const DIRECTIONS: ReadingDirection[] = ['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL', 'WEBTOON'];

export function Select<T extends string | number>({
  label,
  value,
  options,
  optionLabel,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  optionLabel: (value: T) => string;
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className={styles.select}
        value={String(value)}
        onChange={(event) => {
          const picked = options.find((option) => String(option) === event.target.value);
          if (picked !== undefined) onChange(picked);
        }}
      >
        {options.map((option) => (
          <option key={String(option)} value={String(option)}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </>
  );
}

export function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (value: boolean) => void }) {
  const id = useId();
  return (
    <div className={styles.toggleRow}>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
    </div>
  );
}

export function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className={styles.fieldset}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

interface SettingsDialogProps {
  /** The direction this book is read in (may come from series metadata rather than the preference). */
  direction: ReadingDirection;
  onDirection: (direction: ReadingDirection) => void;
  onClose: () => void;
}

/** General, paged and webtoon settings (REFERENCE §5.1), saved as they change. */
export function SettingsDialog({ direction, onDirection, onClose }: SettingsDialogProps) {
  const settings = useSnapshot(readerPreferences);
  const set = <K extends keyof ReaderSettings>(key: K, value: ReaderSettings[K]) => {
    readerPreferences[key] = value as (typeof readerPreferences)[K];
  };
  return (
    <ReaderDialog title={t('reader.settings')} onClose={onClose}>
      <Group legend={t('reader.settings_groups.general')}>
        <Select
          label={t('reader.setting.reading_direction')}
          value={direction}
          options={DIRECTIONS}
          optionLabel={(value) => t(`reader.directions.${value}`)}
          onChange={onDirection}
        />
        <Select
          label={t('reader.setting.background')}
          value={settings.background}
          options={BACKGROUNDS}
          optionLabel={(value) => t(`reader.backgrounds.${value}`)}
          onChange={(value) => set('background', value)}
        />
        <Toggle label={t('reader.setting.animations')} checked={settings.animations} onChange={(value) => set('animations', value)} />
        <Toggle label={t('reader.setting.swipe')} checked={settings.swipe} onChange={(value) => set('swipe', value)} />
        <Toggle
          label={t('reader.setting.always_fullscreen')}
          checked={settings.alwaysFullscreen}
          onChange={(value) => set('alwaysFullscreen', value)}
        />
        <Toggle label={t('reader.setting.debug')} checked={settings.debugOverlay} onChange={(value) => set('debugOverlay', value)} />
      </Group>
      <Group legend={t('reader.settings_groups.paged')}>
        <Select
          label={t('reader.setting.scale')}
          value={settings.pagedScale}
          options={SCALE_TYPES}
          optionLabel={(value) => t(`reader.scales.${value}`)}
          onChange={(value) => set('pagedScale', value)}
        />
        <Select
          label={t('reader.setting.page_layout')}
          value={settings.pageLayout}
          options={PAGE_LAYOUTS}
          optionLabel={(value) => t(`reader.layouts.${value}`)}
          onChange={(value) => set('pageLayout', value)}
        />
        <Toggle label={t('reader.setting.offset')} checked={settings.pageOffset} onChange={(value) => set('pageOffset', value)} />
      </Group>
      <Group legend={t('reader.settings_groups.webtoon')}>
        <Select
          label={t('reader.setting.scale')}
          value={settings.webtoonScale}
          options={WEBTOON_SCALES}
          optionLabel={(value) => t(`reader.webtoon_scales.${value}`)}
          onChange={(value) => set('webtoonScale', value)}
        />
        <Select
          label={t('reader.setting.side_padding')}
          value={settings.sidePadding}
          options={SIDE_PADDINGS}
          optionLabel={(value) => (value === 0 ? t('reader.none') : formatPercent(value))}
          onChange={(value) => set('sidePadding', value)}
        />
        <Select
          label={t('reader.setting.page_margin')}
          value={settings.pageMargin}
          options={PAGE_MARGINS}
          optionLabel={(value) => (value === 0 ? t('reader.none') : t('common.pixels', { n: value }))}
          onChange={(value) => set('pageMargin', value)}
        />
      </Group>
    </ReaderDialog>
  );
}
