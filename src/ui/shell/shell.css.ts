import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css.ts';
import { visuallyHiddenRules } from '../theme/visuallyHidden.ts';
import { NARROW } from './breakpoints.ts';

const DRAWER_WIDTH = 240;
const BAR_HEIGHT = 56;

export const skipLink = style({
  position: 'absolute',
  insetInlineStart: -9999,
  top: 8,
  zIndex: 100,
  padding: '8px 12px',
  background: vars.color.surface,
  selectors: { '&:focus': { insetInlineStart: 8 } },
});

export const appBar = style({
  position: 'sticky',
  top: 0,
  zIndex: 20,
  height: BAR_HEIGHT,
  display: 'flex',
  alignItems: 'center',
  gap: 8,
  padding: '0 12px',
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const productName = style({
  fontWeight: 700,
  fontSize: 20,
  color: vars.color.primary,
  textDecoration: 'none',
  marginInlineEnd: 'auto',
});

export const menuButton = style({
  display: 'none',
  '@media': { [NARROW]: { display: 'inline-flex' } },
});

export const body = style({ display: 'flex', minHeight: `calc(100vh - ${BAR_HEIGHT}px)` });

export const drawer = style({
  width: DRAWER_WIDTH,
  flexShrink: 0,
  borderInlineEnd: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  padding: '12px 8px',
  overflowY: 'auto',
  position: 'sticky',
  top: BAR_HEIGHT,
  height: `calc(100vh - ${BAR_HEIGHT}px)`,
});

/**
 * On narrow screens the drawer is a modal <dialog> along the start edge, full height: the browser
 * keeps focus in it and makes the page behind inert while it is open.
 */
export const drawerDialog = style({
  position: 'fixed',
  insetBlock: 0,
  insetInlineStart: 0,
  insetInlineEnd: 'auto',
  margin: 0,
  padding: 0,
  border: 'none',
  width: DRAWER_WIDTH,
  maxWidth: '85vw',
  height: '100%',
  maxHeight: '100%',
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: '0 8px 24px rgba(0,0,0,0.3)',
  selectors: { '&::backdrop': { background: 'rgba(0,0,0,0.4)' } },
});

/** The drawer's content inside its dialog: the dialog's whole height, scrolling on its own. */
export const drawerInDialog = style({
  padding: '8px 8px 12px',
  height: '100%',
  overflowY: 'auto',
  boxSizing: 'border-box',
});

/** The close button's row at the top of the modal drawer. */
export const drawerClose = style({ display: 'flex', justifyContent: 'flex-end' });

export const drawerHeading = style({
  fontSize: 12,
  fontWeight: 700,
  textTransform: 'uppercase',
  letterSpacing: 0.6,
  color: vars.color.textMuted,
  margin: '16px 8px 6px',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
});

export const navList = style({ listStyle: 'none', margin: 0, padding: 0 });

export const navLink = style({
  display: 'flex',
  alignItems: 'center',
  gap: 10,
  padding: '8px 10px',
  borderRadius: 6,
  color: vars.color.text,
  textDecoration: 'none',
  fontSize: 15,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  selectors: {
    '&:hover': { background: vars.color.placeholder },
    '&[aria-current="page"]': { background: vars.color.placeholder, color: vars.color.primary, fontWeight: 600 },
  },
});

export const main = style({
  flex: 1,
  minWidth: 0,
  padding: '16px 24px 48px',
  // Focus lands here programmatically after navigation; no ring around the whole page.
  selectors: { '&:focus': { outline: 'none' } },
});

/** Below this width the app bar shows icons (and the task count) without their labels, which would not fit. */
const PHONE = 'screen and (max-width: 600px)';

/** A label in the app bar that phones only announce (it stays its element's accessible name). */
export const barLabel = style({
  whiteSpace: 'nowrap',
  '@media': {
    [PHONE]: visuallyHiddenRules,
  },
});

export const taskCount = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: 4,
  fontSize: 13,
  padding: '2px 10px',
  borderRadius: 12,
  background: vars.color.secondary,
  color: '#1b1d21',
  whiteSpace: 'nowrap',
});

/** The count alone, shown on phones, where "1,234 pending tasks" pushed the log-out button off the bar. */
export const taskCountShort = style({
  display: 'none',
  '@media': { [PHONE]: { display: 'inline' } },
});
