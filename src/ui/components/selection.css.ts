import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css.ts';

/** Stays in view while the user scrolls through the grid they are selecting from. */
export const toolbar = style({
  position: 'sticky',
  top: 64,
  zIndex: 15,
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: 4,
  padding: '6px 10px',
  margin: '0 0 12px',
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.primary}`,
  borderRadius: 8,
  boxShadow: '0 4px 12px rgba(0,0,0,0.15)',
});

export const count = style({ fontWeight: 600, marginInlineEnd: 8 });

export const danger = style({ color: vars.color.error });

export const moveRow = style({ display: 'flex', justifyContent: 'center', gap: 8, marginTop: 4 });

/** The outcome of the last action, spaced as the paragraph it replaced. */
export const notice = style({ marginBlock: '1em' });
