import type { TurnResult } from '../../engine/ReaderSession.ts';

/** What the reader shell can ask of whichever view (paged or webtoon) is showing the book. */
export interface ViewController {
  next(): TurnResult;
  previous(): TurnResult;
  /** Webtoon ↓/↑: scrolls a little (1 down, -1 up), or says the strip is already at that end. */
  nudge?(direction: 1 | -1): TurnResult;
  first(): void;
  last(): void;
  goToPage(page: number): void;
  /** Zoom keys; only the paged view zooms. */
  zoom?(action: 'zoom-in' | 'zoom-out' | 'zoom-reset'): void;
}

/** Figures for the debug overlay. */
export interface ViewStats {
  cacheBytes: number;
  cacheBudget: number;
  decodedPages: number[];
  loadingPages: number[];
}
