import type { ReadingDirection } from '../api/types.ts';
import { BitmapCache, bitmapBytes } from './BitmapCache.ts';
import { decodeSize, hasKnownSize, layoutView, measureCorrects, type ViewLayout } from './layout.ts';
import { PageLoader, type PageFailure, type WantedPage } from './PageLoader.ts';
import { preloadOrder } from './preloadPlan.ts';
import { computeSpreads, spreadIndexOfPage, spreadPage, type Spread } from './spreads.ts';
import type {
  DrawableBitmap,
  PageDecoder,
  PageInfo,
  PageLayout,
  ScaleType,
  Size,
  Viewport,
} from './types.ts';

/** Paged reading directions; WEBTOON has its own continuous view. */
export type PagedDirection = Exclude<ReadingDirection, 'WEBTOON'>;

export interface ProgressSink {
  report(page: number): void;
}

export interface ReaderSessionOptions<B extends DrawableBitmap> {
  pages: readonly PageInfo[];
  decoder: PageDecoder<B>;
  pageUrl: (page: PageInfo) => string;
  viewport: Viewport;
  startPage?: number;
  scale?: ScaleType;
  layout?: PageLayout;
  offset?: boolean;
  direction?: PagedDirection;
  /** Byte budget of decoded pages (ignored when `cache` is given). */
  budgetBytes?: number;
  cache?: BitmapCache<number, B>;
  /**
   * A small stand-in image of a page (the server's page thumbnail). When given, a page that is not
   * decoded yet shows its preview, enlarged, until the real bitmap lands.
   */
  previewUrl?: (page: PageInfo) => string;
  /** Where page changes go; null (incognito) saves nothing. */
  progress?: ProgressSink | null;
  /** Whether opening the book counts as a page change to save (not when reopening a finished book). */
  reportStartPage?: boolean;
  preloadAhead?: number;
  preloadBehind?: number;
  /**
   * Spreads ahead whose previews are fetched once the page on screen is decoded, so that fast turns
   * beyond the preloaded pages show at least the preview, never an empty canvas. Default 10.
   */
  previewAhead?: number;
  /**
   * The page the book opens at gets its preview only if it is not decoded within this time (ms):
   * asking at once would have the server draw a thumbnail of the very page it is sending, beside
   * the decode being waited for. Default 400.
   */
  openingPreviewDelayMs?: number;
  /**
   * Runs `work` once the turn just shown has reached the screen (the view passes "after the next
   * frame"). A turn to a page already decoded then paints in its own task, and the preloads and
   * previews it makes due start after that frame, not before it. Default: at once.
   */
  afterPaint?: (work: () => void) => void;
}

export interface ReaderSnapshot {
  currentPage: number;
  pageCount: number;
  spreadIndex: number;
  spreadCount: number;
  spread: Spread;
  scale: ScaleType;
  layout: PageLayout;
  offset: boolean;
  direction: PagedDirection;
  /** Why a page on screen could not be decoded, if one could not. */
  error: PageFailure | null;
  /** That page: in a two-page spread not necessarily the page the spread stands for (currentPage). */
  errorPage: number | null;
  /** Bitmaps for every page on screen are available (maybe at a stale size while a sharper one loads). */
  ready: boolean;
  cacheBytes: number;
  cacheBudget: number;
}

/** What the canvas painter needs: where each page goes and the bitmap to draw there. */
export interface PaintView<B extends DrawableBitmap> {
  layout: ViewLayout;
  bitmaps: (B | undefined)[];
  /** Per slot: the bitmap is only the low-resolution preview. */
  previews: boolean[];
  spreadIndex: number;
  currentPage: number;
}

export type TurnResult = 'moved' | 'start' | 'end';

const DEFAULT_BUDGET = 256 * 1024 * 1024;
/** Previews are thumbnails (about 300 px): a few megabytes hold dozens. */
const PREVIEW_BUDGET = 16 * 1024 * 1024;
const PREVIEW_BOX: Size = { width: 400, height: 400 };

/**
 * The paged reader as a state machine: which spread is on screen, what must be decoded in which
 * order, what to cancel, what to keep. React subscribes to it; tests drive it directly.
 */
