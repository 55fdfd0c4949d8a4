import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

const CANDIDATES = 'a[href], button, input, select, textarea, [tabindex]';

/** The elements of `container` that Tab stops at, in order (one per radio group: its checked one). */
function tabStops(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(CANDIDATES)].filter((element) => {
    if (element.tabIndex < 0 || (element as HTMLButtonElement).disabled || !element.checkVisibility({ visibilityProperty: true })) return false;
    if (element instanceof HTMLInputElement && element.type === 'radio' && element.name) {
      const group = [...container.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(element.name)}"]`)];
      return group.some((radio) => radio.checked) ? element.checked : element === group[0];
    }
    return true;
  });
}

/**
 * Keeps Tab and Shift+Tab inside a modal: from its last stop Tab goes to its first, and back. A
 * native modal <dialog> already makes the page behind inert, but lets Tab leave it for the
 * browser's own controls (or <body>), where a keyboard user lands nowhere; call from its keydown.
 */
export function wrapTab(event: KeyboardEvent | ReactKeyboardEvent, container: HTMLElement): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  // React passes a nested dialog's keys up the component tree: each layer wraps only its own.
  const layer = (element: Element | null) => element?.closest('dialog, [popover]');
  if (layer(event.target as Element) !== layer(container)) return;
  const stops = tabStops(container);
  if (stops.length === 0) return;
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const active = document.activeElement;
  const leaving = event.shiftKey ? active === first || !container.contains(active) : active === last || !container.contains(active);
  if (!leaving) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
}

/** Focuses the first control of `container` that Tab would stop at (a menu as it opens). */
export function focusFirstStop(container: HTMLElement): void {
  tabStops(container)[0]?.focus();
}
