import { style } from '@vanilla-extract/css';
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
});

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
  { padding: 6, minWidth: 36, background: 'transparent', color: vars.color.text },
]);

export const danger = style([base, { background: vars.color.error, color: vars.color.surface }]);
