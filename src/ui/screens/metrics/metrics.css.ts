import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css.ts';

export const charts = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))',
  gap: 16,
  margin: '16px 0',
});

export const figure = style({ margin: 0, minWidth: 0, color: vars.color.text });

export const caption = style({ fontWeight: 600, marginBottom: 8 });

export const canvasBox = style({ position: 'relative', height: 240 });
