/*
 * The EPUB reader's settings: what the user picks (validated here), and the rendering preferences
 * they stand for (Readium CSS user settings; plain values, the UI hands them to the navigator).
 */

export const EPUB_LAYOUTS = ['paginated', 'scrolled'] as const;
export const EPUB_FONTS = ['original', 'serif', 'sans-serif', 'monospace'] as const;
export const EPUB_LINE_HEIGHTS = [0, 1.2, 1.4, 1.6, 1.8, 2] as const;
export const EPUB_MARGINS = ['narrow', 'medium', 'wide'] as const;
export const EPUB_ALIGNMENTS = ['original', 'start', 'justify'] as const;
export const EPUB_THEMES = ['auto', 'light', 'sepia', 'dark'] as const;
/** Columns side by side in the paginated layout: 'auto' as many as the width holds at a readable line length. */
export const EPUB_COLUMNS = ['auto', 'one', 'two'] as const;
/** Font size as a factor of the book's own size. */
export const EPUB_FONT_SIZES = [0.75, 0.85, 1, 1.15, 1.3, 1.5, 1.75, 2, 2.5, 3] as const;

export type EpubLayout = (typeof EPUB_LAYOUTS)[number];
export type EpubFont = (typeof EPUB_FONTS)[number];
export type EpubMargin = (typeof EPUB_MARGINS)[number];
export type EpubAlignment = (typeof EPUB_ALIGNMENTS)[number];
export type EpubTheme = (typeof EPUB_THEMES)[number];
export type EpubColumns = (typeof EPUB_COLUMNS)[number];

export interface EpubSettings {
  layout: EpubLayout;
  font: EpubFont;
  /** 0: the book's own line height. */
  lineHeight: number;
  margins: EpubMargin;
  alignment: EpubAlignment;
  /** Keep the publisher's typography; font, line height and alignment choices apply when off. */
  publisherStyles: boolean;
  /** 'auto' follows the application's light or dark theme. */
  theme: EpubTheme;
  /** Paginated layout on a wide screen: one column, two, or what the width holds. */
  columns: EpubColumns;
  /** The size for books that have none of their own (each book remembers its own). */
  fontSize: number;
}

export const DEFAULT_EPUB_SETTINGS: EpubSettings = {
  layout: 'paginated',
  font: 'original',
  lineHeight: 0,
  margins: 'medium',
  alignment: 'original',
  publisherStyles: true,
  theme: 'auto',
  columns: 'auto',
  fontSize: 1,
};

function oneOf<T>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** Whatever was stored (older versions, hand edits, garbage): each invalid value falls back to its default. */
export function sanitizeEpubSettings(raw: unknown): EpubSettings {
  const saved = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_EPUB_SETTINGS;
  return {
    layout: oneOf(EPUB_LAYOUTS, saved.layout, d.layout),
    font: oneOf(EPUB_FONTS, saved.font, d.font),
    lineHeight: oneOf<number>(EPUB_LINE_HEIGHTS, saved.lineHeight, d.lineHeight),
    margins: oneOf(EPUB_MARGINS, saved.margins, d.margins),
    alignment: oneOf(EPUB_ALIGNMENTS, saved.alignment, d.alignment),
    publisherStyles: typeof saved.publisherStyles === 'boolean' ? saved.publisherStyles : d.publisherStyles,
    theme: oneOf(EPUB_THEMES, saved.theme, d.theme),
    columns: oneOf(EPUB_COLUMNS, saved.columns, d.columns),
    fontSize: sanitizeFontSize(saved.fontSize, d.fontSize),
  };
}

export function sanitizeFontSize(value: unknown, fallback = DEFAULT_EPUB_SETTINGS.fontSize): number {
  return oneOf<number>(EPUB_FONT_SIZES, value, fallback);
}

/** The next size up or down the scale (the A−/A+ buttons); stays at the ends. */
export function stepFontSize(current: number, step: 1 | -1): number {
  const index = EPUB_FONT_SIZES.indexOf(current as (typeof EPUB_FONT_SIZES)[number]);
  const from = index < 0 ? EPUB_FONT_SIZES.indexOf(1) : index;
  return EPUB_FONT_SIZES[Math.min(EPUB_FONT_SIZES.length - 1, Math.max(0, from + step))]!;
}

export const EPUB_THEME_COLOURS: Record<Exclude<EpubTheme, 'auto'>, { background: string; text: string; link: string }> = {
  light: { background: '#ffffff', text: '#121212', link: '#0b57d0' },
  sepia: { background: '#f4ecd8', text: '#3b2f1e', link: '#7a4b12' },
  dark: { background: '#121212', text: '#e6e6e6', link: '#8ab4f8' },
};

/** The theme shown: 'auto' takes the application's. */
export function effectiveTheme(theme: EpubTheme, appIsDark: boolean): Exclude<EpubTheme, 'auto'> {
  return theme === 'auto' ? (appIsDark ? 'dark' : 'light') : theme;
}

const FONT_STACKS: Record<Exclude<EpubFont, 'original'>, string> = {
  serif: 'Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, serif',
  'sans-serif': 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  monospace: 'ui-monospace, "Cascadia Mono", "DejaVu Sans Mono", Menlo, monospace',
};

const GUTTERS: Record<EpubMargin, number> = { narrow: 8, medium: 24, wide: 64 };

/** Readium CSS user settings for these choices (null = the book's own). Names are the navigator's. */
export interface EpubRenderingPreferences {
  scroll: boolean;
  fontSize: number;
  fontFamily: string | null;
  lineHeight: number | null;
  textAlign: 'start' | 'justify' | null;
  pageGutter: number;
  backgroundColor: string;
  textColor: string;
  linkColor: string;
  visitedColor: string;
  /**
   * Columns side by side on a wide screen; null lets the width decide. Two fall back to one where
   * the screen is too narrow for two readable lines (the navigator's minimal line length).
   */
  columnCount: number | null;
}

/**
 * `rightToLeft`: one column per screen. Two columns side by side would be read left column first
 * (the pagination lays columns out left to right), the wrong order for a right-to-left book.
 */
export function renderingPreferences(settings: EpubSettings, fontSize: number, appIsDark: boolean, rightToLeft = false): EpubRenderingPreferences {
  const colours = EPUB_THEME_COLOURS[effectiveTheme(settings.theme, appIsDark)];
  const own = settings.publisherStyles;
  return {
    scroll: settings.layout === 'scrolled',
    fontSize,
    fontFamily: own || settings.font === 'original' ? null : FONT_STACKS[settings.font],
    lineHeight: own || settings.lineHeight === 0 ? null : settings.lineHeight,
    textAlign: own || settings.alignment === 'original' ? null : settings.alignment,
    pageGutter: GUTTERS[settings.margins],
    backgroundColor: colours.background,
    textColor: colours.text,
    linkColor: colours.link,
    visitedColor: colours.link,
    columnCount: rightToLeft || settings.columns === 'one' ? 1 : settings.columns === 'two' ? 2 : null,
  };
}
