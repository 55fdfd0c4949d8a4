import { expect, type Page } from '@playwright/test';

/** WCAG 2.2's minimum target size (2.5.8), in CSS pixels. */
export const MIN_TARGET = 24;

/**
 * Lists the controls on screen a fingertip must hit that are smaller than `min` px on a side, as
 * "role name width×height". A check box's or radio's target is the larger of its drawn box and its
 * label (a click on the label toggles it; a visually hidden radio is worked through its label).
 * A link stretched over its card counts the card. Links inside running text are left out, as WCAG
 * does (their size is the text's); so are controls behind an open modal dialog.
 */
export function smallTapTargets(page: Page, min = MIN_TARGET): Promise<string[]> {
  return page.evaluate((min) => {
    const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=link], [role=menuitem], [role=checkbox], [role=radio], [role=switch], [role=slider]';
    const shown = (element: Element) => element.checkVisibility({ opacityProperty: false, visibilityProperty: true }) && !element.closest('[inert], [aria-hidden="true"]');
    const sizeOf = (element: Element) => {
      const box = element.getBoundingClientRect();
      return { width: box.width, height: box.height };
    };
    const nameOf = (element: Element) => {
      const text = element.getAttribute('aria-label') ?? (element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : element.textContent) ?? '';
      return `${element.getAttribute('role') ?? element.tagName.toLowerCase()}${element instanceof HTMLInputElement ? `[${element.type}]` : ''} "${text.trim().slice(0, 40)}"`;
    };
    // A link in a sentence: its parent says more than the link does.
    const inText = (element: Element) =>
      element.tagName === 'A' && getComputedStyle(element).display === 'inline' && (element.parentElement?.textContent?.trim().length ?? 0) > (element.textContent?.trim().length ?? 0);
    // A card's title link stretches over the card with an absolute ::after: the card is its target.
    const stretchedOver = (element: Element) => {
      const after = getComputedStyle(element, '::after');
      return after.content !== 'none' && after.position === 'absolute' && element instanceof HTMLElement ? element.offsetParent : null;
    };
    // Behind an open modal dialog nothing can be hit: only the dialog's controls count.
    const scope = [...document.querySelectorAll('dialog')].filter((d) => d.matches(':modal')).pop() ?? document;
    const found: string[] = [];
    for (const element of scope.querySelectorAll(CONTROLS)) {
      if ((element as HTMLButtonElement).disabled || inText(element)) continue;
      const candidates: Element[] = [element];
      if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) candidates.push(...(element.labels ?? []));
      const card = stretchedOver(element);
      if (card) candidates.push(card);
      const visible = candidates.filter(shown).map(sizeOf).filter(({ width, height }) => width > 1 && height > 1);
      if (visible.length === 0) continue;
      const best = visible.reduce((a, b) => (Math.min(b.width, b.height) > Math.min(a.width, a.height) ? b : a));
      if (Math.min(best.width, best.height) < min) found.push(`${nameOf(element)} ${Math.round(best.width)}×${Math.round(best.height)}`);
    }
    return found;
  }, min);
}

/** Fails, naming each one, when a control on screen is under the minimum target size. */
export async function expectTapTargets(page: Page, min = MIN_TARGET): Promise<void> {
  expect(await smallTapTargets(page, min)).toEqual([]);
}
