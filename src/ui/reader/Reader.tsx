import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { pageVersion } from '../../api/books.ts';
import type { BookDto, PageDto, ReadingDirection } from '../../api/types.ts';
import { keyAction, type ReaderAction } from '../../engine/readerInput.ts';
import { BACKGROUND_COLOURS, resolveDirection } from '../../engine/readerSettings.ts';
import type { Viewport } from '../../engine/types.ts';
import { describeError, t } from '../i18n.ts';
import { isAdmin, session } from '../store/session.ts';
import { DebugOverlay } from './DebugOverlay.tsx';
import { PageMenuItems, type PosterTarget } from './PageMenu.tsx';
import { applyChromeAction, isTyping, pressesFocusedButton, type ChromePanel } from './readerChrome.ts';
import { PagedView } from './PagedView.tsx';
import { dismissOpeningPaint } from './openingPaint.ts';
import { followFocusOrigin } from './focusOrigin.ts';
import { setPageAsPoster } from './posterFromPage.ts';
import * as styles from './reader.css.ts';
import { ReaderToolbar } from './ReaderToolbar.tsx';
import type { ReaderQuery } from './readerQuery.ts';
import { applySettingShortcut } from './settingShortcuts.ts';
import { readerPreferences } from './settingsStore.ts';
import { SettingsDialog } from './SettingsDialog.tsx';
import { ShortcutsDialog } from './ShortcutsDialog.tsx';
import { ThumbnailsDialog } from './ThumbnailsDialog.tsx';
import { useBookEdges, type Siblings } from './useBookEdges.ts';
import { useFullscreen } from './useFullscreen.ts';
import { usePageInAddress } from './usePageInAddress.ts';
import { useReadingProgress } from './useReadingProgress.ts';
import { useTimedMessage } from './useTimedMessage.ts';
import type { ViewController, ViewStats } from './viewTypes.ts';
import { LiveStatus } from '../components/Feedback.tsx';
import { toPageInfo } from './viewport.ts';
import { WebtoonView } from './WebtoonView.tsx';

export type { Siblings } from './useBookEdges.ts';

interface ReaderProps {
  book: BookDto;
  pages: PageDto[];
  title: string;
  seriesDirection: ReadingDirection | '' | null;
  siblings: Siblings;
  query: ReaderQuery;
  startPage: number;
  reportStartPage: boolean;
  backHref: string;
}

type Dialog = 'settings' | 'help' | 'thumbnails' | null;

/** The shortest a notice stays; a longer one stays long enough to be read (noticeDuration). */
const NOTICE_MS = 4000;

/**
 * The reader shell: settings, direction, keys, menus, notices and the start/end-of-book flow around
 * whichever view shows the book (paged canvas or webtoon strip).
 */
