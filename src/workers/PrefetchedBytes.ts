import { pageBytesKey } from './pageBytesKey.ts';

/**
 * Page bytes fetched ahead on the main thread, before any decode worker runs: opening a book starts
 * the first page's download the moment its address is known, while the reader's code, the workers
 * and the book's descriptions still load. The decode pool takes the bytes from here (once) and hands
 * the Blob to a worker instead of fetching again. Entries are forgotten after `freshMs`.
 */
export class PrefetchedBytes {
  #entries = new Map<string, { at: number; bytes: Promise<Blob | null> }>();
  #freshMs: number;
  #fetch: typeof fetch;

  constructor(options: { freshMs?: number; fetch?: typeof fetch } = {}) {
    this.#freshMs = options.freshMs ?? 60_000;
    this.#fetch = options.fetch ?? ((...args) => fetch(...args));
  }

  /**
   * Starts downloading `url` unless it already is. A failed download (HTTP error, network) settles
   * to null, so the decode falls back to fetching it itself and reports that failure properly.
   */
  prefetch(url: string, headers?: Record<string, string>): void {
    const key = pageBytesKey(url);
    this.#expire();
    if (this.#entries.has(key)) return;
    const bytes = this.#fetch(new URL(url, globalThis.location?.href).href, { credentials: 'include', headers }).then(
      (response) => (response.ok ? response.blob() : null),
      () => null,
    ).catch(() => null);
    this.#entries.set(key, { at: Date.now(), bytes });
  }

  /** The bytes of `url` if they were prefetched (they may still be arriving); each entry is taken once. */
  take(url: string): Promise<Blob | null> | undefined {
    const key = pageBytesKey(url);
    this.#expire();
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    return entry.bytes;
  }

  has(url: string): boolean {
    this.#expire();
    return this.#entries.has(pageBytesKey(url));
  }

  #expire(): void {
    const now = Date.now();
    for (const [key, entry] of this.#entries) {
      if (now - entry.at > this.#freshMs) this.#entries.delete(key);
    }
  }
}
