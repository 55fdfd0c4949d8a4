import { globalStyle, style } from '@vanilla-extract/css';
import { TOUCH } from '../theme/media.ts';
import { visuallyHiddenRules } from '../theme/visuallyHidden.ts';

export const screen = style({
  position: 'fixed',
  inset: 0,
  overflow: 'hidden',
  background: 'black',
  color: 'white',
  userSelect: 'none',
  touchAction: 'manipulation',
});

export const canvas = style({
  position: 'absolute',
  inset: 0,
  width: '100%',
  height: '100%',
  display: 'block',
});

/** Phones: the bars' buttons, slider and counter share a 360 px row; dialogs take less padding. */
const PHONE = '(max-width: 30rem)';
/** Everything wider than PHONE. */
const WIDER = 'not all and (max-width: 30rem)';

const bar = style({
  position: 'absolute',
  insetInline: 0,
  display: 'flex',
  alignItems: 'center',
  gap: '0.75rem',
  padding: '0.5rem 1rem',
  background: 'rgba(20, 20, 20, 0.85)',
  color: 'white',
  fontSize: '0.95rem',
  zIndex: 2,
  // Tighter on a phone, where every pixel the buttons do not take goes to the book's title.
  '@media': { [PHONE]: { gap: '0.375rem', paddingInline: '0.5rem' } },
});

export const topBar = style([bar, { top: 0 }]);
export const bottomBar = style([bar, { bottom: 0, justifyContent: 'center' }]);

export const title = style({
  flex: 1,
  minWidth: 0,
  overflow: 'hidden',
  fontWeight: 600,
});

/** The title, cut to the bar; a press shows it whole (titleSheet): a phone has no hover for a tooltip. */
export const titleButton = style({
  display: 'block',
  maxWidth: '100%',
  minHeight: '2.5rem',
  padding: '0 0.25rem',
  border: 'none',
  background: 'none',
  color: 'inherit',
  font: 'inherit',
  textAlign: 'start',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  cursor: 'pointer',
});

export const titleSheet = style({
  position: 'fixed',
  inset: 'unset',
  top: '3.25rem',
  insetInline: '0.5rem',
  maxWidth: '40rem',
  margin: 0,
  padding: '0.75rem 1rem',
  border: '1px solid rgba(255, 255, 255, 0.15)',
  borderRadius: '0.5rem',
  background: '#262626',
  color: 'white',
  fontWeight: 600,
  overflowWrap: 'anywhere',
});

export const iconButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minWidth: '2.25rem',
  minHeight: '2.25rem',
  padding: '0.25rem',
  border: 'none',
  borderRadius: '0.375rem',
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  textDecoration: 'none',
  selectors: {
    '&:hover': { background: 'rgba(255, 255, 255, 0.12)' },
    '&:focus-visible': { outline: '2px solid #78baec', outlineOffset: '2px' },
    '&:disabled': { opacity: 0.4, cursor: 'default' },
  },
  // A fingertip needs 40 px.
  '@media': { [PHONE]: { minWidth: '2.5rem', minHeight: '2.5rem' } },
});

/** A top-bar button whose action the "more" menu holds on a phone. */
export const widerOnlyIconButton = style([iconButton, { '@media': { [PHONE]: { display: 'none' } } }]);
/** The "more" button when its menu holds only phone stand-ins for widerOnlyIconButton's. */
export const phoneOnlyIconButton = style([iconButton, { '@media': { [WIDER]: { display: 'none' } } }]);


export const counter = style({
  fontVariantNumeric: 'tabular-nums',
  minWidth: '6rem',
  textAlign: 'center',
  // "Page 12 of 6,000" (or "Страница 12 из 360") on one line: the slider gives way instead.
  whiteSpace: 'nowrap',
  '@media': { [PHONE]: { minWidth: 0, fontSize: '0.875rem' } },
});

export const message = style({
  position: 'absolute',
  inset: 0,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '1rem',
  padding: '2rem',
  textAlign: 'center',
  color: 'white',
  zIndex: 1,
  pointerEvents: 'none',
});

export const messageAction = style({ pointerEvents: 'auto' });

export const stopActions = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: '0.75rem' });

export const snackbar = style({
  position: 'absolute',
  top: '4rem',
  insetInline: 0,
  marginInline: 'auto',
  width: 'fit-content',
  padding: '0.75rem 1.25rem',
  borderRadius: '0.5rem',
  background: 'rgba(40, 40, 40, 0.95)',
  color: 'white',
  zIndex: 3,
  maxWidth: '90vw',
  textAlign: 'center',
  // A notice of two sentences (a failure, then what became of the change) keeps them on two lines.
  whiteSpace: 'pre-line',
});

export const textButton = style([
  iconButton,
  { padding: '0.4rem 0.9rem', border: '1px solid rgba(255, 255, 255, 0.4)' },
]);

