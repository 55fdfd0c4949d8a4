import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css.ts';

export const wrapper = style({ overflowX: 'auto' });

export const table = style({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 14,
  background: vars.color.surface,
});

globalStyle(`${table} th, ${table} td`, {
  textAlign: 'start',
  padding: '8px 10px',
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: 'top',
});

globalStyle(`${table} th`, { color: vars.color.textMuted, fontWeight: 600 });

/*
 * A table that becomes cards on a phone (30rem, a 390 px screen and less): each row a card, each
 * cell a line with its column's name before it (LabelledCell), a cell without one (a row's
 * name, its actions) a full-width line. Nothing scrolls sideways; the header stays for screen readers.
 */
const PHONE = '(max-width: 30rem)';
export const stacked = style({ '@media': { [PHONE]: { display: 'block' } } });
globalStyle(`${stacked} > tbody, ${stacked} > tbody > tr`, { '@media': { [PHONE]: { display: 'block' } } });
globalStyle(`${stacked} > tbody > tr`, { '@media': { [PHONE]: { padding: '8px 10px', borderBottom: `1px solid ${vars.color.border}` } } });
globalStyle(`${stacked} > thead`, {
  '@media': { [PHONE]: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' } },
});
globalStyle(`${stacked} > tbody > tr > td, ${stacked} > tbody > tr > th`, {
  '@media': {
    [PHONE]: { display: 'grid', gridTemplateColumns: 'minmax(6rem, 35%) minmax(0, 1fr)', gap: 8, paddingBlock: 3, paddingInline: 0, border: 'none', overflowWrap: 'anywhere' },
  },
});
globalStyle(`${stacked} > tbody > tr > :not([data-label])`, { '@media': { [PHONE]: { display: 'block' } } });

/** A cell's column name (LabelledCell): shown on a phone only, where the header is not. */
export const cellLabel = style({ display: 'none', fontWeight: 600, color: vars.color.textMuted, '@media': { [PHONE]: { display: 'block' } } });

/*
 * With `stacked`, for a table whose first header cell holds a control (the import table's
 * select-all box): on a phone that cell stays on screen above the cards; the other header cells
 * stay hidden but read.
 */
export const keepsFirstHeader = style({});
globalStyle(`${keepsFirstHeader} > thead, ${keepsFirstHeader} > thead > tr`, {
  '@media': { [PHONE]: { display: 'block', position: 'static', width: 'auto', height: 'auto', overflow: 'visible', clipPath: 'none', whiteSpace: 'normal' } },
});
globalStyle(`${keepsFirstHeader} > thead > tr > th:first-child`, { '@media': { [PHONE]: { display: 'block' } } });
globalStyle(`${keepsFirstHeader} > thead > tr > th:not(:first-child)`, {
  '@media': { [PHONE]: { position: 'absolute', width: 1, height: 1, padding: 0, overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' } },
});
