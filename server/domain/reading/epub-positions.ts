/**
 * A text EPUB's Readium positions, kept as one run per spine document rather than one object per
 * position. Positions follow the bytes of the documents (one per 1,024), so a small zip of highly
 * compressible chapters has hundreds of thousands: 2,000 chapters of 200 KB made 391,000 position
 * objects, too many for the publication cache to keep (every request built them again) and a
 * 91 MB answer. Runs cost one small object per document; a position is made only when asked for.
 */
export interface SpineResource {
  path: string;
  mediaType: string;
}

/** One Readium position: a place in a spine document, numbered from 1 across the book. */
export interface EpubPosition extends SpineResource {
  position: number;
  /** Where in its document the position starts (0..1). */
  progression: number;
  /** Where in the whole book it starts (0..1). */
  totalProgression: number;
}

interface Run extends SpineResource {
  /** Number of the document's first position (from 1). */
  first: number;
  count: number;
}

export class EpubPositions {
  readonly total: number;
  readonly #runs: Run[];

  /** `counts[i]` positions (at least 1) for `spine[i]`, in spine order. */
  constructor(spine: readonly SpineResource[], counts: readonly number[]) {
    let next = 1;
    this.#runs = spine.map(({ path, mediaType }, index) => {
      const count = Math.max(1, counts[index] ?? 1);
      const run = { path, mediaType, first: next, count };
      next += count;
      return run;
    });
    this.total = next - 1;
  }

  /** How many runs are held (what the cache weighs). */
  get documents(): number {
    return this.#runs.length;
  }

  /** Position `n` (from 1), or undefined outside 1..total. */
  at(n: number): EpubPosition | undefined {
    if (!Number.isInteger(n) || n < 1 || n > this.total) return undefined;
    let low = 0;
    let high = this.#runs.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#runs[middle]!.first <= n) low = middle;
      else high = middle - 1;
    }
    return this.#position(this.#runs[low]!, n - this.#runs[low]!.first);
  }

  /** Every position in documents at `path`, in order (a path the spine lists twice has both runs). */
  inDocument(path: string): EpubPosition[] {
    const found: EpubPosition[] = [];
    for (const run of this.#runs) {
      if (run.path !== path) continue;
      for (let k = 0; k < run.count; k++) found.push(this.#position(run, k));
    }
    return found;
  }

  /** Every position in order, made one at a time. */
  *[Symbol.iterator](): Generator<EpubPosition> {
    for (const run of this.#runs) for (let k = 0; k < run.count; k++) yield this.#position(run, k);
  }

  #position(run: Run, k: number): EpubPosition {
    const position = run.first + k;
    return { path: run.path, mediaType: run.mediaType, position, progression: k / run.count, totalProgression: (position - 1) / this.total };
  }
}
