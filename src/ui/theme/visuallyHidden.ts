/**
 * The rules that take an element off the screen but leave it to screen readers (a label shown as an
 * icon, a header for a column of buttons): one copy, used by the styles that need it, in a media
 * query too.
 */
export const visuallyHiddenRules = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
