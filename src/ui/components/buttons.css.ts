import { globalStyle, style } from '@vanilla-extract/css';
import { TOUCH } from '../theme/media.ts';
import { vars } from '../theme/theme.css.ts';

const base = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 6,
  minHeight: 36,
  padding: '6px 14px',
  borderRadius: 6,
  border: '1px solid transparent',
  fontWeight: 600,
  fontSize: 14,
  cursor: 'pointer',
  textDecoration: 'none',
  // A label longer than its room (a German compound, a Finnish case form) wraps, hyphenated where the
  // browser has the language's dictionary, else broken, instead of spilling out of the button. `anywhere`
  // (not `break-word`) so the label's flex item may shrink below its longest word.
  maxWidth: '100%',
  textAlign: 'center',
  overflowWrap: 'anywhere',
  hyphens: 'auto',
  selectors: {
    '&:disabled': { opacity: 0.55, cursor: 'default' },
  },
  // A fingertip needs 40 px (a mouse pointer does with less).
  '@media': { [TOUCH]: { minHeight: 40 } },
});

// In a table cell `anywhere` backfires: an automatic table layout sizes a column down to its
// content's narrowest width, which `anywhere` makes a single letter, so on a phone "Analyse" became
// "Ana / lyse". There a label breaks only between words (or a word too long for the whole column);
// the table's scroll wrapper takes what does not fit.
globalStyle(`td ${base}, th ${base}`, { overflowWrap: 'break-word' });

export const primary = style([
  base,
  { background: vars.color.primary, color: vars.color.onPrimary },
]);

export const secondary = style([
  base,
  { background: 'transparent', color: vars.color.primary, borderColor: vars.color.border },
]);

export const quiet = style([
  base,
  { background: 'transparent', color: vars.color.text, selectors: { '&:hover': { background: vars.color.placeholder } } },
]);

export const icon = style([
  base,
  { padding: 6, minWidth: 36, background: 'transparent', color: vars.color.text, '@media': { [TOUCH]: { minWidth: 40 } } },
]);

export const danger = style([base, { background: vars.color.error, color: vars.color.surface }]);
