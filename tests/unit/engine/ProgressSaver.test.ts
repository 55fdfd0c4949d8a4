import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressSaver } from '../../../src/engine/ProgressSaver.ts';

interface Call {
  page: number;
  done: () => void;
  fail: (error: Error) => void;
}

function recorder() {
  const calls: Call[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const save = (page: number) =>
    new Promise<void>((resolve, reject) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const end = () => inFlight--;
      calls.push({
        page,
        done: () => {
          end();
          resolve();
        },
        fail: (error) => {
          end();
          reject(error);
        },
      });
    });
  return { calls, save, max: () => maxInFlight };
}

async function flushMicrotasks() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('ProgressSaver', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces a burst of page changes into one save of the last page', () => {
    const { calls, save } = recorder();
    const saver = new ProgressSaver(save, { debounceMs: 100 });
    saver.report(2);
    vi.advanceTimersByTime(60);
    saver.report(3);
    vi.advanceTimersByTime(60);
    saver.report(4);
    expect(calls).toHaveLength(0);
    vi.advanceTimersByTime(100);
    expect(calls.map((call) => call.page)).toEqual([4]);
  });

  it('keeps at most one save in flight and sends only the latest page afterwards', async () => {
    const { calls, save, max } = recorder();
    const saver = new ProgressSaver(save, { debounceMs: 10 });
    saver.report(2);
    vi.advanceTimersByTime(10);
    expect(calls.map((call) => call.page)).toEqual([2]);
    saver.report(3);
    vi.advanceTimersByTime(10);
    saver.report(5);
    vi.advanceTimersByTime(10);
    expect(calls).toHaveLength(1);
    calls[0]?.done();
    await flushMicrotasks();
    expect(calls.map((call) => call.page)).toEqual([2, 5]);
    calls[1]?.done();
    await flushMicrotasks();
    expect(max()).toBe(1);
    expect(saver.lastSaved).toBe(5);
  });

  it('does not resend the page the server already has', async () => {
    const { calls, save } = recorder();
    const saver = new ProgressSaver(save, { debounceMs: 10 }, 7);
    saver.report(7);
    vi.advanceTimersByTime(10);
    expect(calls).toHaveLength(0);
    saver.report(8);
    vi.advanceTimersByTime(10);
    calls[0]?.done();
    await flushMicrotasks();
    saver.report(8);
    vi.advanceTimersByTime(10);
    expect(calls).toHaveLength(1);
  });

  it('reports failures and tries again on the next change', async () => {
    const { calls, save } = recorder();
    const errors: unknown[] = [];
    const saver = new ProgressSaver(save, { debounceMs: 10, onError: (error) => errors.push(error) });
    saver.report(3);
    vi.advanceTimersByTime(10);
    calls[0]?.fail(new Error('offline'));
    await flushMicrotasks();
    expect(errors).toHaveLength(1);
    expect(saver.lastSaved).toBeNull();
    saver.report(3);
    vi.advanceTimersByTime(10);
    expect(calls.map((call) => call.page)).toEqual([3, 3]);
  });

  it('sends again, after the delay it is given, a save the server could not take now, unless a newer page replaced it', async () => {
    // Under load a save answered 503 (connections full, database locked) was dropped: the last page
    // of a session, with no page turn after it, was lost and the book reopened pages earlier.
    const { calls, save } = recorder();
    const delays: number[] = [];
    const retryDelayMs = (error: unknown, attempt: number) => ((error as Error).message === 'busy' ? (delays.push(attempt), 1000 * attempt) : null);
    const saver = new ProgressSaver(save, { debounceMs: 10, retryDelayMs });
    saver.report(7);
    vi.advanceTimersByTime(10);
    calls[0]!.fail(new Error('busy'));
    await flushMicrotasks();
    vi.advanceTimersByTime(999);
    expect(calls).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(calls.map((call) => call.page)).toEqual([7, 7]);
    calls[1]!.fail(new Error('busy'));
    await flushMicrotasks();
    vi.advanceTimersByTime(2000);
    expect(calls.map((call) => call.page)).toEqual([7, 7, 7]);
    calls[2]!.done();
    await flushMicrotasks();
    expect(saver.lastSaved).toBe(7);
    expect(delays).toEqual([1, 2]);

    // A page turned while a retry waits: only the newer page is sent.
    saver.report(8);
    vi.advanceTimersByTime(10);
    calls[3]!.fail(new Error('busy'));
    await flushMicrotasks();
    saver.report(9);
    vi.advanceTimersByTime(10_000);
    expect(calls.map((call) => call.page)).toEqual([7, 7, 7, 8, 9]);
    // A refusal the policy does not retry stays failed until the next change.
    calls[4]!.fail(new Error('forbidden'));
    await flushMicrotasks();
    vi.advanceTimersByTime(60_000);
    expect(calls).toHaveLength(5);
  });

  it('gives a newer page its own retries after an older one ran out of them', async () => {
    // A server restarting while pages are turned fails every save: the count ran on across pages, so
    // once the older pages had used up the tries, the last page of the session got none, and was lost.
    const { calls, save } = recorder();
    const retryDelayMs = (_error: unknown, attempt: number) => (attempt > 2 ? null : 1000);
    const saver = new ProgressSaver(save, { debounceMs: 10, retryDelayMs });
    saver.report(4);
    vi.advanceTimersByTime(10);
    for (let i = 0; i < 3; i++) {
      calls[i]!.fail(new Error('busy'));
      await flushMicrotasks();
      vi.advanceTimersByTime(1000);
    }
    // Page 4: sent once and retried twice, then left.
    expect(calls.map((call) => call.page)).toEqual([4, 4, 4]);
    saver.report(5);
    vi.advanceTimersByTime(10);
    calls[3]!.fail(new Error('busy'));
    await flushMicrotasks();
    vi.advanceTimersByTime(1000);
    expect(calls.map((call) => call.page)).toEqual([4, 4, 4, 5, 5]);
    calls[4]!.done();
    await flushMicrotasks();
    expect(saver.lastSaved).toBe(5);
  });

  it('says when a position will not reach the server: refused, or out of tries, with no newer one waiting', async () => {
    // A refusal (a page the book no longer has, a newer position saved from another device) was
    // written to the console only, and the reader went on as if the place were saved.
    const { calls, save } = recorder();
    const notSaved: [string, number][] = [];
    const retryDelayMs = (error: unknown, attempt: number) => ((error as Error).message === 'busy' && attempt <= 1 ? 1000 : null);
    const saver = new ProgressSaver(save, { debounceMs: 10, retryDelayMs, onNotSaved: (error, page) => notSaved.push([(error as Error).message, page]) });
    saver.report(7);
    vi.advanceTimersByTime(10);
    calls[0]!.fail(new Error('refused'));
    await flushMicrotasks();
    expect(notSaved).toEqual([['refused', 7]]);
    // Busy: tried again once, then out of tries.
    saver.report(8);
    vi.advanceTimersByTime(10);
    calls[1]!.fail(new Error('busy'));
    await flushMicrotasks();
    expect(notSaved).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    calls[2]!.fail(new Error('busy'));
    await flushMicrotasks();
    expect(notSaved).toEqual([['refused', 7], ['busy', 8]]);
    // A refused position replaced by a newer one waiting is not reported: the newer one goes out.
    saver.report(9);
    vi.advanceTimersByTime(10);
    saver.report(10);
    calls[3]!.fail(new Error('refused'));
    await flushMicrotasks();
    expect(notSaved).toHaveLength(2);
    vi.advanceTimersByTime(10);
    expect(calls.map((call) => call.page)).toEqual([7, 8, 8, 9, 10]);
  });

  it('flush sends a pending change at once and waits for it', async () => {
    const { calls, save } = recorder();
    const saver = new ProgressSaver(save, { debounceMs: 10_000 });
    saver.report(9);
    let flushed = false;
    const flushing = saver.flush().then(() => {
      flushed = true;
    });
    expect(calls.map((call) => call.page)).toEqual([9]);
    await flushMicrotasks();
    expect(flushed).toBe(false);
    calls[0]?.done();
    await flushing;
    expect(flushed).toBe(true);
  });

  it('ignores reports after dispose', async () => {
    const { calls, save } = recorder();
    const saver = new ProgressSaver(save, { debounceMs: 10 });
    await saver.dispose();
    saver.report(4);
    vi.advanceTimersByTime(100);
    expect(calls).toHaveLength(0);
  });

  it('takePending hands over the change still waiting, once, and cancels its timer', () => {
    const { calls, save } = recorder();
    const saver = new ProgressSaver(save, { debounceMs: 100 }, 3);
    saver.report(3);
    expect(saver.takePending()).toBeNull();
    saver.report(6);
    expect(saver.takePending()).toBe(6);
    expect(saver.takePending()).toBeNull();
    vi.advanceTimersByTime(500);
    expect(calls).toHaveLength(0);
  });

  it('positions other than page numbers (EPUB locators) are compared with the given sameness', async () => {
    const sent: { href: string; at: number }[] = [];
    const save = async (place: { href: string; at: number }) => void sent.push(place);
    const same = (a: { href: string; at: number }, b: { href: string; at: number }) => a.href === b.href && Math.abs(a.at - b.at) < 0.01;
    const saver = new ProgressSaver(save, { debounceMs: 10, same }, { href: 'ch1', at: 0.5 });
    saver.report({ href: 'ch1', at: 0.501 });
    vi.advanceTimersByTime(10);
    await flushMicrotasks();
    expect(sent).toEqual([]);
    saver.report({ href: 'ch2', at: 0 });
    vi.advanceTimersByTime(10);
    await flushMicrotasks();
    expect(sent).toEqual([{ href: 'ch2', at: 0 }]);
    expect(saver.takePending()).toBeNull();
  });
});
