import { style } from '@vanilla-extract/css';
import { TOUCH } from '../theme/media.ts';
import { vars } from '../theme/theme.css.ts';

export const grid = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
  gap: 16,
});

export const card = style({
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  gap: 6,
  textDecoration: 'none',
  color: vars.color.text,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: 8,
  padding: 8,
  height: '100%',
  selectors: {
    '&:hover': { borderColor: vars.color.primary },
    // The title link is the one focusable part; the ring goes around the whole card.
    '&:has(a:focus-visible)': { outline: `3px solid ${vars.color.focus}`, outlineOffset: 2 },
  },
});

/**
 * The card's link holds only the title, so its accessible name is exactly the visible title;
 * its ::after stretches over the card so the whole card stays clickable.
 */
export const titleLink = style({
  color: 'inherit',
  textDecoration: 'none',
  selectors: {
    '&::after': { content: '""', position: 'absolute', inset: 0, borderRadius: 8 },
    '&:focus-visible': { outline: 'none' },
  },
});

/** Poster frame with the comic-cover aspect ratio reserved before the image loads (no layout shift). */
export const poster = style({
  position: 'relative',
  aspectRatio: '0.7071',
  width: '100%',
  overflow: 'hidden',
  borderRadius: 4,
  background: vars.color.placeholder,
});

export const posterImage = style({
  display: 'block',
  width: '100%',
  height: '100%',
  objectFit: 'cover',
});

export const badge = style({
  position: 'absolute',
  top: 6,
  insetInlineEnd: 6,
  minWidth: 24,
  padding: '1px 7px',
  borderRadius: 12,
  background: vars.color.secondary,
  color: '#1b1d21',
  fontSize: 13,
  fontWeight: 600,
  textAlign: 'center',
});

export const readMark = style({
  position: 'absolute',
  insetInlineStart: 0,
  bottom: 0,
  height: 4,
  background: vars.color.primary,
});

export const title = style({
  fontWeight: 600,
  fontSize: 14,
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
});

/** Selection box over the poster's corner, above the card's stretched link. */
/** The checkbox's 40 px hit area, in the poster's top corner (the box sits where it always did). */
export const selectHit = style({
  position: 'absolute',
  top: 0,
  insetInlineStart: 0,
  zIndex: 2,
  display: 'flex',
  alignItems: 'flex-start',
  justifyContent: 'flex-start',
  boxSizing: 'border-box',
  width: 40,
  height: 40,
  padding: 6,
  cursor: 'pointer',
  // On a touch screen the box is drawn 24 px (theme.css.ts): the area grows with it to a phone's
  // usual 44 px, so a finger that misses the box by a few pixels still lands inside.
  '@media': { [TOUCH]: { width: 44, height: 44 } },
});

export const selectBox = style({
  width: 20,
  height: 20,
  margin: 0,
  cursor: 'pointer',
  accentColor: vars.color.primary,
});

/** A book or series whose files are gone but not yet emptied from the trash. */
export const unavailableCard = style({ opacity: 0.6 });

export const unavailableLabel = style({ fontSize: 12, fontWeight: 700, color: vars.color.error, textTransform: 'uppercase' });

export const subtitle = style({
  fontSize: 13,
  color: vars.color.textMuted,
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
});
