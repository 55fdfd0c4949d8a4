/** Screens worked with a finger (phones, tablets): their controls need 40 px to be hit reliably. */
export const TOUCH = '(pointer: coarse)';
