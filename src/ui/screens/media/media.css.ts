import { style } from '@vanilla-extract/css';

export const thumb = style({ width: 80, height: 110, objectFit: 'contain', display: 'block' });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'flex-end' });

export const noPreview = style({ display: 'inline-block', maxWidth: 120, fontSize: 12, opacity: 0.8 });
