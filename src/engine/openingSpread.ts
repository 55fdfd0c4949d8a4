import { decodeSize, hasKnownSize, layoutView, type ViewLayout } from './layout.ts';
import { computeSpreads, spreadIndexOfPage, spreadPage, type Spread } from './spreads.ts';
import type { PageInfo, PageLayout, ScaleType, Size, Viewport } from './types.ts';

/** A page of the spread on screen and the exact device-pixel size the paged reader decodes it at. */
export interface SpreadDecode {
  page: number;
  size: Size;
}

/**
 * The exact decode size of each page of `spread` whose dimensions are known, in reading order: the
 * paged reader's own computation (ReaderSession asks the decoder for exactly these), shared so that a
 * decode started before the reader exists asks for the same bitmap. Pages of unknown size are left out
 * (the reader asks for them with a box to fit in, not a size).
 */
export function spreadDecodes(
  spread: Spread,
  byNumber: (page: number) => PageInfo | undefined,
  viewport: Viewport,
  scale: ScaleType,
): SpreadDecode[] {
  const entries = spread.map((page) => (page === null ? null : (byNumber(page) ?? null)));
  const layout = layoutView(entries, viewport, scale);
  const decodes: SpreadDecode[] = [];
  for (const slot of layout.slots) {
    const page = slot.page === null ? undefined : byNumber(slot.page);
    if (!page || !hasKnownSize(page)) continue;
    decodes.push({ page: page.number, size: decodeSize(page, slot.rect, viewport.devicePixelRatio) });
  }
  return decodes;
}

export interface OpeningView {
  pages: readonly PageInfo[];
  startPage: number;
  viewport: Viewport;
  scale: ScaleType;
  layout: PageLayout;
  offset: boolean;
}

/**
 * What the paged reader will decode first when it opens at `startPage`: the pages of the spread
 * holding it, at their exact sizes. Lets the first page's decode start as soon as its bytes and the
 * page list are there, before the reader's view is built.
 */
export function openingDecodes(view: OpeningView): SpreadDecode[] {
  return openingScreen(view, false).decodes;
}

/** The opening spread as the paged reader shows it: its pages placed on screen, and their decodes. */
export interface OpeningScreen {
  /** Slots in screen order (a right-to-left spread reversed), as the reader's view lays them out. */
  layout: ViewLayout;
  decodes: SpreadDecode[];
  /** The page the reader counts the spread as (its higher real page). */
  currentPage: number;
}

/**
 * The opening spread laid out exactly as the paged reader's view lays it out (ReaderSession's
 * layout of its current spread), so that a first frame painted before the reader exists lands on the
 * pixels the reader then paints over it.
 */
export function openingScreen(view: OpeningView, rightToLeft: boolean): OpeningScreen {
  const spreads = computeSpreads(view.pages, view.layout, view.offset);
  const spread = spreads[spreadIndexOfPage(spreads, view.startPage)] ?? [];
  const byNumber = new Map(view.pages.map((page) => [page.number, page]));
  const entries = spread.map((page) => (page === null ? null : (byNumber.get(page) ?? null)));
  if (rightToLeft) entries.reverse();
  return {
    layout: layoutView(entries, view.viewport, view.scale),
    decodes: spreadDecodes(spread, (page) => byNumber.get(page), view.viewport, view.scale),
    currentPage: spread.length > 0 ? spreadPage(spread) : view.startPage,
  };
}
