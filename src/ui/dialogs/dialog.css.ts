import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css.ts';

export const dialog = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: 10,
  padding: 0,
  width: 'min(480px, calc(100vw - 32px))',
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  selectors: {
    '&::backdrop': { background: 'rgba(0, 0, 0, 0.45)' },
  },
});

export const form = style({ display: 'flex', flexDirection: 'column', gap: 14, padding: 20 });

export const heading = style({ margin: 0, fontSize: 20 });

export const actions = style({ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 6 });

export const wide = style({ width: 'min(720px, calc(100vw - 32px))' });

export const columns = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))',
  gap: 16,
});

export const scrollBody = style({ maxHeight: '60vh', overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: 14 });

export const pickList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 2 });

export const fieldset = style({ border: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 });

export const tabs = style({ display: 'flex', flexWrap: 'wrap', gap: 4, borderBottom: `1px solid ${vars.color.border}` });

export const tab = style({
  padding: '6px 10px',
  border: 'none',
  borderBottom: '2px solid transparent',
  background: 'transparent',
  color: 'inherit',
  font: 'inherit',
  cursor: 'pointer',
  selectors: { '&[aria-selected="true"]': { borderBottomColor: vars.color.primary, fontWeight: 600 } },
});
