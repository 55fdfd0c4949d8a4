import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { renderAt } from './render.tsx';

/**
 * The reader's notices (a refused reading position with its reason, a direction change, the
 * start/end-of-book note) went after a fixed 4 s (3 s for the edge note), whatever their length:
 * a long one, or a translation half again as long, was gone before it was read. They now stay for
 * their length (noticeDuration, at least the screen's minimum) and do not go while the pointer is
 * on them. Real Chromium, the reader's own hook and region; fake timers.
 */
const { useTimedMessage } = await import('../../../src/ui/reader/useTimedMessage.ts');
const { LiveStatus } = await import('../../../src/ui/components/Feedback.tsx');
const { noticeDuration } = await import('../../../src/ui/components/noticeDuration.ts');

const MINIMUM_MS = 4000;
let show: (text: string) => void = () => undefined;
function Notice() {
  const [message, setMessage, holdProps] = useTimedMessage(MINIMUM_MS);
  show = setMessage;
  return (
    <>
      {/* Before the notice: one appearing where the pointer is would count as hovered. */}
      <button type="button">Elsewhere</button>
      <LiveStatus message={message} messageProps={holdProps} testId="notice" />
    </>
  );
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
});

const LONG =
  'Your reading position could not be saved: the server refused it because this book no longer has that page since it was analysed again. Reopen the book to continue from a page it has.';

/**
 * Moves the clock inside act(), so React has rendered what the timers did before the next check
 * (a check right after would still see the old page and pass whatever the timers did).
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const advance = (ms: number) =>
  act(async () => {
    vi.advanceTimersByTime(ms);
  });

/** React sets the notice's timer in an effect after the render: wait for it before moving the clock. */
const timerSet = () => vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));

async function mount() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const view = renderAt('/', <Notice />);
  cleanups.push(view.unmount);
  // The pointer away from where the notice appears.
  await page.getByRole('button', { name: 'Elsewhere' }).hover();
  return page.getByTestId('notice');
}

it('keeps a long notice long enough to read it, then removes it', async () => {
  const notice = await mount();
  const needed = noticeDuration(LONG, MINIMUM_MS);
  expect(needed).toBeGreaterThan(MINIMUM_MS * 2);
  await act(async () => show(LONG));
  await expect.element(notice).toHaveTextContent(LONG);
  await timerSet();
  await advance(MINIMUM_MS);
  await expect.element(notice).toBeVisible();
  await advance(needed - MINIMUM_MS - 100);
  await expect.element(page.getByRole('status')).toHaveTextContent(LONG);
  await advance(100);
  await expect.element(notice).not.toBeInTheDocument();
});

it('keeps a short notice the minimum time', async () => {
  const notice = await mount();
  await act(async () => show('Left to right'));
  await expect.element(notice).toBeVisible();
  await timerSet();
  expect(noticeDuration('Left to right', MINIMUM_MS)).toBe(MINIMUM_MS);
  await advance(MINIMUM_MS);
  await expect.element(notice).not.toBeInTheDocument();
});

it('does not remove a notice while the pointer is on it, and removes it once the pointer left', async () => {
  const notice = await mount();
  const needed = noticeDuration(LONG, MINIMUM_MS);
  await act(async () => show(LONG));
  await expect.element(notice).toBeVisible();
  // Hovered once its timer runs: a hover before the effect sets it would test nothing (and the
  // timer set after it would not know of the hover: failed once in the full browser run).
  await timerSet();
  await notice.hover();
  // Pointer enter is not a discrete event for React: its update (and the effect clearing the
  // timer) is scheduled, not done, when the hover returns. act() lets React finish it.
  await act(async () => undefined);
  await advance(needed * 3);
  await expect.element(page.getByRole('status')).toHaveTextContent(LONG);
  await page.getByRole('button', { name: 'Elsewhere' }).hover();
  await act(async () => undefined);
  await timerSet();
  // Its time runs again once the pointer left (how long exactly is the first test's: here the
  // region's own deferred timers made a step of needed - 100 ms land either side, 1 run in 8).
  await advance(needed * 2);
  await expect.element(notice).not.toBeInTheDocument();
});
