/**
 * Runs `work` in a task of its own just after the next frame has been produced: what a page turn
 * makes due but the screen does not need (preloads, previews) then no longer delays the frame that
 * shows the turn. A hidden tab produces no frames; the fallback timer runs the work anyway.
 */
export function afterNextFrame(work: () => void, fallbackMs = 100): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    work();
  };
  const fallback = setTimeout(run, fallbackMs);
  // rAF callbacks run just before the frame is drawn; the timeout set there runs after it.
  requestAnimationFrame(() => setTimeout(run, 0));
}
