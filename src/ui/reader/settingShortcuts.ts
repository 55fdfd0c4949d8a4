import {
  cycle,
  PAGE_MARGINS,
  SIDE_PADDINGS,
  WEBTOON_SCALES,
} from '../../engine/readerSettings.ts';
import type { ReaderAction } from '../../engine/readerInput.ts';
import { PAGE_LAYOUTS, SCALE_TYPES } from '../../engine/types.ts';
import { formatPercent } from '../format.ts';
import { t } from '../i18n.ts';
import { readerPreferences } from './settingsStore.ts';

/**
 * The `c`, `d`, `p`, `n` shortcuts: step a setting to its next value (saved) and return the notice
 * that says what it is now; null for any other action.
 */
export function applySettingShortcut(action: ReaderAction, webtoon: boolean): string | null {
  const prefs = readerPreferences;
  switch (action) {
    case 'cycle-scale':
      if (webtoon) {
        prefs.webtoonScale = cycle(WEBTOON_SCALES, prefs.webtoonScale);
        return t(`reader.webtoon_scales.${prefs.webtoonScale}`);
      }
      prefs.pagedScale = cycle(SCALE_TYPES, prefs.pagedScale);
      return t(`reader.scales.${prefs.pagedScale}`);
    case 'cycle-layout':
      prefs.pageLayout = cycle(PAGE_LAYOUTS, prefs.pageLayout);
      return t(`reader.layouts.${prefs.pageLayout}`);
    case 'cycle-padding':
      prefs.sidePadding = cycle<number>(SIDE_PADDINGS, prefs.sidePadding);
      // The unit written as the language writes it ("10 %", "%10", "١٠٪"; "10 пикс.", "10 像素"), not by each message.
      return t('reader.notice_padding', { value: formatPercent(prefs.sidePadding) });
    case 'cycle-margin':
      prefs.pageMargin = cycle<number>(PAGE_MARGINS, prefs.pageMargin);
      return t('reader.notice_margin', { value: t('common.pixels', { n: prefs.pageMargin }) });
    default:
      return null;
  }
}
