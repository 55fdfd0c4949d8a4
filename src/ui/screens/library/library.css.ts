import { style } from '@vanilla-extract/css';
import { TOUCH } from '../../theme/media.ts';
import { vars } from '../../theme/theme.css.ts';

export const tabs = style({
  display: 'flex',
  gap: 4,
  borderBottom: `1px solid ${vars.color.border}`,
  margin: '0 0 16px',
  overflowX: 'auto',
  listStyle: 'none',
  padding: 0,
});

export const tab = style({
  display: 'inline-block',
  padding: '10px 14px',
  color: vars.color.textMuted,
  textDecoration: 'none',
  fontWeight: 600,
  borderBottom: '3px solid transparent',
  whiteSpace: 'nowrap',
  selectors: {
    '&[aria-current="page"]': { color: vars.color.primary, borderBottomColor: vars.color.primary },
    '&:hover': { color: vars.color.text },
  },
});

export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'flex-end',
  gap: 12,
  margin: '0 0 12px',
});

export const filterPanel = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: 24,
  padding: 12,
  margin: '0 0 12px',
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  background: vars.color.surface,
});

export const fieldset = style({ border: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 4 });

export const legend = style({ fontWeight: 600, fontSize: 14, marginBottom: 4, padding: 0 });

export const letterBar = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: 2,
  margin: '0 0 14px',
  padding: 0,
  listStyle: 'none',
});

export const letter = style({
  minWidth: 30,
  minHeight: 30,
  padding: '2px 6px',
  border: '1px solid transparent',
  borderRadius: 4,
  background: 'transparent',
  color: vars.color.text,
  cursor: 'pointer',
  fontSize: 13,
  selectors: {
    '&[aria-pressed="true"]': { background: vars.color.primary, color: vars.color.onPrimary },
    '&:disabled': { color: vars.color.textMuted, opacity: 0.5, cursor: 'default' },
    '&:hover:not(:disabled)': { borderColor: vars.color.border },
  },
  '@media': { [TOUCH]: { minWidth: 40, minHeight: 40 } },
});

/** Long value lists (genres, tags…) scroll inside the filter panel instead of stretching it. */
export const scrollGroup = style({ maxHeight: 220, overflowY: 'auto', paddingInlineEnd: 8 });
