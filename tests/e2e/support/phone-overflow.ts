import type { Page } from '@playwright/test';

/** The parts of a table row checked by default: cells and the controls in them. */
const ROW_PARTS = 'tbody td, tbody th, tbody input, tbody select, tbody button, tbody a';

/**
 * On a phone: where the page or a table scrolls sideways, or a part of a table row (`parts`, a
 * selector inside each table) reaches past the screen's width; empty when it all fits. Names each
 * part by its accessible label, else its text.
 */
export async function tableOverflows(page: Page, parts: string = ROW_PARTS): Promise<string[]> {
  return page.evaluate((selector) => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    const pageWidth = document.scrollingElement!.scrollWidth;
    if (pageWidth > width + 1) found.push(`page scrolls sideways (${pageWidth} > ${width})`);
    for (const table of document.querySelectorAll('table')) {
      const scroller = table.parentElement!;
      if (scroller.scrollWidth > scroller.clientWidth + 1) {
        found.push(`${table.getAttribute('aria-label') ?? 'a table'} scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth})`);
      }
      for (const part of table.querySelectorAll(selector)) {
        const box = part.getBoundingClientRect();
        const name = part.getAttribute('aria-label') ?? part.textContent?.slice(0, 30) ?? part.id;
        if (box.right > width + 1 || box.left < -1) found.push(`"${name}" reaches past the screen (${Math.round(box.left)}..${Math.round(box.right)})`);
      }
    }
    return found;
  }, parts);
}
