/**
 * Whether the element that has the focus got it from the keyboard (Tab, a key that closed a dialog
 * and gave the focus back, or a script with no pointer involved) rather than from a pointer press.
 * Chromium's `:focus-visible` cannot tell once a key is down: it turns on with the keydown itself,
 * so a button that merely kept the focus after a click would look keyboard-focused to the very
 * Space press that should scroll the strip.
 */
let lastInput: 'pointer' | 'keyboard' = 'keyboard';
const focusedByKeyboard = new WeakSet<EventTarget>();

const onPointerDown = () => {
  lastInput = 'pointer';
};
const onKeyDown = () => {
  lastInput = 'keyboard';
};
const onFocusIn = (event: FocusEvent) => {
  if (!event.target) return;
  if (lastInput === 'keyboard') focusedByKeyboard.add(event.target);
  else focusedByKeyboard.delete(event.target);
};

let users = 0;

/** Starts following where focus comes from (capture phase, before any handler); returns the stop. */
export function followFocusOrigin(): () => void {
  if (users++ === 0) {
    window.addEventListener('pointerdown', onPointerDown, true);
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('focusin', onFocusIn, true);
  }
  return () => {
    if (--users > 0) return;
    window.removeEventListener('pointerdown', onPointerDown, true);
    window.removeEventListener('keydown', onKeyDown, true);
    window.removeEventListener('focusin', onFocusIn, true);
  };
}

/** True when `element` got the focus it has from the keyboard (see followFocusOrigin). */
export function keyboardFocused(element: Element): boolean {
  return focusedByKeyboard.has(element);
}