export function Reader(props: ReaderProps) {
  const { book, pages, query, siblings, backHref } = props;
  const settings = useSnapshot(readerPreferences);
  const { me } = useSnapshot(session);
  const pageInfo = useMemo(() => toPageInfo(pages), [pages]);
  const [direction, setDirectionState] = useState(() =>
    resolveDirection(readerPreferences.readingDirection, props.seriesDirection),
  );
  const [currentPage, setCurrentPage] = useState(props.startPage);
  const [toolbar, setToolbar] = useState(true);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice, noticeHold] = useTimedMessage(
    NOTICE_MS,
    direction.fromSeries
      ? t('reader.notice_direction_series', { direction: t(`reader.directions.${direction.direction}`) })
      : null,
  );
  const [stats, setStats] = useState<ViewStats | null>(null);
  const [viewport, setViewport] = useState<Viewport | null>(null);
  const controllerRef = useRef<ViewController | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  // A place the server refused (a page this book no longer has) is said, not lost in the console.
  const progress = useReadingProgress(book, query.incognito, (error) => setNotice(describeError(error)));
  const edges = useBookEdges(siblings, query, backHref);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(readerPreferences.alwaysFullscreen);
  usePageInAddress(query, currentPage);

  // The view that mounts first opens at the start page; a view swapped in later (mode change) opens
  // where the reader is, without saving that as a new position.
  const openingPage = useRef(props.startPage);
  const firstView = useRef(true);

  const webtoon = direction.direction === 'WEBTOON';
  const viewKey = webtoon ? 'webtoon' : 'paged';
  const mounted = useRef<string | null>(null);
  if (mounted.current !== viewKey) {
    if (mounted.current !== null) {
      openingPage.current = currentPage;
      firstView.current = false;
    }
    mounted.current = viewKey;
  }

  const setDirection = useCallback(
    (next: ReadingDirection) => {
      readerPreferences.readingDirection = next;
      setDirectionState({ direction: next, fromSeries: false });
      setNotice(t('reader.notice_direction', { direction: t(`reader.directions.${next}`) }));
    },
    [setNotice],
  );

  const perform = useCallback(
    (action: ReaderAction) => {
      const controller = controllerRef.current;
      const changed = applySettingShortcut(action, webtoon);
      if (changed) {
        setNotice(changed);
        return;
      }
      const togglePanel = (panel: ChromePanel) => setDialog((open) => (open === panel ? null : panel));
      if (applyChromeAction(action, { toolbar, setToolbar, togglePanel, toggleFullscreen, exit: edges.exit })) return;
      switch (action) {
        case 'next':
        case 'scroll-down':
        case 'nudge-down': {
          const result = action === 'nudge-down' && controller?.nudge ? controller.nudge(1) : controller?.next();
          if (result === 'end') edges.hitEdge('end');
          else if (result === 'moved') edges.moved();
          break;
        }
        case 'previous':
        case 'scroll-up':
        case 'nudge-up': {
          const result = action === 'nudge-up' && controller?.nudge ? controller.nudge(-1) : controller?.previous();
          if (result === 'start') edges.hitEdge('start');
          else if (result === 'moved') edges.moved();
          break;
        }
        case 'first':
          controller?.first();
          break;
        case 'last':
          controller?.last();
          break;
        case 'zoom-in':
        case 'zoom-out':
        case 'zoom-reset':
          controller?.zoom?.(action);
          break;
        case 'direction-ltr':
          setDirection('LEFT_TO_RIGHT');
          break;
        case 'direction-rtl':
          setDirection('RIGHT_TO_LEFT');
          break;
        case 'direction-vertical':
          setDirection('VERTICAL');
          break;
        case 'direction-webtoon':
          setDirection('WEBTOON');
          break;
        default:
          break;
      }
    },
    [webtoon, setNotice, edges, toggleFullscreen, setDirection, toolbar],
  );

  // Where the focus came from decides whether Space and Enter press a focused button (readerChrome.ts).
  useEffect(() => followFocusOrigin(), []);

  // A cold load's first frame is the paged view's to replace (it goes when that view has painted);
  // a webtoon has nothing to take over from it, and leaving the reader takes it away in any case.
  useEffect(() => {
    if (webtoon) dismissOpeningPaint();
  }, [webtoon]);
  useEffect(() => dismissOpeningPaint, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // An open dialog or popover (the "more" menu, the full title) owns the keys: Escape closes it
      // and nothing else. Asked of the DOM, not of React state: a key pressed right after Escape
      // closed a dialog must work even before the re-render.
      if (
        event.defaultPrevented ||
        containerRef.current?.querySelector('dialog[open], :popover-open') ||
        isTyping(event.target, event.key) ||
        pressesFocusedButton(event)
      ) {
        return;
      }
      const action = keyAction(event, direction.direction);
      if (!action) return;
      event.preventDefault();
      perform(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [direction.direction, perform]);

  const onController = useCallback((controller: ViewController | null) => {
    controllerRef.current = controller;
  }, []);
  // The page on screen is drawn by the view itself, outside React. What the shell shows of it (the
  // counter, the slider, the debug figures) re-renders as a transition: after the frame that shows
  // the turn rather than inside the task that must produce it.
  const onStats = useCallback((next: ViewStats) => {
    if (readerPreferences.debugOverlay) startTransition(() => setStats(next));
  }, []);
  const onPageChange = useCallback((page: number) => startTransition(() => setCurrentPage(page)), []);

  useEffect(() => {
    const element = containerRef.current;
    if (!element || !settings.debugOverlay) return;
    const update = () =>
      setViewport({ width: element.clientWidth, height: element.clientHeight, devicePixelRatio: devicePixelRatio });
    update();
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, [settings.debugOverlay]);

  const background = BACKGROUND_COLOURS[settings.background];
  // Posters are an administrator's business (the upload routes answer 403 to anybody else).
  const posterTargets: PosterTarget[] = [];
  if (isAdmin(me)) {
    posterTargets.push({ owner: 'books', id: book.id, label: t('reader.set_book_poster') });
    if (!book.oneshot) posterTargets.push({ owner: 'series', id: book.seriesId, label: t('reader.set_series_poster') });
    if (query.context === 'READLIST' && query.contextId) {
      posterTargets.push({ owner: 'readlists', id: query.contextId, label: t('reader.set_readlist_poster') });
    }
  }
  const common = {
    bookId: book.id,
    pageVersion: pageVersion(book),
    pages: pageInfo,
    startPage: openingPage.current,
    progress,
    reportStartPage: firstView.current && props.reportStartPage,
    background,
    onPageChange,
    onController,
    onAction: perform,
    onStats,
  };

  return (
    <div ref={containerRef} className={styles.screen} style={{ background }}>
      {/* The main landmark: the pages are the content, between the bars (as the EPUB reader's text).
          Unstyled, so the views stay placed against the screen. */}
      <main>
        {webtoon ? (
          <WebtoonView
            key="webtoon"
            {...common}
            scale={settings.webtoonScale}
            sidePadding={settings.sidePadding}
            margin={settings.pageMargin}
          />
        ) : (
          <PagedView
            key="paged"
            {...common}
            direction={direction.direction as Exclude<ReadingDirection, 'WEBTOON'>}
            scale={settings.pagedScale}
            layout={settings.pageLayout}
            offset={settings.pageOffset}
            swipe={settings.swipe}
            animations={settings.animations}
          />
        )}
      </main>
      {toolbar && (
        <ReaderToolbar
          title={props.title}
          backHref={backHref}
          page={currentPage}
          total={pages.length}
          pageDirection={direction.direction === 'RIGHT_TO_LEFT' ? 'rtl' : 'ltr'}
          incognito={query.incognito}
          fullscreen={fullscreen}
          hasPreviousBook={siblings.previous !== null}
          hasNextBook={siblings.next !== null}
          onFullscreen={toggleFullscreen}
          onHelp={() => setDialog('help')}
          onThumbnails={() => setDialog('thumbnails')}
          onSettings={() => setDialog('settings')}
          onGoToPage={(page) => controllerRef.current?.goToPage(page)}
          onPreviousBook={() => edges.goToBook(siblings.previous)}
          onNextBook={() => edges.goToBook(siblings.next)}
          menuItems={(close) => (
            <PageMenuItems
              close={close}
              bookId={book.id}
              page={currentPage}
              posterTargets={posterTargets}
              onSetPoster={(target) =>
                setPageAsPoster(book.id, currentPage, target.owner, target.id).then(
                  () => setNotice(t('reader.poster_set')),
                  (error: unknown) => setNotice(describeError(error)),
                )
              }
            />
          )}
        />
      )}
      <div className={styles.visuallyHidden} aria-live="polite" aria-atomic="true">
        {t('reader.page_label', { page: currentPage, total: pages.length })}
      </div>
      <LiveStatus message={edges.message} messageProps={edges.holdProps} className={styles.snackbar} testId="reader-edge-message" />
      <LiveStatus message={notice} messageProps={noticeHold} className={styles.notice} testId="reader-notice" />
      {settings.debugOverlay && <DebugOverlay stats={stats} viewport={viewport} />}
      {dialog === 'settings' && (
        <SettingsDialog direction={direction.direction} onDirection={setDirection} onClose={() => setDialog(null)} />
      )}
      {dialog === 'help' && <ShortcutsDialog onClose={() => setDialog(null)} />}
      {dialog === 'thumbnails' && (
        <ThumbnailsDialog
          bookId={book.id}
          pageCount={pages.length}
          currentPage={currentPage}
          onPick={(page) => {
            controllerRef.current?.goToPage(page);
            setDialog(null);
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
