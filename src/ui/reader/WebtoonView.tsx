import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { pageUrl } from '../../api/books.ts';
import { cacheBudgetFor } from '../../engine/budget.ts';
import { needsConversion } from '../../engine/mediaTypes.ts';
import { clickZoneAction, type ReaderAction } from '../../engine/readerInput.ts';
import type { PageFailure } from '../../engine/PageLoader.ts';
import type { ProgressSink } from '../../engine/ReaderSession.ts';
import type { WebtoonScale } from '../../engine/readerSettings.ts';
import type { PageInfo } from '../../engine/types.ts';
import type { WebtoonItem } from '../../engine/webtoonLayout.ts';
import { WebtoonSession } from '../../engine/WebtoonSession.ts';
import { t } from '../i18n.ts';
import { debounce } from './debounce.ts';
import { sharedDecodePool } from './decodePool.ts';
import * as styles from './reader.css.ts';
import { isPageRetryable, pageFailureText } from './readerErrors.ts';
import type { ViewController, ViewStats } from './viewTypes.ts';
import { deviceMemory, measureViewport, watchDevicePixelRatio } from './viewport.ts';

interface WebtoonViewProps {
  bookId: string;
  /** The book's page version (pageVersion): page bytes are then cached without revalidation. */
  pageVersion?: string;
  pages: PageInfo[];
  startPage: number;
  progress: ProgressSink | null;
  reportStartPage: boolean;
  scale: WebtoonScale;
  sidePadding: number;
  margin: number;
  background: string;
  onPageChange: (page: number) => void;
  onController: (controller: ViewController | null) => void;
  onAction: (action: ReaderAction) => void;
  onStats?: (stats: ViewStats) => void;
}

/** What ↓/↑ scroll the strip by: Chromium's own step for an arrow key on a scrolled page. */
const ARROW_SCROLL_PX = 40;

const noSubscribe = () => () => {};
const noSnapshot = () => null;

/**
 * One page of the strip: a canvas that takes over the page's decoded bitmap. The bitmap is handed to
 * the canvas (an ImageBitmapRenderingContext), not copied into it: on a fast scroll, copying a strip
 * page of several megapixels on the main thread for every page that comes into view cost frames.
 * A handed-over bitmap is empty afterwards; a slot mounted again for a page whose pixels went with
 * an earlier canvas asks for the page again (`onLost`). A page that failed shows why in its place,
 * with a retry, so a failed page is not mistaken for a slow one.
 */
const WebtoonSlot = memo(function WebtoonSlot({
  item,
  start,
  bitmap,
  failure,
  onLost,
  onRetry,
}: {
  item: WebtoonItem;
  start: number;
  bitmap: ImageBitmap | undefined;
  failure: PageFailure | undefined;
  onLost: (page: number) => void;
  onRetry: () => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !bitmap) return;
    // Width 0: closed by the cache, or already handed to a canvas that is gone.
    if (bitmap.width === 0) {
      delete canvas.dataset.painted;
      onLost(item.page);
      return;
    }
    const context = canvas.getContext('bitmaprenderer');
    if (!context) return;
    // The backing store takes the bitmap's own size (already no larger than needed, and never above
    // the image's): a tall strip page enlarged to screen pixels could exceed canvas size limits.
    context.transferFromImageBitmap(bitmap);
    canvas.dataset.painted = 'true';
  }, [bitmap, item.page, onLost]);
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    // A slot leaving the window gives its pixels back at once.
    return () => {
      canvas?.getContext('bitmaprenderer')?.transferFromImageBitmap(null);
    };
  }, []);
  return (
    <div className={styles.webtoonSlot} style={{ transform: `translateY(${start}px)`, height: item.size }} data-page={item.page}>
      <canvas
        ref={canvasRef}
        className={styles.webtoonCanvas}
        style={{ top: item.imageTop, left: item.imageLeft, width: item.imageWidth, height: item.imageHeight }}
        role="img"
        aria-label={t('reader.page_number', { page: item.page })}
      />
      {/* A page already drawn keeps its picture if a later load (at a new size) fails. */}
      {failure && !bitmap && (
        <div className={styles.webtoonFailure} role="alert">
          <p>{t('reader.page_error', { page: item.page })}</p>
          <p title={failure.message}>{pageFailureText(failure)}</p>
          {isPageRetryable(failure) && (
            <button
              type="button"
              className={styles.textButton}
              onClick={(event) => {
                // The strip's own click would scroll or toggle the toolbar.
                event.stopPropagation();
                onRetry();
              }}
            >
              {t('reader.retry')}
            </button>
          )}
        </div>
      )}
    </div>
  );
});

/**
 * The continuous view for webtoons: a virtual list whose item heights come from the page
 * dimensions, so the strip's full height is known before any image loads and nothing jumps.
 */
