import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css.ts';
import { visuallyHiddenRules } from '../theme/visuallyHidden.ts';

export const errorBox = style({
  background: vars.color.errorSurface,
  color: vars.color.error,
  border: `1px solid ${vars.color.error}`,
  borderRadius: 6,
  padding: '10px 14px',
  margin: '12px 0',
});

/** An action's failure the user may put away: the sentence, and the dismiss button at its end. */
export const dismissableError = style({ display: 'flex', alignItems: 'flex-start', gap: 8 });

export const dismissableText = style({ margin: 0, flex: 1, minWidth: 0 });

export const dismissButton = style({
  flex: 'none',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minWidth: 32,
  minHeight: 32,
  marginBlock: -6,
  marginInlineEnd: -8,
  padding: 0,
  border: 'none',
  borderRadius: 4,
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
});

export const muted = style({ color: vars.color.textMuted, margin: '16px 0' });

export const emptyState = style({
  color: vars.color.textMuted,
  padding: '32px 16px',
  textAlign: 'center',
  border: `1px dashed ${vars.color.border}`,
  borderRadius: 8,
});

/** One sentence of an empty state on its own line (what is missing, then how to make one). */
export const emptyStateLine = style({ display: 'block' });

/** Read by screen readers, not shown (e.g. a header for a column of buttons). */
export const visuallyHidden = style(visuallyHiddenRules);

/**
 * An empty live region (LiveStatus) takes no place: in a flex row or column its empty box would still
 * cost a gap. Out of the flow rather than hidden, so screen readers keep tracking it.
 */
export const liveRegion = style({ selectors: { '&:empty': { position: 'absolute' } } });
