import { style } from '@vanilla-extract/css';

/**
 * For icons that point along the line (chevrons, arrows, skip, undo, log out): mirrored under a
 * right-to-left `dir`, so "previous" still points toward the start of the line, and left as drawn
 * inside a left-to-right island of such a page (the reader's page bar of a left-to-right book under an
 * Arabic interface). Attribute selectors rather than `:dir()`: the production CSS build lowers `:dir()`
 * to a list of `:lang()` tests, which ignores `dir` islands. (A right-to-left island inside a
 * left-to-right island inside a right-to-left page would need one more rule; the client has none.)
 */
export const flipInRtl = style({
  selectors: {
    '[dir="rtl"] &': { transform: 'scaleX(-1)' },
    '[dir="rtl"] [dir="ltr"] &': { transform: 'none' },
  },
});
