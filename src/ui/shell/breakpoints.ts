/** Below this width the navigation drawer is not a column beside the content but a modal over it. */
export const NARROW = 'screen and (max-width: 900px)';
