import {
  EPUB_ALIGNMENTS,
  EPUB_COLUMNS,
  EPUB_FONT_SIZES,
  EPUB_FONTS,
  EPUB_LAYOUTS,
  EPUB_LINE_HEIGHTS,
  EPUB_MARGINS,
  EPUB_THEMES,
  type EpubSettings,
} from '../../../engine/epubSettings.ts';
import { formatNumber, formatPercent } from '../../format.ts';
import { t } from '../../i18n.ts';
import { ReaderDialog } from '../ReaderDialog.tsx';
import * as readerStyles from '../reader.css.ts';
import * as styles from './epubReader.css.ts';
import { Group, Select, Toggle } from '../SettingsDialog.tsx';

interface EpubSettingsDialogProps {
  settings: EpubSettings;
  /** This book's font size. */
  fontSize: number;
  onSettings: (settings: EpubSettings) => void;
  onFontSize: (size: number) => void;
  onClose: () => void;
  /** Why the server has not saved the latest settings (they are kept in this browser), or null. */
  unsaved: readonly string[] | null;
  /** Counts the failures: the alert is put in again for each, so a retry that fails again is announced again. */
  unsavedKey: number;
  onRetry: () => void;
}

/** Text settings of the EPUB reader; every change shows at once in the book behind the dialog. */
export function EpubSettingsDialog({ settings, fontSize, onSettings, onFontSize, onClose, unsaved, unsavedKey, onRetry }: EpubSettingsDialogProps) {
  const set = <K extends keyof EpubSettings>(key: K, value: EpubSettings[K]) => onSettings({ ...settings, [key]: value });
  const own = settings.publisherStyles;
  return (
    <ReaderDialog title={t('reader.settings')} onClose={onClose}>
      {/* Inside the dialog: while it is open, the rest of the reader (its notices) is out of reach. */}
      {unsaved && (
        <div key={unsavedKey} role="alert" className={styles.unsavedNote} data-testid="epub-settings-unsaved">
          <div>
            {unsaved.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
          <button type="button" className={readerStyles.textButton} onClick={onRetry}>
            {t('reader.retry')}
          </button>
        </div>
      )}
      <Group legend={t('reader.epub.settings_groups.display')}>
        <Select
          label={t('reader.epub.setting.layout')}
          value={settings.layout}
          options={EPUB_LAYOUTS}
          optionLabel={(value) => t(`reader.epub.layouts.${value}`)}
          onChange={(value) => set('layout', value)}
        />
        {settings.layout === 'paginated' && (
          <Select
            label={t('reader.epub.setting.columns')}
            value={settings.columns}
            options={EPUB_COLUMNS}
            optionLabel={(value) => t(`reader.epub.columns.${value}`)}
            onChange={(value) => set('columns', value)}
          />
        )}
        <Select
          label={t('reader.epub.setting.theme')}
          value={settings.theme}
          options={EPUB_THEMES}
          optionLabel={(value) => t(`reader.epub.themes.${value}`)}
          onChange={(value) => set('theme', value)}
        />
        <Select
          label={t('reader.epub.setting.margins')}
          value={settings.margins}
          options={EPUB_MARGINS}
          optionLabel={(value) => t(`reader.epub.margins.${value}`)}
          onChange={(value) => set('margins', value)}
        />
      </Group>
      <Group legend={t('reader.epub.settings_groups.text')}>
        <Select
          label={t('reader.epub.setting.font_size')}
          value={fontSize}
          options={EPUB_FONT_SIZES}
          optionLabel={(value) => formatPercent(Math.round(value * 100))}
          onChange={onFontSize}
        />
        <Toggle label={t('reader.epub.setting.publisher_styles')} checked={own} onChange={(value) => set('publisherStyles', value)} />
        {!own && (
          <>
            <Select
              label={t('reader.epub.setting.font')}
              value={settings.font}
              options={EPUB_FONTS}
              optionLabel={(value) => t(`reader.epub.fonts.${value}`)}
              onChange={(value) => set('font', value)}
            />
            <Select
              label={t('reader.epub.setting.line_height')}
              value={settings.lineHeight}
              options={EPUB_LINE_HEIGHTS}
              optionLabel={(value) => (value === 0 ? t('reader.epub.original') : formatNumber(value))}
              onChange={(value) => set('lineHeight', value)}
            />
            <Select
              label={t('reader.epub.setting.alignment')}
              value={settings.alignment}
              options={EPUB_ALIGNMENTS}
              optionLabel={(value) => t(`reader.epub.alignments.${value}`)}
              onChange={(value) => set('alignment', value)}
            />
          </>
        )}
      </Group>
    </ReaderDialog>
  );
}
