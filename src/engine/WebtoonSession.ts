import { BitmapCache } from './BitmapCache.ts';
import { decodeSize, hasKnownSize, measureCorrects } from './layout.ts';
import { PageLoader, type PageFailure, type WantedPage } from './PageLoader.ts';
import type { ProgressSink } from './ReaderSession.ts';
import type { WebtoonScale } from './readerSettings.ts';
import type { DrawableBitmap, PageDecoder, PageInfo, Viewport } from './types.ts';
import { currentWebtoonPage, itemIndexAt, webtoonLayout, type WebtoonItem, type WebtoonLayout } from './webtoonLayout.ts';

export interface WebtoonSessionOptions<B extends DrawableBitmap> {
  pages: readonly PageInfo[];
  decoder: PageDecoder<B>;
  pageUrl: (page: PageInfo) => string;
  viewport: Viewport;
  scale?: WebtoonScale;
  sidePadding?: number;
  margin?: number;
  startPage?: number;
  progress?: ProgressSink | null;
  reportStartPage?: boolean;
  budgetBytes?: number;
  /** Pages beyond the visible ones (each way) that are decoded ahead of scrolling. */
  overscan?: number;
}

export interface WebtoonSnapshot {
  currentPage: number;
  pageCount: number;
  layout: WebtoonLayout;
  /** Pages currently holding a bitmap, for the debug overlay and tests. */
  decodedPages: number[];
  cacheBytes: number;
  cacheBudget: number;
  /** Bumped whenever a bitmap arrives or a page fails, so slots know to redraw. */
  version: number;
}

/**
 * The continuous (webtoon) reader: a strip whose page heights are known up front. Only the visible
 * pages plus a small overscan hold bitmaps; everything else is closed at once, so memory stays flat
 * on a strip of a thousand pages.
 */
export class WebtoonSession<B extends DrawableBitmap = DrawableBitmap> {
  readonly cache: BitmapCache<number, B>;
  #pages: PageInfo[];
  #byNumber = new Map<number, PageInfo>();
  #viewport: Viewport;
  #scale: WebtoonScale;
  #sidePadding: number;
  #margin: number;
  #overscan: number;
  #progress: ProgressSink | null;
  #loader: PageLoader<B>;
  #layout: WebtoonLayout;
  #visible: [number, number] = [1, 1];
  #currentPage: number;
  #version = 0;
  #listeners = new Set<() => void>();
  #snapshot: WebtoonSnapshot | null = null;
  #disposed = false;

