/*
 * In the Scrolling layout a table wider than the text scrolls sideways in its own box (frameSetup.ts
 * WIDE_BLOCKS): a table box does not clip, so such a table is shown as a block. Only those: made a
 * block, every table lost its table layout (a book's `width: 100%` table shrank to its content, on
 * a desktop too). Tables are marked here when they overflow their text and unmarked once they fit,
 * and checked again whenever their size, their text's width or the layout changes.
 */

/** On a table wider than its text (see above). */
export const WIDE_TABLE_ATTRIBUTE = 'data-folio-wide';

/** The frame's root style names its layout (`--USER__view`), as frameSetup.ts's SCROLLED_ROOT reads it. */
const scrolled = (doc: Document) => (doc.documentElement.getAttribute('style') ?? '').includes('readium-scroll-on');

/**
 * Whether `table` is wider than the text it sits in. Marked, it is a box as wide as its content up
 * to the text's width: its content overflows that box. Unmarked, it is a table: it overflows its
 * parent's content box (a table with `width: 100%` fills it exactly; one that cannot shrink to it,
 * its cells unbreakable, is wider).
 */
function overflows(view: Window, table: HTMLTableElement): boolean {
  if (view.getComputedStyle(table).writingMode.startsWith('vertical')) return false;
  if (table.hasAttribute(WIDE_TABLE_ATTRIBUTE)) return table.scrollWidth > table.clientWidth + 1;
  const parent = table.parentElement;
  if (!parent) return false;
  const box = parent.getBoundingClientRect();
  const style = view.getComputedStyle(parent);
  const left = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
  const right = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
  const rect = table.getBoundingClientRect();
  return rect.left < left - 1 || rect.right > right + 1;
}

/** Keeps the chapter's tables marked while they overflow (see above), for the frame's life. */
export function markWideTables(view: Window): void {
  // The frame's own classes: the reader's window's would not belong to the frame's document.
  const frame = view as Window & typeof globalThis;
  const doc = view.document;
  const tables = doc.getElementsByTagName('table');
  if (tables.length === 0) return;
  let pending = false;
  const check = () => {
    pending = false;
    // Paginated, a table split across columns measures as wide as them all; the marks matter only
    // scrolled, and a switch to scrolling checks again.
    if (!scrolled(doc)) return;
    // Every measure first, then every change: one layout, not one per table.
    const wide = Array.from(tables, (table) => overflows(view, table as HTMLTableElement));
    Array.from(tables).forEach((table, i) => table.toggleAttribute(WIDE_TABLE_ATTRIBUTE, wide[i]));
  };
  // On the next frame: a change made in a ResizeObserver's callback to what it observes would be a
  // resize loop (the browser reports it as an error).
  const schedule = () => {
    if (pending) return;
    pending = true;
    view.requestAnimationFrame(check);
  };
  const resizes = new frame.ResizeObserver(schedule);
  const observed = new Set<Element>();
  for (const table of Array.from(tables)) {
    for (const element of [table, table.parentElement]) {
      if (element && !observed.has(element)) {
        observed.add(element);
        resizes.observe(element);
      }
    }
  }
  new frame.MutationObserver(schedule).observe(doc.documentElement, { attributes: true, attributeFilter: ['style'] });
  schedule();
}
