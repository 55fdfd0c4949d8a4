import { globalStyle, style } from '@vanilla-extract/css';

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: 14 });
export const cell = style({ textAlign: 'start', padding: '6px 8px', borderBottom: '1px solid rgba(127,127,127,0.3)', verticalAlign: 'top' });
export const headerCell = style([cell, { fontWeight: 600 }]);
export const rowActions = style({ display: 'flex', flexWrap: 'wrap', gap: 4 });
// Each action keeps its label on one line: on a phone the table around it scrolls sideways
// (tableScroll) rather than squeezing the column until words break letter by letter.
globalStyle(`${rowActions} > button`, { whiteSpace: 'nowrap' });
export const tableScroll = style({ overflowX: 'auto' });
export const failure = style({ color: '#d32f2f', fontWeight: 600 });
export const keyBox = style({ fontFamily: 'monospace', overflowWrap: 'anywhere', padding: 8, border: '1px dashed currentColor' });
export const narrowForm = style({ display: 'flex', flexDirection: 'column', gap: 12, maxWidth: 420 });
export const hint = style({ fontSize: 13, margin: 0, opacity: 0.8 });
