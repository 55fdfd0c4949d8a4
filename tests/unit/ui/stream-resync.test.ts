import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announceStreamOpened, cancelStreamResync, onLiveResync, RESYNC_PAUSE_MS, RESYNC_SPREAD_MS } from '../../../src/ui/events/liveStore.ts';

/**
 * The live event stream (re)opening tells the views to reload what they show, once per opening and
 * never as a storm: a connection that opens and drops again and again (a flapping proxy, a server
 * restarting) gives at most one reload now and one at the end of each pause.
 */
describe('announceStreamOpened', () => {
  let calls = 0;
  let stop: () => void = () => undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    calls = 0;
    stop = onLiveResync(() => (calls += 1));
  });
  afterEach(() => {
    stop();
    cancelStreamResync();
    vi.useRealTimers();
  });

  it('an opening reloads the views at once', () => {
    announceStreamOpened();
    expect(calls).toBe(1);
  });

  it('ten openings within one pause give one reload now and one at its end', () => {
    for (let i = 0; i < 10; i += 1) {
      announceStreamOpened();
      vi.advanceTimersByTime(100);
    }
    expect(calls).toBe(1);
    vi.advanceTimersByTime(RESYNC_PAUSE_MS);
    expect(calls).toBe(2);
    vi.advanceTimersByTime(RESYNC_PAUSE_MS * 5);
    expect(calls).toBe(2);
  });

  it('a view that subscribes after the opening is not called (it loads fresh data itself)', () => {
    stop();
    announceStreamOpened();
    stop = onLiveResync(() => (calls += 1));
    vi.advanceTimersByTime(RESYNC_PAUSE_MS * 2);
    expect(calls).toBe(0);
  });

  it('a reopening waits a random moment of up to RESYNC_SPREAD_MS, so clients reconnecting together do not reload together', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    announceStreamOpened(true);
    expect(calls).toBe(0);
    vi.advanceTimersByTime(RESYNC_SPREAD_MS / 2 - 1);
    expect(calls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls).toBe(1);
    random.mockRestore();
  });

  it('a throwing view does not keep the others from reloading', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const stopBroken = onLiveResync(() => {
      throw new Error('broken view');
    });
    announceStreamOpened();
    stopBroken();
    expect(calls).toBe(1);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});