export function WebtoonView(props: WebtoonViewProps) {
  const { bookId, pages, scale, sidePadding, margin, background } = props;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [session, setSession] = useState<WebtoonSession<ImageBitmap> | null>(null);
  const latest = useRef(props);
  latest.current = props;
  /** A page to bring to the top once the strip is laid out at its full height (opening, re-layout). */
  const anchorRef = useRef<number | null>(null);

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const initial = latest.current;
    const created = new WebtoonSession<ImageBitmap>({
      pages,
      decoder: sharedDecodePool(),
      pageUrl: (page) => pageUrl(bookId, page.number, needsConversion(page.mediaType) ? 'jpeg' : undefined, initial.pageVersion),
      viewport: measureViewport(scroller),
      scale: initial.scale,
      sidePadding: initial.sidePadding,
      margin: initial.margin,
      startPage: initial.startPage,
      progress: initial.progress,
      reportStartPage: initial.reportStartPage,
      budgetBytes: cacheBudgetFor(deviceMemory()),
    });
    const onChange = () => {
      const snapshot = created.getSnapshot();
      latest.current.onPageChange(snapshot.currentPage);
      latest.current.onStats?.({
        cacheBytes: snapshot.cacheBytes,
        cacheBudget: snapshot.cacheBudget,
        decodedPages: snapshot.decodedPages,
        loadingPages: [],
      });
    };
    const unsubscribe = created.subscribe(onChange);
    const onScroll = () => created.setScroll(scroller.scrollTop);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    const applySize = debounce(() => {
      const page = created.currentPage;
      const next = measureViewport(scroller);
      const before = created.viewport;
      if (next.width === before.width && next.height === before.height && next.devicePixelRatio === before.devicePixelRatio) {
        return;
      }
      // The strip's heights change with its width: come back to the page being read once re-laid out.
      anchorRef.current = page;
      created.setViewport(next);
    }, 120);
    const resizeObserver = new ResizeObserver(applySize);
    // Moving the window to a screen of another pixel density changes no size, only the DPR.
    const stopWatchingDpr = watchDevicePixelRatio(applySize);
    resizeObserver.observe(scroller);
    // Scrolling to the start page waits until the strip has its height (see the anchor effect).
    anchorRef.current = initial.startPage;
    onChange();

    const atBottom = () => scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
    const step = () => Math.round(scroller.clientHeight * 0.95);
    const controller: ViewController = {
      nudge: (direction) => {
        if (direction === 1 ? atBottom() : scroller.scrollTop <= 1) return direction === 1 ? 'end' : 'start';
        scroller.scrollBy({ top: direction * ARROW_SCROLL_PX });
        return 'moved';
      },
      next: () => {
        if (atBottom()) return 'end';
        scroller.scrollBy({ top: step() });
        return 'moved';
      },
      previous: () => {
        if (scroller.scrollTop <= 1) return 'start';
        scroller.scrollBy({ top: -step() });
        return 'moved';
      },
      first: () => scroller.scrollTo({ top: 0 }),
      last: () => scroller.scrollTo({ top: scroller.scrollHeight }),
      goToPage: (page) => scroller.scrollTo({ top: created.offsetOf(page) }),
    };
    latest.current.onController(controller);
    setSession(created);
    return () => {
      latest.current.onController(null);
      resizeObserver.disconnect();
      stopWatchingDpr();
      applySize.cancel();
      scroller.removeEventListener('scroll', onScroll);
      unsubscribe();
      created.dispose();
      setSession(null);
    };
  }, [bookId, pages]);

  useLayoutEffect(() => {
    if (!session) return;
    // Keep the page being read in place when the strip's geometry changes.
    const page = session.currentPage;
    const before = session.layout;
    session.setPresentation(scale, sidePadding, margin);
    if (session.layout !== before) anchorRef.current = page;
  }, [session, scale, sidePadding, margin]);

  // A stable subscribe function: a new one each render would resubscribe every time.
  const subscribe = useMemo(() => (session ? session.subscribe.bind(session) : noSubscribe), [session]);
  const snapshot = useSyncExternalStore(
    subscribe,
    session ? session.getSnapshot : noSnapshot,
  );
  const items = snapshot?.layout.items ?? [];
  const onLost = useCallback((page: number) => session?.redecode(page), [session]);
  const onRetry = useCallback(() => session?.retry(), [session]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollerRef.current,
    estimateSize: (index) => items[index]?.size ?? 1,
    // One page each way; the session decodes two. A page mounted, handed its bitmap, then scrolled
    // out and back in (the reader turned round) is decoded again (see WebtoonSlot).
    overscan: 1,
  });
  useLayoutEffect(() => virtualizer.measure(), [snapshot?.layout, virtualizer]);

  // After every render: if a page waits to be scrolled to and the strip now has its full height, go.
  // Scrolling earlier would clamp at the top and report page 1 as the reading position.
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    const anchor = anchorRef.current;
    if (!session || !scroller || anchor === null) return;
    if (scroller.scrollHeight < session.layout.totalHeight - 1) return;
    anchorRef.current = null;
    scroller.scrollTop = session.offsetOf(anchor);
    session.setScroll(scroller.scrollTop);
  });

  function onClick(event: MouseEvent<HTMLDivElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - box.left) / Math.max(1, box.width);
    const y = (event.clientY - box.top) / Math.max(1, box.height);
    props.onAction(clickZoneAction(x, y, 'WEBTOON'));
  }

  return (
    <div
      ref={scrollerRef}
      className={styles.webtoonScroller}
      // Screen coordinates whatever the interface language (see PagedView).
      dir="ltr"
      style={{ background }}
      onClick={onClick}
      data-testid="reader-webtoon"
      data-current-page={snapshot?.currentPage ?? props.startPage}
    >
      <div
        className={styles.webtoonStrip}
        style={{ height: virtualizer.getTotalSize(), width: snapshot?.layout.width ?? '100%' }}
      >
        {session &&
          virtualizer.getVirtualItems().map((virtual) => {
            const item = items[virtual.index];
            if (!item) return null;
            return (
              <WebtoonSlot
                key={item.page}
                item={item}
                start={virtual.start}
                bitmap={session.bitmapFor(item.page)}
                failure={session.failureOf(item.page)}
                onLost={onLost}
                onRetry={onRetry}
              />
            );
          })}
      </div>
    </div>
  );
}
