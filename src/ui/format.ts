import { currentLocale, t } from './i18n.ts';

/** Numbers and dates go through Intl in the active locale. */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat(currentLocale()).format(value);
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium' }).format(date);
}

/**
 * The year of a date ("2024-03-05" → "2024", "2024年", "۲۰۲۴"), read in UTC: the date carries no
 * time, and a local reading would make 1 January the previous year west of Greenwich.
 */
export function formatYear(isoDate: string): string {
  const date = new Date(isoDate.length === 4 ? `${isoDate}-01-01` : isoDate.slice(0, 10));
  if (Number.isNaN(date.getTime())) return isoDate.slice(0, 4);
  return new Intl.DateTimeFormat(currentLocale(), { year: 'numeric', timeZone: 'UTC' }).format(date);
}

const languageNames = new Map<string, Intl.DisplayNames>();

/**
 * A language tag as the language's name in the interface's language ("fr" → "French", "français",
 * "フランス語"); a tag Intl cannot read is shown as stored. Looked up per call, not kept from the
 * first render, so a change of interface language renames them too.
 */
export function formatLanguage(tag: string): string {
  const locale = currentLocale();
  let names = languageNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'language', fallback: 'code' });
    languageNames.set(locale, names);
  }
  try {
    return names.of(tag) ?? tag;
  } catch (error) {
    // Not a well-formed tag (a library's metadata may hold anything): shown as stored.
    if (!(error instanceof RangeError)) throw error;
    return tag;
  }
}

/** A percentage given in points (5 → "5 %", "%5", "۵٪"): sign, spacing and digits of the locale. */
export function formatPercent(points: number): string {
  return new Intl.NumberFormat(currentLocale(), { style: 'percent', maximumFractionDigits: 1 }).format(points / 100);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * A file size in the locale's digits and unit names ("12.3 MB", "12,3 Mo", "١٢٫٣ م.ب."). Decimal
 * steps of 1000, because those are the units Intl names; the server's own `size` text is English
 * and binary, so the client never shows it.
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(currentLocale(), {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** A size given in megabytes, as a limit is named ("5 MB", "5 Mo", "5 МБ"): the locale's digits and unit name. */
export function formatMegabytes(megabytes: number): string {
  return new Intl.NumberFormat(currentLocale(), { style: 'unit', unit: 'megabyte', unitDisplay: 'short', maximumFractionDigits: 1 }).format(megabytes);
}

/** A duration in seconds, in the locale's words: "1.5 sec", "2 min 5 sec", "1 h 2 min". */
export function formatDuration(seconds: number): string {
  const locale = currentLocale();
  const unit = (value: number, name: 'second' | 'minute' | 'hour', fraction = 0) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: fraction }).format(value);
  if (seconds < 60) return unit(seconds, 'second', 1);
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  const parts = hours > 0 ? [unit(hours, 'hour'), unit(minutes, 'minute')] : [unit(minutes, 'minute'), unit(rest, 'second')];
  return new Intl.ListFormat(locale, { type: 'unit', style: 'narrow' }).format(parts);
}

/** Date and time; accepts zoned ISO strings and Komga's zone-less local ones. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * Names shown as a list (authors, tags, roles, libraries) with the language's own separator: "a, b",
 * "a، b" in Arabic and Persian, "a、b" in Japanese and Chinese. Not Intl.ListFormat: its lists add
 * "and" before the last item in some languages, and its unit lists join Chinese words with nothing.
 */
export function formatList(items: readonly string[]): string {
  return items.join(t('common.list_separator'));
}
