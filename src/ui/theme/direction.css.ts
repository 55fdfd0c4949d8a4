import { style } from '@vanilla-extract/css';

/**
 * For icons that point along the line (chevrons, arrows, skip, undo, log out): mirrored where the
 * element's own direction is right-to-left, so "previous" still points toward the start of the line.
 * `:dir()` follows the nearest `dir` attribute, so an icon inside a left-to-right island (the reader's
 * page bar of a left-to-right book under an Arabic interface) is left as drawn.
 */
export const flipInRtl = style({
  selectors: { '&:dir(rtl)': { transform: 'scaleX(-1)' } },
});