  constructor(options: WebtoonSessionOptions<B>) {
    this.#pages = options.pages.map((page) => ({ ...page }));
    for (const page of this.#pages) this.#byNumber.set(page.number, page);
    this.#viewport = options.viewport;
    this.#scale = options.scale ?? 'continuous_width';
    this.#sidePadding = options.sidePadding ?? 0;
    this.#margin = options.margin ?? 0;
    this.#overscan = options.overscan ?? 2;
    this.#progress = options.progress ?? null;
    this.cache = new BitmapCache<number, B>(options.budgetBytes ?? 256 * 1024 * 1024);
    this.#loader = new PageLoader<B>({
      decoder: options.decoder,
      pageUrl: options.pageUrl,
      cache: this.cache,
      page: (pageNumber) => this.#byNumber.get(pageNumber),
      onLoaded: (pageNumber, decoded) => {
        const page = this.#byNumber.get(pageNumber);
        if (page && measureCorrects(page, decoded.naturalWidth, decoded.naturalHeight)) {
          page.width = decoded.naturalWidth!;
          page.height = decoded.naturalHeight!;
          this.#relayout();
        }
        this.#version++;
        this.#notify();
      },
      onFailed: () => {
        this.#version++;
        this.#notify();
      },
    });
    this.#layout = this.#computeLayout();
    const start = Math.min(Math.max(1, options.startPage ?? 1), Math.max(1, this.#pages.length));
    this.#currentPage = start;
    this.#visible = [start, start];
    if (options.reportStartPage ?? true) this.#progress?.report(start);
    this.#schedule();
  }

  get layout(): WebtoonLayout {
    return this.#layout;
  }

  get currentPage(): number {
    return this.#currentPage;
  }

  get viewport(): Viewport {
    return this.#viewport;
  }

  /** Top of a page in the strip, to scroll to it. */
  offsetOf(page: number): number {
    return this.#layout.items[page - 1]?.top ?? 0;
  }

  bitmapFor(page: number): B | undefined {
    return this.cache.peek(page);
  }

  /** Why the page could not be shown. A failed page is not asked for again until `retry()`. */
  failureOf(page: number): PageFailure | undefined {
    return this.#loader.errorOf(page);
  }

  /**
   * Forgets every failure: the failed pages in the window are asked for again now, the others when
   * they come back into it. All of them, not one: pages usually fail together (the server or the
   * network was down).
   */
  retry(): void {
    if (this.#disposed) return;
    this.#loader.clearErrors();
    this.#version++;
    this.#schedule();
    this.#notify();
  }

  /**
   * The page's pixels are gone although its bitmap is cached (the view handed the bitmap to a canvas
   * that has since been let go): drop it and, if the page is still wanted, decode it again.
   */
  redecode(page: number): void {
    if (this.#disposed || !this.cache.has(page)) return;
    this.cache.delete(page);
    this.#schedule();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  getSnapshot = (): WebtoonSnapshot => {
    this.#snapshot ??= {
      currentPage: this.#currentPage,
      pageCount: this.#pages.length,
      layout: this.#layout,
      decodedPages: this.cache.keys().sort((a, b) => a - b),
      cacheBytes: this.cache.bytes,
      cacheBudget: this.cache.budget,
      version: this.#version,
    };
    return this.#snapshot;
  };

  /** The pages (1-based, inclusive) the virtual list currently shows. */
  setVisibleRange(first: number, last: number): void {
    if (first === this.#visible[0] && last === this.#visible[1]) return;
    this.#visible = [first, last];
    this.#schedule();
    this.#notify();
  }

  /** Called on scroll: works out the visible pages and the current one (reported when it changes). */
  setScroll(scrollTop: number): void {
    const { items } = this.#layout;
    if (items.length === 0) return;
    const first = (items[itemIndexAt(items, scrollTop)] as WebtoonItem).page;
    const last = (items[itemIndexAt(items, scrollTop + this.#viewport.height - 1)] as WebtoonItem).page;
    this.setVisibleRange(first, last);
    const page = currentWebtoonPage(this.#layout, scrollTop, this.#viewport.height);
    if (page === this.#currentPage) return;
    this.#currentPage = page;
    this.#progress?.report(page);
    this.#notify();
  }

  setViewport(viewport: Viewport): void {
    const current = this.#viewport;
    if (
      current.width === viewport.width &&
      current.height === viewport.height &&
      current.devicePixelRatio === viewport.devicePixelRatio
    ) {
      return;
    }
    this.#viewport = viewport;
    this.#relayout();
    this.#schedule();
    this.#notify();
  }

  setPresentation(scale: WebtoonScale, sidePadding: number, margin: number): void {
    if (scale === this.#scale && sidePadding === this.#sidePadding && margin === this.#margin) return;
    this.#scale = scale;
    this.#sidePadding = sidePadding;
    this.#margin = margin;
    this.#relayout();
    this.#schedule();
    this.#notify();
  }

  dispose(): void {
    this.#disposed = true;
    this.#loader.dispose();
    this.cache.clear();
    this.#listeners.clear();
  }

  #computeLayout(): WebtoonLayout {
    return webtoonLayout(this.#pages, this.#viewport.width, this.#scale, this.#sidePadding, this.#margin);
  }

  #relayout(): void {
    this.#layout = this.#computeLayout();
  }

  #notify(): void {
    if (this.#disposed) return;
    this.#snapshot = null;
    for (const listener of [...this.#listeners]) listener();
  }

  #schedule(): void {
    if (this.#disposed) return;
    const [first, last] = this.#visible;
    const count = this.#pages.length;
    const order: number[] = [];
    for (let page = first; page <= last; page++) order.push(page);
    // Ahead first (the usual scroll direction), then behind.
    for (let step = 1; step <= this.#overscan; step++) order.push(last + step);
    for (let step = 1; step <= this.#overscan; step++) order.push(first - step);
    const wanted = new Map<number, WantedPage>();
    const dpr = this.#viewport.devicePixelRatio;
    for (const pageNumber of order) {
      if (pageNumber < 1 || pageNumber > count || wanted.has(pageNumber)) continue;
      const page = this.#byNumber.get(pageNumber) as PageInfo;
      const item = this.#layout.items[pageNumber - 1];
      if (!item) continue;
      const displayed = { width: item.imageWidth, height: item.imageHeight };
      wanted.set(pageNumber, {
        size: hasKnownSize(page) ? decodeSize(page, displayed, dpr) : null,
        fitWithin: {
          width:
            this.#scale === 'continuous_width'
              ? Math.max(1, Math.round(item.imageWidth * dpr))
              : Number.POSITIVE_INFINITY,
          height: Number.POSITIVE_INFINITY,
        },
      });
    }
    // Flat memory: pages that scrolled out of the window let go of their bitmaps right away.
    for (const page of this.cache.keys()) {
      if (!wanted.has(page)) this.cache.delete(page);
    }
    const visible: number[] = [];
    for (let page = first; page <= last; page++) visible.push(page);
    this.#loader.update(wanted, visible);
  }
}