/** Paged view: scrolls only when the scale type makes the content larger than the viewport. */
export const scroller = style({
  position: 'absolute',
  inset: 0,
  overflow: 'auto',
  // A swipe past the edge is a page turn, never the browser's back/forward or pull-to-refresh.
  overscrollBehavior: 'none',
  scrollbarWidth: 'none',
  outline: 'none',
  selectors: { '&::-webkit-scrollbar': { display: 'none' } },
});

export const spacer = style({
  position: 'relative',
  minWidth: '100%',
  minHeight: '100%',
  // A zoomed canvas (CSS transform) must not widen the scrollable area.
  overflow: 'clip',
});

export const stickyCanvas = style({
  position: 'sticky',
  top: 0,
  left: 0, // physical: the page canvas is drawn in screen coordinates, inside the reader's page area (dir=ltr)
  display: 'block',
  transformOrigin: '0 0',
});

export const webtoonScroller = style({
  position: 'absolute',
  inset: 0,
  outline: 'none',
  overflowY: 'auto',
  overflowX: 'auto',
  overscrollBehavior: 'contain',
});

export const webtoonStrip = style({
  position: 'relative',
  minWidth: '100%',
  margin: '0 auto',
});

export const webtoonSlot = style({
  position: 'absolute',
  top: 0,
  left: 0, // physical: webtoon slots are placed in screen coordinates, inside the reader's page area (dir=ltr)
  width: '100%',
});

export const webtoonCanvas = style({
  position: 'absolute',
  display: 'block',
});

/**
 * A webtoon page that could not be shown: its reason and a retry, inside the page's slot (which keeps
 * its height). Sticky, so on a page taller than the screen it stays in view while the page is scrolled
 * through; boxed, so it reads on any reader background.
 */
export const webtoonFailure = style({
  position: 'sticky',
  top: '4rem',
  zIndex: 1,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '0.75rem',
  width: 'fit-content',
  maxWidth: 'min(32rem, calc(100% - 2rem))',
  marginBlock: '4rem',
  marginInline: 'auto',
  padding: '1rem 1.25rem',
  borderRadius: '0.5rem',
  background: 'rgba(40, 40, 40, 0.92)',
  color: 'white',
  textAlign: 'center',
  overflowWrap: 'anywhere',
});

// The box's gap spaces its lines; paragraphs' own margins would double it.
globalStyle(`${webtoonFailure} p`, { margin: 0 });

export const notice = style({
  position: 'absolute',
  bottom: '5rem',
  insetInline: 0,
  marginInline: 'auto',
  width: 'fit-content',
  padding: '0.6rem 1.1rem',
  borderRadius: '0.5rem',
  background: 'rgba(40, 40, 40, 0.92)',
  color: 'white',
  zIndex: 3,
  // Not 'none': a notice stays while the pointer is on it (useTimedMessage), to be read to the end.
  textAlign: 'center',
});

export const barGroup = style({ display: 'flex', alignItems: 'center', gap: '0.25rem' });

export const slider = style({
  flex: 1,
  minWidth: '6rem',
  maxWidth: '40rem',
  accentColor: '#78baec',
  // The browser's slider is 16 px tall, too thin a strip for a finger to land on; the track is
  // drawn centred whatever the height, so on a touch screen the box takes the toolbar buttons' 40.
  '@media': { [PHONE]: { minWidth: '3rem' }, [TOUCH]: { minBlockSize: 40 } },
});

export const dialog = style({
  // Fits a 360 px wide phone: never wider than the screen less a small margin.
  maxWidth: 'min(40rem, calc(100vw - 1rem))',
  maxHeight: '85vh',
  boxSizing: 'border-box',
  padding: '1.25rem 1.5rem',
  '@media': { [PHONE]: { padding: '1rem 0.75rem' } },
  border: 'none',
  borderRadius: '0.75rem',
  background: '#1e1e1e',
  color: 'white',
  overflow: 'auto',
  selectors: { '&::backdrop': { background: 'rgba(0, 0, 0, 0.6)' } },
});

export const dialogHeader = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '1rem',
  marginBottom: '0.75rem',
});

export const dialogTitle = style({ margin: 0, fontSize: '1.15rem' });

export const fieldset = style({
  border: '1px solid rgba(255, 255, 255, 0.2)',
  borderRadius: '0.5rem',
  padding: '0.75rem 1rem',
  margin: '0 0 1rem',
  display: 'grid',
  // Columns may shrink below their content (long option names wrap or clip inside the select).
  gridTemplateColumns: 'minmax(0, 16rem) minmax(0, 1fr)',
  gap: '0.6rem 1rem',
  alignItems: 'center',
  minWidth: 0,
  // On a phone the label column took up to 16rem and left the selects 60 px ("Lef", "Bla"): there
  // each select is as wide as its longest choice and the labels wrap in what is left, but never
  // narrower than their longest word, which 6rem broke mid-letter ("Seitenlayo|ut", "страница|ми");
  // a select then clips its longest choice instead.
  '@media': { [PHONE]: { padding: '0.6rem 0.6rem', gap: '0.5rem 0.6rem', gridTemplateColumns: 'minmax(min-content, 1fr) minmax(0, max-content)' } },
});

