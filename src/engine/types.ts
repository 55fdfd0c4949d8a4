/**
 * Shapes the reader engine works with. The engine is plain TypeScript: it never touches the DOM,
 * never imports React, and only knows the decoder and the bitmaps through these interfaces, so tests
 * drive it with fakes and the UI plugs in the real worker pool.
 */

/** What the engine knows about a page before any pixel arrives (from PageDto). 0 = unknown dimension. */
export interface PageInfo {
  /** 1-based, as in the Komga API. */
  number: number;
  width: number;
  height: number;
  mediaType: string;
}

/** The drawing area in CSS pixels, and how many device pixels one CSS pixel covers. */
export interface Viewport {
  width: number;
  height: number;
  devicePixelRatio: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Rect extends Size {
  x: number;
  y: number;
}

export const SCALE_TYPES = ['screen', 'width', 'width_shrink_only', 'height', 'original'] as const;
export type ScaleType = (typeof SCALE_TYPES)[number];

export const PAGE_LAYOUTS = ['single', 'double', 'double_no_cover'] as const;
export type PageLayout = (typeof PAGE_LAYOUTS)[number];

/** Anything drawable that holds memory until closed: ImageBitmap in the browser, fakes in tests. */
export interface DrawableBitmap {
  readonly width: number;
  readonly height: number;
  close(): void;
}

/**
 * One decode job. Either an exact device-pixel size (dimensions known up front), or a box the
 * decoded image must fit in (dimensions unknown: the decoder measures, then shrinks if needed).
 */
export interface DecodeRequest {
  url: string;
  size?: Size;
  /** The page's own size when known (lets the decoder work at a reduced scale). */
  natural?: Size;
  fitWithin?: Size;
  /** Lower runs first. */
  priority?: number;
}

export interface DecodedPage<B extends DrawableBitmap = DrawableBitmap> {
  bitmap: B;
  /**
   * The image's own size when the decoder measured it (fitWithin requests, and a page whose listed
   * size turned out to have another shape than the image), else null.
   */
  naturalWidth: number | null;
  naturalHeight: number | null;
}

/** The worker pool as the engine sees it. Rejects with an AbortError when the signal fires. */
export interface PageDecoder<B extends DrawableBitmap = DrawableBitmap> {
  decode(request: DecodeRequest, signal?: AbortSignal): Promise<DecodedPage<B>>;
}
