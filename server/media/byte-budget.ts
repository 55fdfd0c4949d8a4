import { ServerBusy } from './transient-errors.ts';

/** How long a request waits for bytes to be given back before it is answered "busy" (503), as file slots and the archive pool do. */
const DEFAULT_WAIT_MS = 15_000;

/** Bytes counted for one holder; `settle` changes the count without waiting, `release` gives them all back (once). */
export interface ByteReservation {
  readonly bytes: number;
  settle(bytes: number): void;
  release(): void;
}

/**
 * Bytes that requests hold in memory past their decode, shared by all of them: a page converted to
 * PNG or JPEG exists whole once encoded (sharp hands its output over in one piece, even as a
 * stream) and stays in memory until its client has it. Past `capacity` a request waits for bytes
 * to be given back (up to `waitMs`, then ServerBusy: 503 with Retry-After), the same policy as file
 * slots and the archive pool's whole-read budget. A request alone may take more than `capacity`
 * (it is counted as `capacity` until its true size is known), so a large page is slow under load,
 * never impossible.
 */
export class ByteBudget {
  capacity: number;
  waitMs: number;
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(capacity: number, waitMs = DEFAULT_WAIT_MS) {
    this.capacity = capacity;
    this.waitMs = waitMs;
  }

  /** Bytes counted right now (for tests and load figures). */
  get inUse(): number {
    return this.used;
  }

  /**
   * Counts `bytes` (at most `capacity`) once they fit, waiting up to `waitMs` (default the budget's;
   * Infinity for background work, which waits its turn instead of failing); ServerBusy after that.
   */
  async reserve(bytes: number, what: string, waitMs = this.waitMs): Promise<ByteReservation> {
    const wanted = Math.min(Math.max(0, Math.ceil(bytes)), this.capacity);
    const deadline = Date.now() + waitMs;
    while (this.used + wanted > this.capacity) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ServerBusy(`too many ${what} are held at once`);
      await this.waitFor(remaining);
    }
    this.used += wanted;
    let held = wanted;
    let released = false;
    const budget = this;
    return {
      get bytes() {
        return held;
      },
      settle(bytes: number) {
        if (released) return;
        budget.used += bytes - held;
        held = bytes;
        budget.wake();
      },
      release() {
        if (released) return;
        released = true;
        budget.used -= held;
        held = 0;
        budget.wake();
      },
    };
  }

  /** Resolves when bytes are given back or after `ms` (never, when Infinity), whichever comes first. */
  private waitFor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      // setTimeout would fire at once for Infinity (past its 2^31 - 1 ms limit).
      const timer = ms === Infinity ? undefined : setTimeout(() => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve();
      }, ms);
      this.waiting.push(wake);
    });
  }

  /** Every waiter looks again; those that still do not fit wait on. */
  private wake(): void {
    for (const wake of this.waiting.splice(0)) wake();
  }
}
