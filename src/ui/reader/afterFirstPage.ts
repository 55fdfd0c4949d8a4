/** Marked by the reader's canvas when it first shows a page at full quality (see CanvasPainter). */
export const PAGE_PAINTED_MARK = 'folio:page-painted';

/**
 * Runs `work` once the reader has painted its first page, or after `fallbackMs` (a text book paints
 * no canvas): work that can wait, done once the first page no longer competes with it. Returns the
 * way to cancel it.
 */
export function afterFirstPage(work: () => void, fallbackMs = 10_000): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    clearTimeout(timer);
    work();
  };
  const timer = setTimeout(run, fallbackMs);
  let observer: PerformanceObserver | null = null;
  if (performance.getEntriesByName(PAGE_PAINTED_MARK).length > 0) {
    run();
  } else if (typeof PerformanceObserver === 'function') {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(PAGE_PAINTED_MARK).length > 0) run();
    });
    observer.observe({ type: 'mark' });
  }
  return () => {
    done = true;
    observer?.disconnect();
    clearTimeout(timer);
  };
}
