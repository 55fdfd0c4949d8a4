import { globalStyle, style } from '@vanilla-extract/css';

/*
 * On a phone (30rem, a 390 px screen and less) a table of five or six columns does not fit: each row
 * becomes a card of its own, every cell a line with its column's name before it (a
 * LabelledCell), and the actions a full-width line of buttons that wraps. Nothing scrolls sideways.
 */
const PHONE = '(max-width: 30rem)';
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: 14, '@media': { [PHONE]: { display: 'block' } } });
export const cell = style({
  textAlign: 'start',
  padding: '6px 8px',
  borderBottom: '1px solid rgba(127,127,127,0.3)',
  verticalAlign: 'top',
  '@media': {
    [PHONE]: { display: 'grid', gridTemplateColumns: 'minmax(6rem, 35%) minmax(0, 1fr)', gap: 8, paddingBlock: 3, paddingInline: 0, border: 'none', overflowWrap: 'anywhere' },
  },
});
export const headerCell = style([cell, { fontWeight: 600 }]);
globalStyle(`${table} > tbody, ${table} > tbody > tr`, { '@media': { [PHONE]: { display: 'block' } } });
globalStyle(`${table} > tbody > tr`, { '@media': { [PHONE]: { padding: '8px 0', borderBottom: '1px solid rgba(127,127,127,0.3)' } } });
// The column names stay for screen readers; each cell shows its own.
globalStyle(`${table} > thead`, {
  '@media': { [PHONE]: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' } },
});
// The actions cell: its buttons take the whole width of the card.
globalStyle(`${cell}:not([data-label])`, { '@media': { [PHONE]: { display: 'block', paddingTop: 6 } } });
export const rowActions = style({ display: 'flex', flexWrap: 'wrap', gap: 4 });
// Each action keeps its label on one line (on a phone the row is a card and the buttons wrap)
// rather than squeezing the column until words break letter by letter.
globalStyle(`${rowActions} > button`, { whiteSpace: 'nowrap' });
export const tableScroll = style({ overflowX: 'auto' });
export const failure = style({ color: '#d32f2f', fontWeight: 600 });
export const narrowForm = style({ display: 'flex', flexDirection: 'column', gap: 12, maxWidth: 420 });
export const hint = style({ fontSize: 13, margin: 0, opacity: 0.8 });