// Checkboxes sit at the start of their column, under the selects' left edge, not floating mid-row.
globalStyle(`${fieldset} input[type="checkbox"]`, { justifySelf: 'start', width: '1.1rem', height: '1.1rem' });

/**
 * A checkbox's row. On a wide screen its label and box take the grid's two columns like a select's
 * row. On a phone the control column is as wide as the widest select, so a toggle's label was left
 * a third of the dialog and broke its words mid-letter ("перелистыван|ие", "przesuwani|a"): there
 * the row spans both columns, the label takes what the box does not.
 */
export const toggleRow = style({
  display: 'contents',
  '@media': {
    [PHONE]: { display: 'flex', gridColumn: '1 / -1', alignItems: 'center', justifyContent: 'space-between', gap: '0.6rem' },
  },
});

export const select = style({
  minWidth: 0,
  maxWidth: '100%',
  padding: '0.3rem 0.5rem',
  borderRadius: '0.375rem',
  background: '#2b2b2b',
  color: 'white',
  border: '1px solid rgba(255, 255, 255, 0.3)',
});

export const shortcutTable = style({ borderCollapse: 'collapse', width: '100%' });

// Each key stays whole, but a row's keys may wrap between them: "Space PageDown PageUp" on one line
// pushed the descriptions past a phone's dialog.
export const shortcutKeys = style({ paddingBlock: '0.25rem', paddingInline: '0 1rem', verticalAlign: 'top' });

export const kbd = style({
  display: 'inline-block',
  whiteSpace: 'nowrap',
  marginBlockEnd: '0.25rem',
  minWidth: '1.6rem',
  padding: '0.1rem 0.4rem',
  marginInlineEnd: '0.25rem',
  borderRadius: '0.3rem',
  border: '1px solid rgba(255, 255, 255, 0.35)',
  fontFamily: 'inherit',
  textAlign: 'center',
});

export const thumbnailGrid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))',
  gap: '0.75rem',
  margin: '0.75rem 0',
  padding: 0,
  listStyle: 'none',
});

export const thumbnailButton = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '0.25rem',
  width: '100%',
  padding: '0.25rem',
  border: '2px solid transparent',
  borderRadius: '0.375rem',
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  selectors: {
    '&[aria-current="page"]': { borderColor: '#78baec' },
    '&:focus-visible': { outline: '2px solid #78baec' },
  },
});

export const thumbnailImage = style({
  width: '100%',
  aspectRatio: '7 / 10',
  objectFit: 'contain',
  background: '#111',
});

export const debugOverlay = style({
  position: 'absolute',
  top: '3.5rem',
  insetInlineEnd: '0.5rem',
  zIndex: 4,
  padding: '0.5rem 0.75rem',
  borderRadius: '0.375rem',
  background: 'rgba(0, 0, 0, 0.75)',
  color: '#9f9',
  font: '12px/1.4 ui-monospace, monospace',
  pointerEvents: 'none',
  whiteSpace: 'pre',
});

/** Read by screen readers, invisible on screen. */
export const visuallyHidden = style(visuallyHiddenRules);

/** The page menu, a native popover placed under the top bar's right end. */
export const menu = style({
  position: 'fixed',
  inset: 'unset',
  top: '3.25rem',
  insetInlineEnd: '0.5rem',
  margin: 0,
  padding: '0.35rem',
  minWidth: '14rem',
  border: '1px solid rgba(255, 255, 255, 0.15)',
  borderRadius: '0.5rem',
  background: '#262626',
  color: 'white',
  flexDirection: 'column',
  selectors: { '&:popover-open': { display: 'flex' } },
});

export const menuItem = style({
  display: 'block',
  padding: '0.55rem 0.75rem',
  border: 'none',
  borderRadius: '0.375rem',
  background: 'transparent',
  color: 'inherit',
  font: 'inherit',
  textAlign: 'start',
  textDecoration: 'none',
  cursor: 'pointer',
  selectors: {
    '&:hover': { background: 'rgba(255, 255, 255, 0.1)' },
    '&:focus-visible': { outline: '2px solid #78baec', outlineOffset: '-2px' },
  },
  '@media': { [PHONE]: { paddingBlock: '0.75rem' } },
});

/** A menu entry standing in, on a phone, for a top-bar button that only wider screens show. */
export const phoneOnlyMenuItem = style([menuItem, { '@media': { [WIDER]: { display: 'none' } } }]);
