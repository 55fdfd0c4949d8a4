import { globalStyle, style } from '@vanilla-extract/css';

/**
 * The area the book's frames fill: the screen between the toolbars' places, so the bars never hide
 * a line and showing or hiding them does not lay the book out again.
 */
export const stage = style({
  position: 'absolute',
  inset: '3.5rem 0',
  display: 'flex',
  justifyContent: 'center',
  overflow: 'hidden',
});

/** The navigator sizes this box's width from the line length; its iframes fill it. */
export const frames = style({
  position: 'relative',
  height: '100%',
  width: '100%',
});

globalStyle(`${frames} iframe`, { border: 0 });

export const tocList = style({ listStyle: 'none', margin: 0, paddingInlineStart: '1rem' });

export const tocButton = style({
  background: 'none',
  border: 0,
  color: 'inherit',
  font: 'inherit',
  textAlign: 'start',
  padding: '0.35rem 0.25rem',
  width: '100%',
  cursor: 'pointer',
  borderRadius: '4px',
  selectors: {
    '&:hover, &:focus-visible': { background: 'rgba(255, 255, 255, 0.12)' },
    '&[aria-current="true"]': { fontWeight: 700 },
  },
});

export const tocScroller = style({ maxHeight: '70vh', overflowY: 'auto' });

export const zoomViewport = style({ maxWidth: '90vw', maxHeight: '75vh', overflow: 'auto' });

export const zoomImage = style({ display: 'block', transformOrigin: '0 0' });

export const zoomControls = style({ display: 'flex', gap: '0.5rem', alignItems: 'center', marginBlockEnd: '0.5rem' });

// The navigator positions its frames; they fill the box (an unstyled iframe is 300 × 150 pixels).
globalStyle(`${frames} iframe`, { width: '100%', height: '100%', inset: 0 });

/** Settings the server did not save, at the top of the settings dialog, with their retry. */
export const unsavedNote = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '0.5rem 1rem',
  marginBlockEnd: '0.75rem',
  padding: '0.5rem 0.75rem',
  borderRadius: '0.5rem',
  background: 'rgba(255, 3, 53, 0.18)',
  overflowWrap: 'anywhere',
});

globalStyle(`${unsavedNote} > div`, { flex: '1 1 14rem' });
globalStyle(`${unsavedNote} p`, { margin: 0 });
