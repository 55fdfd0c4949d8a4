import { globalStyle, style } from '@vanilla-extract/css';
import { TOUCH } from '../theme/media.ts';
import { vars } from '../theme/theme.css.ts';

export const pageHeader = style({
  display: 'flex',
  alignItems: 'center',
  flexWrap: 'wrap',
  gap: 12,
  margin: '4px 0 16px',
});

// A title may hold a word longer than a phone is wide (a run of CJK, a made-up word, a file name):
// it breaks rather than push the page sideways.
export const pageTitle = style({ margin: 0, fontSize: 26, marginInlineEnd: 'auto', overflowWrap: 'anywhere' });

export const sectionTitle = style({ fontSize: 19, margin: '24px 0 12px' });

export const centeredPage = style({
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  padding: 16,
});

export const panel = style({
  width: 'min(420px, 100%)',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 12,
  padding: 28,
  display: 'flex',
  flexDirection: 'column',
  gap: 14,
});

export const productTitle = style({
  margin: 0,
  color: vars.color.primary,
  fontSize: 30,
  textAlign: 'center',
});

export const details = style({
  display: 'grid',
  gridTemplateColumns: 'max-content minmax(0, 1fr)',
  gap: '6px 16px',
  margin: '16px 0',
});

export const detailTerm = style({ color: vars.color.textMuted, fontWeight: 600 });
export const detailValue = style({ margin: 0, overflowWrap: 'anywhere' });

export const bookLayout = style({
  display: 'grid',
  // minmax(0, …): a plain 1fr column is never narrower than its widest unbreakable line, which on a
  // phone pushed the whole screen sideways.
  gridTemplateColumns: 'minmax(140px, 240px) minmax(0, 1fr)',
  gap: 24,
  alignItems: 'start',
  '@media': { 'screen and (max-width: 600px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});

export const actionsRow = style({ display: 'flex', flexWrap: 'wrap', gap: 8, margin: '12px 0' });

export const subtitleLink = style({ fontSize: 16 });

export const summary = style({ whiteSpace: 'pre-line', maxWidth: '70ch' });

export const linkList = style({ display: 'flex', flexWrap: 'wrap', gap: 12, listStyle: 'none', padding: 0 });

export const narrowForm = style({ display: 'flex', flexDirection: 'column', gap: 12, maxWidth: 420 });

export const inlineList = style({
  display: 'inline-flex',
  flexWrap: 'wrap',
  gap: '4px 12px',
  listStyle: 'none',
  margin: 0,
  padding: 0,
});

// The links of such a list ("In collections: A, B") are a line of text, 19 px tall with 4 px
// between rows: on a touch screen each takes the 40 px every other control there has.
globalStyle(`${inlineList} > li > a`, {
  '@media': { [TOUCH]: { display: 'inline-flex', alignItems: 'center', minBlockSize: 40 } },
});
