import { globalStyle } from '@vanilla-extract/css';

/**
 * Type for every script Folio ships. The document's `lang` (set with the locale) picks the rules:
 *
 *  - Fonts: the Latin system fonts come first (they cover Latin, Greek and Cyrillic everywhere), then
 *    the usual system fonts of the locale's script on macOS/iOS, Windows, Android and Linux (Noto).
 *    A Latin font has no CJK glyphs, so each character falls through to the first font that has it.
 *    Han characters are shared by Chinese and Japanese but drawn differently; naming the regional font
 *    first keeps a Japanese page from showing Chinese-style glyphs.
 *  - Line breaking: Japanese and Chinese follow the strict kinsoku rules (no line starting with 。or ー);
 *    Korean breaks between words like European languages rather than between any two syllables; Thai
 *    has no spaces, and the browser's dictionary finds its word breaks from `lang` alone.
 *  - Long words (German compounds, Finnish cases): hyphenated where the browser knows the language,
 *    otherwise broken rather than pushed out of their box.
 */
const LATIN = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial';

const SCRIPT_FONTS: Record<string, string> = {
  ja: '"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic UI", Meiryo, "Noto Sans JP", "Noto Sans CJK JP"',
  ko: '"Apple SD Gothic Neo", "Malgun Gothic", "Noto Sans KR", "Noto Sans CJK KR"',
  'zh-Hans': '"PingFang SC", "Microsoft YaHei UI", "Microsoft YaHei", "Noto Sans SC", "Noto Sans CJK SC"',
  'zh-Hant': '"PingFang TC", "Microsoft JhengHei UI", "Microsoft JhengHei", "Noto Sans TC", "Noto Sans CJK TC"',
  th: 'Thonburi, "Leelawadee UI", Leelawadee, "Noto Sans Thai UI", "Noto Sans Thai"',
  ta: '"Tamil Sangam MN", "Nirmala UI", Latha, "Noto Sans Tamil UI", "Noto Sans Tamil"',
  ar: '"Geeza Pro", "Segoe UI", Tahoma, "Noto Sans Arabic UI", "Noto Sans Arabic"',
  fa: '"Geeza Pro", "Segoe UI", Tahoma, Vazirmatn, "Noto Sans Arabic UI", "Noto Sans Arabic"',
  he: '"Arial Hebrew", "Segoe UI", "Noto Sans Hebrew"',
};

/** The html and body of a document in `lang` (body carries the base font in theme.css.ts). */
const root = (lang: string) => `html:lang(${lang}), html:lang(${lang}) body`;

for (const [lang, fonts] of Object.entries(SCRIPT_FONTS)) {
  globalStyle(root(lang), { fontFamily: `${LATIN}, ${fonts}, sans-serif` });
}

// Scripts with tall ascenders/descenders or dense glyphs read better with more leading.
globalStyle([root('ja'), root('ko'), root('zh'), root('th'), root('ta')].join(', '), { lineHeight: 1.6 });

globalStyle([root('ja'), root('zh')].join(', '), { lineBreak: 'strict' });
globalStyle(root('ko'), { wordBreak: 'keep-all' });

globalStyle('html, body', { overflowWrap: 'break-word', hyphens: 'auto' });
