/**
 * Parsed EPUB publications (reading order, navigation, positions) kept per book while its file and
 * analysis stay the same, so reopening a very large book (1,000 chapters: thousands of positions, a
 * navigation document to parse) does not read its package again for the manifest and again for the
 * positions. The reader asks for both at once: they share one read. Bounded by the number of books
 * and by their total size (positions and resources counted); least recently used go first. A
 * failed read is not kept.
 */
interface Entry<T> {
  version: string;
  value: Promise<T>;
  weight: number;
}

export class PublicationCache<T> {
  #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  readonly #weigh: (value: T) => number;

  /** `weigh` tells how much a value holds, in items (positions, resources, navigation entries). */
  constructor(weigh: (value: T) => number, maxEntries = 16, maxWeight = 250_000) {
    this.#weigh = weigh;
    this.#maxEntries = maxEntries;
    this.#maxWeight = maxWeight;
  }

  /** The value for this book at this version: kept, or loaded (and kept) once for concurrent callers. */
  get(bookId: string, version: string, load: () => Promise<T>): Promise<T> {
    const known = this.#entries.get(bookId);
    if (known && known.version === version) {
      // Most recently used last.
      this.#entries.delete(bookId);
      this.#entries.set(bookId, known);
      return known.value;
    }
    const entry: Entry<T> = { version, value: load(), weight: 0 };
    this.#entries.delete(bookId);
    this.#entries.set(bookId, entry);
    entry.value.then(
      (value) => {
        if (this.#entries.get(bookId) !== entry) return;
        entry.weight = this.#weigh(value);
        this.#trim();
      },
      () => {
        if (this.#entries.get(bookId) === entry) this.#entries.delete(bookId);
      },
    );
    this.#trim();
    return entry.value;
  }

  forget(bookId: string): void {
    this.#entries.delete(bookId);
  }

  get size(): number {
    return this.#entries.size;
  }

  #trim(): void {
    let weight = 0;
    for (const entry of this.#entries.values()) weight += entry.weight;
    for (const [bookId, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && weight <= this.#maxWeight) break;
      this.#entries.delete(bookId);
      weight -= entry.weight;
    }
  }
}
