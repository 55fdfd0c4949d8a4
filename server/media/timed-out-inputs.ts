import { OperationTimeout, RecentlyTimedOut } from './transient-errors.ts';

/** The longest an input that keeps running out of time is refused for. */
export const TIMED_OUT_FOR_MS = 10 * 60_000;
/**
 * How long an input is refused after its first time-out; each time-out in a row doubles it, up to
 * TIMED_OUT_FOR_MS: 1, 2, 4, 8, 10, 10 … minutes.
 */
export const FIRST_REFUSAL_MS = 60_000;
/** Inputs remembered at most; the least recently asked for go first. */
const MAX_REMEMBERED = 1024;

interface Strikes {
  /** When the last time-out in a row happened. */
  at: number;
  /** How long it is refused for from then. */
  forMs: number;
}

/**
 * Inputs whose work ran out of time lately (a PDF page mupdf draws for ever, an image libvips
 * decodes for ever, an EPUB's navigation 7-Zip unpacks for ever): asked again while refused they
 * fail at once with RecentlyTimedOut (a 503 whose Retry-After says until when) instead of taking a
 * worker, and a core, for another whole time limit (every reader scrolling past the book's poster
 * would, one after the other).
 *
 * The refusal grows with the time-outs in a row (FIRST_REFUSAL_MS, doubled each time, at most
 * TIMED_OUT_FOR_MS) and a success forgets them: one time-out on a loaded machine shuts a book's
 * page out for a minute, not ten, while a truly hostile input costs a worker about once every ten
 * minutes. Keys name the input's version (book, page, file date and size), so a changed file is
 * tried again. Memory only and bounded (least recently used out): a time-out is never recorded
 * against a book.
 */
export class TimedOutInputs {
  readonly #strikes = new Map<string, Strikes>();
  /** Inputs being worked on now: settles when that work ends, however it ends. */
  readonly #running = new Map<string, Promise<void>>();
  readonly #firstMs: number;
  readonly #maxForMs: number;
  readonly #max: number;

  constructor(options: { firstMs?: number; forMs?: number; max?: number } = {}) {
    this.#maxForMs = options.forMs ?? TIMED_OUT_FOR_MS;
    this.#firstMs = Math.min(options.firstMs ?? FIRST_REFUSAL_MS, this.#maxForMs);
    this.#max = options.max ?? MAX_REMEMBERED;
  }

  /** Inputs remembered now (for tests). */
  get size(): number {
    return this.#strikes.size;
  }

  /**
   * Runs `work` for `key` unless that input is refused now (then fails at once, naming `what` and
   * the time limit `limitMs` it ran out of); a time-out of `work` starts or lengthens the refusal
   * and fails with a RecentlyTimedOut saying for how long, caused by the time-out.
   */
  async run<T>(key: string, what: string, limitMs: number, work: () => Promise<T>): Promise<T> {
    // Asked for while that input is being worked on: wait for it to end first. A time out is only
    // known once the first call ends, and every reader asking meanwhile would otherwise take a
    // worker for a whole time limit in turn (six readers of a hostile RAR page: six times 30 s of
    // the one RAR worker). Work on one input runs one call at a time; most take milliseconds.
    for (let ahead = this.#running.get(key); ahead; ahead = this.#running.get(key)) await ahead;
    const leftMs = this.#refusedFor(key, Date.now());
    if (leftMs > 0) throw new RecentlyTimedOut(what, limitMs, Math.ceil(leftMs / 1000));
    const attempt = (async () => {
      let result: T;
      try {
        result = await work();
      } catch (error) {
        // Remembered before those waiting are woken, so they fail at once.
        if (!(error instanceof OperationTimeout)) throw error;
        const forMs = this.#remember(key, Date.now());
        throw new RecentlyTimedOut(what, limitMs, Math.ceil(forMs / 1000), { justNow: true, cause: error });
      }
      // Read in time: earlier time-outs were the machine's moment, not the input's.
      this.#strikes.delete(key);
      return result;
    })();
    const settled = attempt.then(
      () => undefined,
      () => undefined,
    );
    this.#running.set(key, settled);
    try {
      return await attempt;
    } finally {
      if (this.#running.get(key) === settled) this.#running.delete(key);
    }
  }

  /** Milliseconds the input is still refused for (0: not refused; its time-outs in a row are kept until it is read in time). */
  #refusedFor(key: string, now: number): number {
    const strikes = this.#strikes.get(key);
    if (strikes === undefined) return 0;
    // Asked for again: the most recently used now.
    this.#strikes.delete(key);
    this.#strikes.set(key, strikes);
    return Math.max(0, strikes.at + strikes.forMs - now);
  }

  /** Records a time-out of `key`; returns how long it is refused for. */
  #remember(key: string, now: number): number {
    const before = this.#strikes.get(key);
    const forMs = before ? Math.min(before.forMs * 2, this.#maxForMs) : this.#firstMs;
    this.#strikes.delete(key);
    this.#strikes.set(key, { at: now, forMs });
    for (const oldest of this.#strikes.keys()) {
      if (this.#strikes.size <= this.#max) break;
      this.#strikes.delete(oldest);
    }
    return forMs;
  }
}
