export type SaveProgress<T = number> = (position: T) => Promise<void>;

export interface ProgressSaverOptions<T = number> {
  /** Quiet time after the last page change before saving; flipping fast sends one request, not twenty. */
  debounceMs?: number;
  onError?: (error: unknown) => void;
  /**
   * A failed save that nothing will send again: the server refused it (retryDelayMs says null: a
   * page the book no longer has, a newer position saved elsewhere) or it ran out of tries, and no
   * later position is waiting to replace it. The reader says so; otherwise the place was lost silently.
   */
  onNotSaved?: (error: unknown, position: T) => void;
  /**
   * How long to wait before sending again a save that failed with `error` (its `attempt`th failure
   * in a row, from 1), or null to leave it until the next change. Without it nothing is retried.
   */
  retryDelayMs?: (error: unknown, attempt: number) => number | null;
  /** Whether two positions are the same place (default: ===); an unchanged position is not re-sent. */
  same?: (a: T, b: T) => boolean;
}

/**
 * Saves the reading position without ever getting in the way of reading: page changes are debounced,
 * at most one request is in flight (a change made meanwhile is sent once it settles, only the latest
 * page), and nothing is sent for a page the server already has. Page images travel through the
 * workers, so a slow save never delays a page. A position is a page number for page readers and a
 * Readium locator for the EPUB reader.
 */
export class ProgressSaver<T = number> {
  #save: SaveProgress<T>;
  #debounceMs: number;
  #onError: (error: unknown) => void;
  #onNotSaved: (error: unknown, position: T) => void;
  #retryDelayMs: (error: unknown, attempt: number) => number | null;
  #failures = 0;
  /** The position whose saves `#failures` counts: a different one starts its own count. */
  #failing: T | null = null;
  #same: (a: T, b: T) => boolean;
  #pending: T | null = null;
  #lastSaved: T | null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #inFlight: Promise<void> | null = null;
  #disposed = false;

  /** `alreadySaved` is the page the server holds, so reopening a book does not re-save it. */
  constructor(save: SaveProgress<T>, options: ProgressSaverOptions<T> = {}, alreadySaved: NoInfer<T> | null = null) {
    this.#save = save;
    this.#debounceMs = options.debounceMs ?? 300;
    this.#onError = options.onError ?? (() => {});
    this.#onNotSaved = options.onNotSaved ?? (() => {});
    this.#retryDelayMs = options.retryDelayMs ?? (() => null);
    this.#same = options.same ?? ((a, b) => a === b);
    this.#lastSaved = alreadySaved;
  }

  get lastSaved(): T | null {
    return this.#lastSaved;
  }

  get busy(): boolean {
    return this.#inFlight !== null || this.#timer !== null;
  }

  report(page: T): void {
    if (this.#disposed) return;
    this.#pending = page;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#sendNext();
    }, this.#debounceMs);
  }

  /** Sends a pending change now (leaving the reader) and resolves once everything is saved. */
  async flush(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    this.#sendNext();
    while (this.#inFlight) await this.#inFlight;
  }

  /**
   * For a page about to close: hands over the change still waiting for its debounce (if the server
   * does not have it yet) so it can be sent in a way that survives the page; null when none.
   */
  takePending(): T | null {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    const page = this.#pending;
    this.#pending = null;
    if (page === null || this.#isSaved(page)) return null;
    this.#lastSaved = page;
    return page;
  }

  /** Flushes, then ignores any later report. */
  async dispose(): Promise<void> {
    await this.flush();
    this.#disposed = true;
  }

  /**
   * A save the server could not take now (busy, out of connections, the network gone) is sent again
   * after a while: otherwise the last page of a session, with no page turn after it to carry a new
   * save, was lost, and the book reopened pages earlier. A change made meanwhile replaces it.
   */
  #retryLater(page: T, error: unknown): void {
    const delay = this.#disposed ? null : this.#retryDelayMs(error, ++this.#failures);
    // A newer position waiting to be sent replaces this one: nothing is lost then.
    if (this.#pending !== null || this.#timer !== null) return;
    if (delay === null) {
      if (!this.#disposed) this.#onNotSaved(error, page);
      return;
    }
    this.#pending = page;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#sendNext();
    }, delay);
  }

  #isSaved(position: T): boolean {
    return this.#lastSaved !== null && this.#same(position, this.#lastSaved);
  }

  #sendNext(): void {
    if (this.#inFlight || this.#pending === null) return;
    const page = this.#pending;
    this.#pending = null;
    if (this.#isSaved(page)) return;
    // Tries are counted per position: pages turned while the server was away must not use up the
    // tries of the last one, which no later page turn will carry to the server.
    if (this.#failing !== null && !this.#same(page, this.#failing)) this.#failures = 0;
    this.#inFlight = this.#save(page).then(
      () => {
        this.#lastSaved = page;
        this.#failures = 0;
        this.#failing = null;
      },
      (error: unknown) => {
        this.#failing = page;
        this.#onError(error);
        this.#retryLater(page, error);
      },
    );
    void this.#inFlight.finally(() => {
      this.#inFlight = null;
      // A change that came in while this request was out waits for its own debounce if still running.
      if (this.#timer === null) this.#sendNext();
    });
  }
}
