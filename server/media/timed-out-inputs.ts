import { OperationTimeout } from './transient-errors.ts';

/** How long an input that ran out of time fails at once. */
export const TIMED_OUT_FOR_MS = 10 * 60_000;
/** Inputs remembered at most; the least recently asked for go first. */
const MAX_REMEMBERED = 1024;

/**
 * Inputs whose work ran out of time lately (a PDF page mupdf draws for ever, an image libvips
 * decodes for ever): asked again within TIMED_OUT_FOR_MS they fail at once with OperationTimeout
 * instead of taking a worker, and a core, for another whole time limit (every reader scrolling
 * past the book's poster would, one after the other). Keys name the input's version (book, page,
 * file date and size), so a changed file is tried again. Memory only and bounded (least recently
 * used out): a time out is never recorded against a book, and the input is tried again later.
 */
export class TimedOutInputs {
  readonly #failedAt = new Map<string, number>();
  readonly #forMs: number;
  readonly #max: number;

  constructor(options: { forMs?: number; max?: number } = {}) {
    this.#forMs = options.forMs ?? TIMED_OUT_FOR_MS;
    this.#max = options.max ?? MAX_REMEMBERED;
  }

  /** Inputs remembered now (for tests). */
  get size(): number {
    return this.#failedAt.size;
  }

  /**
   * Runs `work` for `key` unless that input ran out of time lately (then fails at once, naming
   * `what` and the time limit `limitMs` it ran out of); remembers the input when `work` does.
   */
  async run<T>(key: string, what: string, limitMs: number, work: () => Promise<T>): Promise<T> {
    if (this.#timedOutLately(key, Date.now())) throw new OperationTimeout(`${what} (ran out of time lately)`, limitMs);
    try {
      return await work();
    } catch (error) {
      if (error instanceof OperationTimeout) this.#remember(key, Date.now());
      throw error;
    }
  }

  #timedOutLately(key: string, now: number): boolean {
    const failedAt = this.#failedAt.get(key);
    if (failedAt === undefined) return false;
    this.#failedAt.delete(key);
    if (now - failedAt >= this.#forMs) return false;
    // Asked for again: the most recently used now.
    this.#failedAt.set(key, failedAt);
    return true;
  }

  #remember(key: string, now: number): void {
    this.#failedAt.delete(key);
    this.#failedAt.set(key, now);
    for (const oldest of this.#failedAt.keys()) {
      if (this.#failedAt.size <= this.#max) break;
      this.#failedAt.delete(oldest);
    }
  }
}
