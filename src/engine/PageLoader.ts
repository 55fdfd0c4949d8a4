import type { BitmapCache } from './BitmapCache.ts';
import type { DecodeRequest, DecodedPage, DrawableBitmap, PageDecoder, PageInfo, Size } from './types.ts';

/** What a view wants decoded for one page: an exact size when known, else a box to fit in. */
export interface WantedPage {
  size: Size | null;
  fitWithin: Size;
}

export interface PageLoaderOptions<B extends DrawableBitmap> {
  decoder: PageDecoder<B>;
  pageUrl: (page: PageInfo) => string;
  cache: BitmapCache<number, B>;
  page: (pageNumber: number) => PageInfo | undefined;
  /** After a bitmap landed in the cache. */
  onLoaded: (pageNumber: number, decoded: DecodedPage<B>) => void;
  /** After a decode failed for another reason than cancellation. */
  onFailed: (pageNumber: number, failure: PageFailure) => void;
  /** Added to each request's rank: a negative base puts this loader's requests ahead of others. */
  priorityBase?: number;
}

/**
 * Why a page could not be shown. `reason` is the decoder's category when it gives one ('http',
 * 'network', 'decode', 'worker'), so the interface can explain it in the reader's language; the
 * message is the technical detail.
 */
export interface PageFailure {
  reason: string;
  status?: number;
  message: string;
}

function toFailure(error: unknown): PageFailure {
  const details = (typeof error === 'object' && error !== null ? error : {}) as { reason?: unknown; status?: unknown };
  return {
    reason: typeof details.reason === 'string' ? details.reason : 'unknown',
    status: typeof details.status === 'number' ? details.status : undefined,
    message: error instanceof Error ? error.message : String(error),
  };
}

interface Load {
  controller: AbortController;
  size: Size | null;
}

function sameSize(a: Size, b: Size): boolean {
  // Rounding may differ by a pixel between a measured fit and a computed one.
  return Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1;
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/**
 * Keeps the decoder busy with exactly what a view wants: given the wanted pages in priority order,
 * it cancels loads nobody wants (or at a stale size), starts the missing ones with their priority,
 * and puts results in the cache. Shared by the paged and the webtoon views.
 */
export class PageLoader<B extends DrawableBitmap> {
  #options: PageLoaderOptions<B>;
  #loads = new Map<number, Load>();
  #errors = new Map<number, PageFailure>();
  /** The size each cached page was asked at: a decoder that cannot resize must not cause a request loop. */
  #requestedSize = new Map<number, Size>();
  #disposed = false;

  constructor(options: PageLoaderOptions<B>) {
    this.#options = options;
  }

  get loading(): number[] {
    return [...this.#loads.keys()];
  }

  errorOf(pageNumber: number): PageFailure | undefined {
    return this.#errors.get(pageNumber);
  }

  clearErrors(): void {
    this.#errors.clear();
  }

  /**
   * `wanted` is in priority order (first = most urgent); `pinned` pages must stay in the cache.
   * Only the first `startLimit` wanted pages may start loading now; later ones already loading go on.
   */
  update(wanted: ReadonlyMap<number, WantedPage>, pinned: Iterable<number>, startLimit = Number.POSITIVE_INFINITY): void {
    if (this.#disposed) return;
    const { cache } = this.#options;
    cache.pin(pinned);

    for (const [page, load] of this.#loads) {
      const want = wanted.get(page);
      const stillWanted = want && (want.size === null || load.size === null || sameSize(want.size, load.size));
      if (!stillWanted) {
        load.controller.abort();
        this.#loads.delete(page);
      }
    }

    // Touch from least to most urgent so the most urgent pages end up most recently used.
    const entries = [...wanted.entries()];
    for (const [page] of [...entries].reverse()) cache.get(page);

    for (const [priority, [page, want]] of entries.entries()) {
      if (priority >= startLimit) break;
      if (this.#loads.has(page) || this.#errors.has(page)) continue;
      const cached = cache.peek(page);
      const askedAt = this.#requestedSize.get(page);
      if (cached && (want.size === null || sameSize(cached, want.size) || (askedAt && sameSize(askedAt, want.size)))) {
        continue;
      }
      this.#load(page, want, (this.#options.priorityBase ?? 0) + priority);
    }
  }

  dispose(): void {
    this.#disposed = true;
    for (const load of this.#loads.values()) load.controller.abort();
    this.#loads.clear();
  }

  #load(pageNumber: number, want: WantedPage, priority: number): void {
    const page = this.#options.page(pageNumber);
    if (!page) return;
    const controller = new AbortController();
    const load: Load = { controller, size: want.size };
    this.#loads.set(pageNumber, load);
    const url = this.#options.pageUrl(page);
    const natural = page.width > 0 && page.height > 0 ? { width: page.width, height: page.height } : undefined;
    const request: DecodeRequest = want.size
      ? { url, size: want.size, natural, priority }
      : { url, fitWithin: want.fitWithin, priority };
    this.#options.decoder.decode(request, controller.signal).then(
      (decoded) => {
        if (this.#loads.get(pageNumber) !== load || this.#disposed) {
          // Finished after it stopped being wanted: free it now rather than at garbage collection.
          decoded.bitmap.close();
          return;
        }
        this.#loads.delete(pageNumber);
        this.#errors.delete(pageNumber);
        if (want.size) this.#requestedSize.set(pageNumber, want.size);
        else this.#requestedSize.delete(pageNumber);
        this.#options.cache.set(pageNumber, decoded.bitmap);
        this.#options.onLoaded(pageNumber, decoded);
      },
      (error: unknown) => {
        if (this.#loads.get(pageNumber) !== load) return;
        this.#loads.delete(pageNumber);
        if (isAbort(error) || this.#disposed) return;
        const failure = toFailure(error);
        this.#errors.set(pageNumber, failure);
        this.#options.onFailed(pageNumber, failure);
      },
    );
  }
}
