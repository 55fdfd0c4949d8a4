/**
 * The chapters of one open book as they were cleaned (sanitizeMarkup.ts), so that building a
 * chapter's frame again reads and cleans nothing. The navigator builds every frame anew when the
 * layout switches between pages and scrolling, and rebuilds a frame it dropped after new settings:
 * each time it asked for the chapter again, and a 2 MB chapter was fetched, parsed and cleaned again
 * (about a second). The book's file is the one the reader opened (its manifest and positions are
 * from then too), so a chapter's address names its text for as long as the book is open.
 *
 * Kept as documents, most recently used last, up to `limitBytes` of the chapters' source (a cleaned
 * document takes several times its source in memory); a chapter larger than that is not kept. What
 * is handed out is a copy: the navigator adds its own elements to the document it is given.
 */
export class CleanedChapters {
  readonly #chapters = new Map<string, { doc: Document; bytes: number }>();
  #bytes = 0;
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  /** A copy of the chapter as cleaned and the size of its source, or undefined when it is not kept. */
  take(href: string): { doc: Document; bytes: number } | undefined {
    const kept = this.#chapters.get(href);
    if (!kept) return undefined;
    this.#chapters.delete(href);
    this.#chapters.set(href, kept);
    return { doc: kept.doc.cloneNode(true) as Document, bytes: kept.bytes };
  }

  /** Keeps `doc` (which its caller must not change afterwards), dropping the least recently used past the limit. */
  keep(href: string, doc: Document, bytes: number): void {
    this.#drop(href);
    if (bytes > this.limitBytes) return;
    this.#chapters.set(href, { doc, bytes });
    this.#bytes += bytes;
    for (const oldest of this.#chapters.keys()) {
      if (this.#bytes <= this.limitBytes) break;
      this.#drop(oldest);
    }
  }

  get size(): number {
    return this.#chapters.size;
  }

  clear(): void {
    this.#chapters.clear();
    this.#bytes = 0;
  }

  #drop(href: string): void {
    const kept = this.#chapters.get(href);
    if (!kept) return;
    this.#chapters.delete(href);
    this.#bytes -= kept.bytes;
  }
}