export class ReaderSession<B extends DrawableBitmap = DrawableBitmap> {
  readonly cache: BitmapCache<number, B>;
  #pages: PageInfo[];
  #byNumber = new Map<number, PageInfo>();
  #viewport: Viewport;
  #scale: ScaleType;
  #layout: PageLayout;
  #offset: boolean;
  #direction: PagedDirection;
  #progress: ProgressSink | null;
  #ahead: number;
  #behind: number;
  #spreads: Spread[] = [];
  #spreadIndex = 0;
  #loader: PageLoader<B>;
  #previewCache: BitmapCache<number, B>;
  #previewLoader: PageLoader<B> | null = null;
  #previewAhead: number;
  /** Until this timer fires (or the reader moves), the opening page asks for no preview. */
  #openingHold: ReturnType<typeof setTimeout> | null = null;
  #listeners = new Set<() => void>();
  #snapshot: ReaderSnapshot | null = null;
  #disposed = false;
  #afterPaint: (work: () => void) => void;
  /** A schedule is waiting for the frame that shows a turn (see `afterPaint`). */
  #schedulePending = false;

  constructor(options: ReaderSessionOptions<B>) {
    this.#pages = options.pages.map((page) => ({ ...page }));
    for (const page of this.#pages) this.#byNumber.set(page.number, page);
    this.#viewport = options.viewport;
    this.#scale = options.scale ?? 'screen';
    this.#layout = options.layout ?? 'single';
    this.#offset = options.offset ?? false;
    this.#direction = options.direction ?? 'LEFT_TO_RIGHT';
    this.#progress = options.progress ?? null;
    this.#ahead = options.preloadAhead ?? 3;
    this.#behind = options.preloadBehind ?? 1;
    this.#previewAhead = options.previewAhead ?? 10;
    this.#afterPaint = options.afterPaint ?? ((work) => work());
    this.cache = options.cache ?? new BitmapCache<number, B>(options.budgetBytes ?? DEFAULT_BUDGET);
    this.#loader = new PageLoader<B>({
      decoder: options.decoder,
      pageUrl: options.pageUrl,
      cache: this.cache,
      page: (pageNumber) => this.#byNumber.get(pageNumber),
      onLoaded: (pageNumber, decoded) => {
        const page = this.#byNumber.get(pageNumber);
        if (page && measureCorrects(page, decoded.naturalWidth, decoded.naturalHeight)) {
          this.#learnSize(page, decoded.naturalWidth!, decoded.naturalHeight!);
        }
        this.#changed();
      },
      onFailed: () => this.#notify(),
    });
    this.#previewCache = new BitmapCache<number, B>(PREVIEW_BUDGET);
    if (options.previewUrl) {
      this.#previewLoader = new PageLoader<B>({
        decoder: options.decoder,
        pageUrl: options.previewUrl,
        cache: this.#previewCache,
        page: (pageNumber) => this.#byNumber.get(pageNumber),
        // Only worth a repaint for a page on screen whose real bitmap is still missing.
        onLoaded: (pageNumber) => {
          const onScreen = this.#spreads[this.#spreadIndex]?.includes(pageNumber) ?? false;
          if (onScreen && !this.cache.has(pageNumber)) this.#notify();
        },
        onFailed: () => {},
        // Ahead of every full decode: a preview is tiny and shows something at once.
        priorityBase: -100,
      });
    }
    this.#spreads = computeSpreads(this.#pages, this.#layout, this.#offset);
    this.#spreadIndex = spreadIndexOfPage(this.#spreads, options.startPage ?? 1);
    if (options.reportStartPage ?? true) this.#progress?.report(this.currentPage);
    if (this.#previewLoader) {
      this.#openingHold = setTimeout(() => {
        this.#openingHold = null;
        this.#schedule();
      }, options.openingPreviewDelayMs ?? 400);
    }
    this.#schedule();
  }

  // ---- reading position ----

  get currentPage(): number {
    const spread = this.#spreads[this.#spreadIndex];
    return spread ? spreadPage(spread) : 1;
  }

  get pageCount(): number {
    return this.#pages.length;
  }

  get spreads(): readonly Spread[] {
    return this.#spreads;
  }

  next(): TurnResult {
    if (this.#spreadIndex >= this.#spreads.length - 1) return 'end';
    this.#moveTo(this.#spreadIndex + 1);
    return 'moved';
  }

  previous(): TurnResult {
    if (this.#spreadIndex <= 0) return 'start';
    this.#moveTo(this.#spreadIndex - 1);
    return 'moved';
  }

  goToPage(page: number): void {
    this.#moveTo(spreadIndexOfPage(this.#spreads, page));
  }

  first(): void {
    this.#moveTo(0);
  }

  last(): void {
    this.#moveTo(this.#spreads.length - 1);
  }

  // ---- settings that change what is drawn ----

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
    this.#changed();
  }

  get viewport(): Viewport {
    return this.#viewport;
  }

  setScale(scale: ScaleType): void {
    if (scale === this.#scale) return;
    this.#scale = scale;
    this.#changed();
  }

  setDirection(direction: PagedDirection): void {
    if (direction === this.#direction) return;
    this.#direction = direction;
    this.#changed();
  }

  /** Rebuilds spreads and stays on the spread holding the page being read. */
  setLayout(layout: PageLayout, offset = this.#offset): void {
    if (layout === this.#layout && offset === this.#offset) return;
    const page = this.currentPage;
    this.#layout = layout;
    this.#offset = offset;
    this.#spreads = computeSpreads(this.#pages, layout, offset);
    this.#spreadIndex = spreadIndexOfPage(this.#spreads, page);
    this.#changed();
  }

  // ---- what React and the painter read ----

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  getSnapshot = (): ReaderSnapshot => {
    if (!this.#snapshot) {
      const spread = this.#spreads[this.#spreadIndex] ?? [];
      const onScreen = spread.filter((page): page is number => page !== null);
      const errorPage = onScreen.find((page) => this.#loader.errorOf(page) !== undefined) ?? null;
      const error = errorPage === null ? undefined : this.#loader.errorOf(errorPage);
      this.#snapshot = {
        currentPage: this.currentPage,
        pageCount: this.#pages.length,
        spreadIndex: this.#spreadIndex,
        spreadCount: this.#spreads.length,
        spread,
        scale: this.#scale,
        layout: this.#layout,
        offset: this.#offset,
        direction: this.#direction,
        error: error ?? null,
        errorPage,
        ready: onScreen.every((page) => this.cache.has(page)),
        cacheBytes: this.cache.bytes,
        cacheBudget: this.cache.budget,
      };
    }
    return this.#snapshot;
  };

  /** The current spread placed on screen, in screen order (right-to-left reverses a spread). */
  getView(): PaintView<B> {
    const layout = this.#layoutOf(this.#spreadIndex, true);
    const full = layout.slots.map((slot) => (slot.page === null ? undefined : this.cache.peek(slot.page)));
    return {
      layout,
      bitmaps: layout.slots.map((slot, index) =>
        slot.page === null ? undefined : (full[index] ?? this.#previewCache.peek(slot.page)),
      ),
      previews: layout.slots.map((slot, index) => slot.page !== null && !full[index] && this.#previewCache.has(slot.page)),
      spreadIndex: this.#spreadIndex,
      currentPage: this.currentPage,
    };
  }

  /** Pages with a decode in progress (for tests and the debug overlay). */
  get loadingPages(): number[] {
    return this.#loader.loading;
  }

  /** Forgets a failed page so the next schedule asks for it again. */
  retry(): void {
    this.#loader.clearErrors();
    this.#changed();
  }

  dispose(): void {
    this.#disposed = true;
    this.#endOpeningHold();
    this.#loader.dispose();
    this.#previewLoader?.dispose();
    this.cache.clear();
    this.#previewCache.clear();
    this.#listeners.clear();
  }

  // ---- internals ----

  #moveTo(spreadIndex: number): void {
    const clamped = Math.max(0, Math.min(this.#spreads.length - 1, spreadIndex));
    if (clamped === this.#spreadIndex) return;
    this.#spreadIndex = clamped;
    this.#endOpeningHold();
    this.#progress?.report(this.currentPage);
    if (this.#disposed) return;
    if (!this.#onScreenDecoded()) {
      this.#changed();
      return;
    }
    // The pages turned to are decoded: show them first; what the turn makes due (preloads one
    // spread further, previews, cancellations) waits for that frame.
    this.#notify();
    if (this.#schedulePending) return;
    this.#schedulePending = true;
    this.#afterPaint(() => {
      this.#schedulePending = false;
      this.#schedule();
    });
  }

  #onScreenDecoded(): boolean {
    const spread = this.#spreads[this.#spreadIndex] ?? [];
    return spread.every((page) => page === null || this.cache.has(page));
  }

  #changed(): void {
    if (this.#disposed) return;
    this.#schedule();
    this.#notify();
  }

  #notify(): void {
    this.#snapshot = null;
    for (const listener of [...this.#listeners]) listener();
  }

  #layoutOf(spreadIndex: number, screenOrder: boolean): ViewLayout {
    const spread = this.#spreads[spreadIndex] ?? [];
    const entries = spread.map((page) => (page === null ? null : (this.#byNumber.get(page) ?? null)));
    if (screenOrder && this.#direction === 'RIGHT_TO_LEFT') entries.reverse();
    return layoutView(entries, this.#viewport, this.#scale);
  }

  /** Decode requests per page: an exact size when the page's dimensions are known, else a box to fit. */
  #wantedSizes(): Map<number, WantedPage> {
    const wanted = new Map<number, WantedPage>();
    const order = preloadOrder(this.#spreadIndex, this.#spreads.length, this.#ahead, this.#behind);
    let bytes = 0;
    for (const [position, spreadIndex] of order.entries()) {
      const layout = this.#layoutOf(spreadIndex, false);
      for (const slot of layout.slots) {
        if (slot.page === null || wanted.has(slot.page)) continue;
        const page = this.#byNumber.get(slot.page);
        if (!page) continue;
        const dpr = this.#viewport.devicePixelRatio;
        const size = hasKnownSize(page) ? decodeSize(page, slot.rect, dpr) : null;
        const estimate = size ?? { width: slot.rect.width * dpr, height: slot.rect.height * dpr };
        // Preloading more than the cache can hold would evict what was just decoded.
        if (position > 0 && bytes + bitmapBytes(estimate) > this.cache.budget * 0.8) return wanted;
        bytes += bitmapBytes(estimate);
        wanted.set(slot.page, { size, fitWithin: this.#fitBox(this.#viewport.width / layout.slots.length) });
      }
    }
    return wanted;
  }

  /** For a page of unknown size: the most pixels it can need, given the scale type. */
  #fitBox(slotWidth: number): Size {
    const dpr = this.#viewport.devicePixelRatio;
    const width = Math.max(1, Math.round(slotWidth * dpr));
    const height = Math.max(1, Math.round(this.#viewport.height * dpr));
    const unbounded = Number.POSITIVE_INFINITY;
    switch (this.#scale) {
      case 'screen':
        return { width, height };
      case 'width':
      case 'width_shrink_only':
        return { width, height: unbounded };
      case 'height':
        return { width: unbounded, height };
      case 'original':
        return { width: unbounded, height: unbounded };
    }
  }

  #schedule(): void {
    if (this.#disposed) return;
    const current = (this.#spreads[this.#spreadIndex] ?? []).filter((page): page is number => page !== null);
    // Until the pages on screen are decoded, nothing else starts: on two cores, three preloads
    // decoding beside the page being waited for nearly double its time. Preloads already running go on.
    const settled = current.every((page) => this.cache.has(page) || this.#loader.errorOf(page));
    this.#loader.update(this.#wantedSizes(), current, settled ? Number.POSITIVE_INFINITY : current.length);
    if (this.#previewLoader) {
      // Previews for the pages on screen that have no real bitmap yet, then (once those are decoded)
      // for the spreads ahead, so a fast reader outrunning the preloads still sees every page.
      const wanted = new Map<number, WantedPage>();
      const preview = { size: null, fitWithin: PREVIEW_BOX };
      const opening = this.#openingHold !== null;
      for (const page of current) {
        if (!this.cache.has(page) && !opening) wanted.set(page, preview);
      }
      const onScreen = wanted.size;
      for (let step = 1; step <= this.#previewAhead; step++) {
        for (const page of this.#spreads[this.#spreadIndex + step] ?? []) {
          if (page !== null && !this.cache.has(page)) wanted.set(page, preview);
        }
      }
      this.#previewLoader.update(wanted, [...wanted.keys()], settled ? Number.POSITIVE_INFINITY : onScreen);
    }
  }

  #endOpeningHold(): void {
    if (this.#openingHold === null) return;
    clearTimeout(this.#openingHold);
    this.#openingHold = null;
  }

  /** A page never measured, or listed at a wrong shape, just told us its size: spreads may pair differently now. */
  #learnSize(page: PageInfo, width: number, height: number): void {
    page.width = width;
    page.height = height;
    if (this.#layout !== 'single') {
      const current = this.currentPage;
      this.#spreads = computeSpreads(this.#pages, this.#layout, this.#offset);
      this.#spreadIndex = spreadIndexOfPage(this.#spreads, current);
    }
  }
}
