import { useCallback, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { pageThumbnailUrl } from '../../api/books.ts';
import { cacheBudgetFor } from '../../engine/budget.ts';
import { clickZoneAction, type ReaderAction } from '../../engine/readerInput.ts';
import { ReaderSession, type PagedDirection, type PaintView, type ProgressSink } from '../../engine/ReaderSession.ts';
import type { PageInfo, PageLayout, ScaleType, Viewport } from '../../engine/types.ts';
import { t } from '../i18n.ts';
import { CanvasPainter, viewIsComplete } from './CanvasPainter.ts';
import { dismissOpeningPaint } from './openingPaint.ts';
import { afterNextFrame } from './afterNextFrame.ts';
import { debounce } from './debounce.ts';
import { PageTurnAnimation } from './PageTurnAnimation.ts';
import { sharedDecodePool } from './decodePool.ts';
import * as styles from './reader.css.ts';
import { readerPageUrl } from './readerPageUrl.ts';
import { isPageRetryable, pageFailureText } from './readerErrors.ts';
import type { ViewController, ViewStats } from './viewTypes.ts';
import { usePageZoom } from './usePageZoom.ts';
import { deviceMemory, watchDevicePixelRatio } from './viewport.ts';

interface PagedViewProps {
  bookId: string;
  /** The book's page version (pageVersion): page bytes are then cached without revalidation. */
  pageVersion?: string;
  pages: PageInfo[];
  startPage: number;
  progress: ProgressSink | null;
  reportStartPage: boolean;
  direction: PagedDirection;
  scale: ScaleType;
  layout: PageLayout;
  offset: boolean;
  background: string;
  swipe: boolean;
  /** Slide between pages on a turn. */
  animations: boolean;
  onPageChange: (page: number) => void;
  onController: (controller: ViewController | null) => void;
  onAction: (action: ReaderAction) => void;
  onStats?: (stats: ViewStats) => void;
}

/** The system asks for less motion: no slides, whatever the reader setting says. */
function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

const noSubscribe = () => () => {};
const noSnapshot = () => null;

/**
 * The paged view: one canvas the size of the viewport (in device pixels) showing the current spread.
 * Scale types that overflow the viewport scroll: a spacer gives the scroller the content's size and
 * the canvas stays put (sticky), repainting the visible part on scroll.
 */
export function PagedView(props: PagedViewProps) {
  const { bookId, pages, direction, scale, layout, offset, background, swipe } = props;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [session, setSession] = useState<ReaderSession<ImageBitmap> | null>(null);
  // Settings and callbacks are read through a ref so the session is created once per book.
  const latest = useRef(props);
  latest.current = props;
  const repaintRef = useRef<(() => void) | null>(null);
  const sessionRef = useRef<ReaderSession<ImageBitmap> | null>(null);
  const onZoomViewport = useCallback((viewport: Viewport) => sessionRef.current?.setViewport(viewport), []);
  const zoom = usePageZoom({ scrollerRef, swipe, direction, onAction: props.onAction, onViewport: onZoomViewport });
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    const canvas = canvasRef.current;
    if (!scroller || !canvas) return;
    const initial = latest.current;
    const created = new ReaderSession<ImageBitmap>({
      pages,
      decoder: sharedDecodePool(),
      pageUrl: (page) => readerPageUrl(bookId, page, initial.pageVersion),
      previewUrl: (page) => pageThumbnailUrl(bookId, page.number),
      viewport: zoomRef.current.measure(scroller),
      startPage: initial.startPage,
      progress: initial.progress,
      reportStartPage: initial.reportStartPage,
      scale: initial.scale,
      layout: initial.layout,
      offset: initial.offset,
      direction: initial.direction,
      budgetBytes: cacheBudgetFor(deviceMemory()),
      afterPaint: (work) => afterNextFrame(work),
    });
    const painter = new CanvasPainter(canvas);
    const animation = new PageTurnAnimation();
    let lastSpread = created.getSnapshot().spreadIndex;
    let shown: PaintView<ImageBitmap> | null = null;
    const paint = () => {
      if (animation.running) return;
      const view = created.getView();
      // A page turned to faster than even its preview arrives keeps the last page up rather than a
      // blank screen; a page that failed clears it (its error shows instead).
      const painted = painter.paint(
        view,
        created.viewport,
        latest.current.background,
        { x: scroller.scrollLeft, y: scroller.scrollTop },
        created.getSnapshot().error === null,
      );
      if (painted) shown = view;
      // A cold load's first frame (same page, same place) gives way once this canvas shows the page
      // in full, or a failure to show instead.
      if (canvas.dataset.paintedPage !== undefined || created.getSnapshot().error !== null) dismissOpeningPaint();
    };
    const onChange = () => {
      const snapshot = created.getSnapshot();
      if (snapshot.spreadIndex !== lastSpread) {
        const forward = snapshot.spreadIndex > lastSpread;
        lastSpread = snapshot.spreadIndex;
        // Every page turn starts at the top of the new page (REFERENCE §5.4), not zoomed.
        scroller.scrollTo(0, 0);
        zoomRef.current.reset();
        const from = shown;
        const to = created.getView();
        // Slide only between views that are both fully decoded and fit the screen; anything else
        // (a page still loading, a turn during a slide, a scrolled page) is shown at once.
        const fits = to.layout.contentWidth <= created.viewport.width && to.layout.contentHeight <= created.viewport.height;
        if (latest.current.animations && !prefersReducedMotion() && from && fits && !animation.running && viewIsComplete(from) && viewIsComplete(to)) {
          const sign = forward ? 1 : -1;
          const direction = latest.current.direction;
          animation.start({
            painter,
            from,
            to,
            viewport: created.viewport,
            background: () => latest.current.background,
            enterFrom:
              direction === 'VERTICAL'
                ? { x: 0, y: sign }
                : { x: direction === 'RIGHT_TO_LEFT' ? -sign : sign, y: 0 },
            onDone: paint,
          });
          shown = to;
        } else {
          animation.cancel();
        }
      }
      paint();
      latest.current.onPageChange(snapshot.currentPage);
      latest.current.onStats?.({
        cacheBytes: snapshot.cacheBytes,
        cacheBudget: snapshot.cacheBudget,
        decodedPages: created.cache.keys().sort((a, b) => a - b),
        loadingPages: created.loadingPages,
      });
    };
    const unsubscribe = created.subscribe(onChange);
    onChange();
    scroller.addEventListener('scroll', paint, { passive: true });
    const applySize = debounce(() => created.setViewport(zoomRef.current.measure(scroller)), 120);
    const resizeObserver = new ResizeObserver(applySize);
    resizeObserver.observe(scroller);
    const controller: ViewController = {
      next: () => created.next(),
      previous: () => created.previous(),
      first: () => created.first(),
      last: () => created.last(),
      goToPage: (page) => created.goToPage(page),
      zoom: (action) => zoomRef.current.perform(action),
    };
    latest.current.onController(controller);
    setSession(created);
    sessionRef.current = created;
    repaintRef.current = paint;
    scroller.focus({ preventScroll: true });
    const stopWatchingDpr = watchDevicePixelRatio(() => created.setViewport(zoomRef.current.measure(scroller)));
    return () => {
      repaintRef.current = null;
      sessionRef.current = null;
      stopWatchingDpr();
      animation.cancel();
      latest.current.onController(null);
      resizeObserver.disconnect();
      applySize.cancel();
      scroller.removeEventListener('scroll', paint);
      unsubscribe();
      created.dispose();
      setSession(null);
    };
  }, [bookId, pages]);

  // Settings changes go to the live session; it keeps the reader on the same page.
  useLayoutEffect(() => session?.setScale(scale), [session, scale]);
  useLayoutEffect(() => session?.setLayout(layout, offset), [session, layout, offset]);
  useLayoutEffect(() => session?.setDirection(direction), [session, direction]);
  useLayoutEffect(() => repaintRef.current?.(), [background]);

  // A stable subscribe function: a new one each render would resubscribe every time.
  const subscribe = useMemo(() => (session ? session.subscribe.bind(session) : noSubscribe), [session]);
  const snapshot = useSyncExternalStore(
    subscribe,
    session ? session.getSnapshot : noSnapshot,
  );
  const view = session && snapshot ? session.getView() : null;
  const viewport = session?.viewport;

  function onClick(event: MouseEvent<HTMLDivElement>) {
    // A drag (swipe or pan) ends in a click on the same element: that click must not act again.
    if (performance.now() - zoom.lastDragEnd.current < 300) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - box.left) / Math.max(1, box.width);
    const y = (event.clientY - box.top) / Math.max(1, box.height);
    props.onAction(clickZoneAction(x, y, direction));
  }

  return (
    <div
      ref={scrollerRef}
      className={styles.scroller}
      // The page area is laid out in screen coordinates whatever the interface language: click zones,
      // swipes and scroll positions follow the book's reading direction, not the document's.
      dir="ltr"
      style={{ background, touchAction: zoom.touchAction }}
      // Focusable so Space, PageDown and ↓ scroll a page taller than the screen natively.
      tabIndex={-1}
      onClick={onClick}
      onDoubleClick={zoom.onDoubleClick}
      {...zoom.bind()}
    >
      <div
        className={styles.spacer}
        style={{
          width: view ? view.layout.contentWidth : '100%',
          height: view ? view.layout.contentHeight : '100%',
        }}
      >
        <canvas
          ref={canvasRef}
          className={styles.stickyCanvas}
          style={{
            ...(viewport ? { width: viewport.width, height: viewport.height } : {}),
            transform: zoom.zoom.scale === 1 ? undefined : `translate(${zoom.zoom.x}px, ${zoom.zoom.y}px) scale(${zoom.zoom.scale})`,
          }}
          data-zoom={Math.round(zoom.zoom.scale * 100) / 100}
          data-testid="reader-canvas"
          data-current-page={snapshot?.currentPage ?? props.startPage}
          aria-label={t('reader.page_label', { page: snapshot?.currentPage ?? props.startPage, total: pages.length })}
          role="img"
        />
      </div>
      {snapshot?.error && (
        <div className={styles.message} role="alert">
          <p>{t('reader.page_error', { page: snapshot.errorPage ?? snapshot.currentPage })}</p>
          <p title={snapshot.error.message}>{pageFailureText(snapshot.error)}</p>
          {isPageRetryable(snapshot.error) && (
            <button
              type="button"
              className={`${styles.textButton} ${styles.messageAction}`}
              onClick={(event) => {
                event.stopPropagation();
                session?.retry();
              }}
            >
              {t('reader.retry')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
