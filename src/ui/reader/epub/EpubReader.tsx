import { EpubNavigator, EpubPreferences, TextAlignment, type EpubNavigatorListeners, type IEpubPreferences } from '@readium/navigator';
import { Link, Locator, LocatorLocations, ReadingProgression } from '@readium/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { getProgression } from '../../../api/readium.ts';
import type { BookDto, R2Locator } from '../../../api/types.ts';
import { renderingPreferences } from '../../../engine/epubSettings.ts';
import { linkTarget } from '../../../engine/epubLinks.ts';
import { currentTocEntry } from '../../../engine/epubToc.ts';
import { heldPosition, positionNumber, resourcePath, restorePoint } from '../../../engine/epubProgression.ts';
import { clickZoneAction, keyAction, swipeAction, type ReaderAction } from '../../../engine/readerInput.ts';
import { describeError, t } from '../../i18n.ts';
import { describeReaderError } from '../readerErrors.ts';
import { session } from '../../store/session.ts';
import * as styles from '../reader.css.ts';
import { ReaderToolbar } from '../ReaderToolbar.tsx';
import { applyChromeAction, isTyping, pressesFocusedButton, type ChromePanel } from '../readerChrome.ts';
import { followFocusOrigin } from '../focusOrigin.ts';
import type { ReaderQuery } from '../readerQuery.ts';
import { ShortcutsDialog } from '../ShortcutsDialog.tsx';
import { useBookEdges, type Siblings } from '../useBookEdges.ts';
import { useFullscreen } from '../useFullscreen.ts';
import { EpubSettingsDialog } from './EpubSettingsDialog.tsx';
import { listenToFrame } from './frameInput.ts';
import { markWideTables } from './wideTables.ts';
import { frameShown, revealFrames } from './frameSetup.ts';
import { fetchEpubSettings } from './epubSettingsStore.ts';
import { fragmentReached } from './fragmentReached.ts';
import { boundFramePool } from './framePool.ts';
import * as epubStyles from './epubReader.css.ts';
import { ImageZoomDialog } from './ImageZoomDialog.tsx';
import { linkHistory } from './linkHistory.ts';
import { unpinElements } from './pinnedElements.ts';
import { keepPlace, placeToKeep, type PlaceKeeper } from './placeKeeper.ts';
import { characterBeingRead, showCharacterAgain } from './readingPoint.ts';
import { chapterKey, chapterStart } from './chapterJump.ts';
import { currentFrame, currentFrameWindow } from './currentFrame.ts';
import { loadPublication, type LoadedPublication } from './publication.ts';
import { TocDialog } from './TocDialog.tsx';
import { createTurnGate } from './turnGate.ts';
import { LiveStatus } from '../../components/Feedback.tsx';
import { useTimedMessage } from '../useTimedMessage.ts';
import { scrollScreen, showChapterEnd } from './scrolledText.ts';
import { useAppIsDark } from './useAppIsDark.ts';
import { useEpubProgress } from './useEpubProgress.ts';
import { useEpubSettings } from './useEpubSettings.ts';
import { showVerticalAt, turnVertical, verticalMode, verticalPlace } from './verticalText.ts';

interface EpubReaderProps {
  book: BookDto;
  title: string;
  siblings: Siblings;
  query: ReaderQuery;
  backHref: string;
}

type Dialog = 'settings' | 'help' | 'contents' | null;

/** The shortest a refused position is said; longer for a long reason (noticeDuration), as Reader.tsx's notices. */
const SAVE_NOTICE_MS = 4000;
type LoadState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | ({ status: 'ready'; saved: R2Locator | null } & LoadedPublication);

/**
 * The reader for reflowable EPUBs: Readium's navigator renders the publication the server
 * describes (WebPub manifest, positions) inside iframes; around it the same toolbar, keys, click
 * zones and start/end-of-book flow as the page reader, plus a table of contents and text settings.
 */
export function EpubReader({ book, title, siblings, query, backHref }: EpubReaderProps) {
  const userId = useSnapshot(session).me?.id ?? 'anonymous';
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const { settings, fontSize, setSettings, setFontSize, adopt: adoptSettings, saveError: settingsSaveError, retry: retrySettingsSave } =
    useEpubSettings(userId, book.id);
  const [locator, setLocator] = useState<R2Locator | null>(null);
  const [toolbar, setToolbar] = useState(true);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [zoomed, setZoomed] = useState<string | null>(null);
  /** The first text is on screen: until then (a large chapter takes seconds to lay out) the loading note stays. */
  const [textShown, setTextShown] = useState(false);
  const appIsDark = useAppIsDark();
  const containerRef = useRef<HTMLDivElement>(null);
  const frameHostRef = useRef<HTMLDivElement>(null);
  const navigatorRef = useRef<EpubNavigator | null>(null);
  const edges = useBookEdges(siblings, query, backHref);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen(false);
  const saved = state.status === 'ready' ? state.saved : null;
  // A place the server refused (a newer one saved from another device, a chapter the book no longer
  // has) is said, not lost in the console; shown as long as the page reader's notices.
  const [saveNotice, setSaveNotice, saveNoticeHold] = useTimedMessage(SAVE_NOTICE_MS);
  // A link of the book (or a contents entry) to what no reader can show (its navigation document
  // outside the reading order, a chapter lost from the zip) is said: a click that did nothing read
  // as a reader that stopped answering.
  const [linkNotice, setLinkNotice, linkNoticeHold] = useTimedMessage(SAVE_NOTICE_MS);
  const progress = useEpubProgress(book.id, query.incognito, state.status === 'ready', saved, (error) => setSaveNotice(describeError(error)));
  // Settings the server did not save stay in this browser; the user is told so, in the settings
  // dialog when it is open (with a retry), else in a notice.
  // Two sentences, on two lines: the call's message may end without a full stop.
  const settingsUnsaved = settingsSaveError ? [describeError(settingsSaveError.error), t('reader.epub.settings_kept_here')] : null;
  const dialogRef = useRef(dialog);
  dialogRef.current = dialog;
  useEffect(() => {
    if (settingsUnsaved && dialogRef.current !== 'settings') setSaveNotice(settingsUnsaved.join('\n'));
    // Each failure (settingsSaveError is new every time), not only a change of wording.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settingsSaveError, setSaveNotice]);
  const progressRef = useRef(progress);
  progressRef.current = progress;
  const rtl = state.status === 'ready' && state.publication.metadata.effectiveReadingProgression === ReadingProgression.rtl;
  // A book in vertical writing is shown scrolled whatever the layout setting (see verticalText.ts).
  const [vertical, setVertical] = useState(false);
  const preferences = renderingPreferences(vertical ? { ...settings, layout: 'scrolled' } : settings, fontSize, appIsDark, rtl);
  const preferencesRef = useRef<IEpubPreferences>({});
  preferencesRef.current = {
    ...preferences,
    textAlign: preferences.textAlign === null ? null : preferences.textAlign === 'justify' ? TextAlignment.justify : TextAlignment.start,
  };

  useEffect(() => {
    let cancelled = false;
    setState({ status: 'loading' });
    setTextShown(false);
    // Incognito reading also starts where the book was left; it only saves nothing.
    // The user's settings from the server come before the first layout (no second one); without
    // them the book opens with this browser's.
    const remoteSettings = fetchEpubSettings().catch((error: unknown) => {
      console.warn('The reader settings could not be read from the server; using this browser\'s', error);
      return null;
    });
    Promise.all([loadPublication(book.id), getProgression(book.id), remoteSettings]).then(
      ([loaded, progression, remote]) => {
        if (cancelled) return;
        adoptSettings(remote);
        setState({ status: 'ready', ...loaded, saved: progression?.locator ?? null });
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: 'error', message: describeReaderError(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [book.id, adoptSettings]);

  const total = state.status === 'ready' ? state.positions.length : 1;

  /** Runs the navigator's work in order (see the navigator's effect); null without a navigator. */
  const runRef = useRef<(<T>(task: () => Promise<T>) => Promise<T>) | null>(null);
  /** A saved place inside a vertical chapter, to show once the chapter is laid out (see below). */
  const pendingSideways = useRef<number | null>(null);
  const showPendingSideways = () => {
    const progression = pendingSideways.current;
    const navigator = navigatorRef.current;
    const frameWindow = currentFrameWindow(navigator);
    if (progression === null || !navigator || !frameWindow || state.status !== 'ready') return;
    pendingSideways.current = null;
    showVerticalAt(frameWindow, progression);
    const place = verticalPlace(frameWindow, navigator.currentLocator.serialize() as R2Locator, state.positionList);
    if (place) {
      setLocator(place);
      progressRef.current?.report(place);
    }
  };

  /** After each move: frames of documents out of the library's loading window go (see framePool.ts). */
  const positionsRef = useRef<Locator[]>([]);
  positionsRef.current = state.status === 'ready' ? state.positions : [];
  const boundFrames = () => {
    const navigator = navigatorRef.current;
    if (navigator) void boundFramePool(navigator, positionsRef.current);
  };

  const go = useCallback((target: Locator | Link, shown?: () => void) => {
    const navigator = navigatorRef.current;
    if (!navigator) return shown?.();
    const done = () => {
      edges.moved();
      boundFrames();
      shown?.();
    };
    if (target instanceof Link) navigator.goLink(target, false, done);
    else navigator.go(target, false, done);
  }, [edges]);

  const gateRef = useRef(createTurnGate());
  /** The place across a resize (placeKeeper.ts), while a navigator lives. */
  const keeperRef = useRef<PlaceKeeper<Locator> | null>(null);
  /** Whether the frames are laid out scrolled, as last asked of the navigator. */
  const appliedScrollRef = useRef<boolean | undefined>(undefined);

  /** For the navigator's listeners, made once per book. */
  const goRef = useRef(go);
  goRef.current = go;

  const goToPosition = useCallback(
    (position: number) => {
      if (state.status !== 'ready') return;
      const target = state.positions[Math.min(Math.max(1, position), state.positions.length) - 1];
      if (target) go(target);
    },
    [state, go],
  );

  const perform = useCallback(
    (action: ReaderAction) => {
      const navigator = navigatorRef.current;
      // The page list of a book of pages is the table of contents here.
      const togglePanel = (panel: ChromePanel) => {
        const wanted: Dialog = panel === 'thumbnails' ? 'contents' : panel;
        setDialog((open) => (open === wanted ? null : wanted));
      };
      if (applyChromeAction(action, { toolbar, setToolbar, togglePanel, toggleFullscreen, exit: edges.exit })) return;
      switch (action) {
        // Forward and back in reading order; the keys and tap zones already follow the direction.
        case 'next':
        case 'previous': {
          const forward = action === 'next';
          const frameWindow = currentFrameWindow(navigator);
          if (vertical && frameWindow && turnVertical(frameWindow, forward)) {
            edges.moved();
            const place = locator && state.status === 'ready' ? verticalPlace(frameWindow, locator, state.positionList) : null;
            if (place) {
              setLocator(place);
              progressRef.current?.report(place);
            }
            break;
          }
          const scrolled = !vertical && preferencesRef.current.scroll === true;
          if (scrolled && frameWindow && scrollScreen(frameWindow, forward)) {
            edges.moved();
            break;
          }
          const edge = forward ? 'end' : 'start';
          // At the book's edge the navigator is not asked to turn: it would "bounce" the frame and,
          // 150 ms later, put back the scroll offset it saw, undoing any turn made in between (a
          // press back right after the start-of-book note). The edge note is ours anyway.
          if (navigator && !(forward ? navigator.canGoForward : navigator.canGoBackward)) {
            edges.hitEdge(edge);
            break;
          }
          const afterTurn = (moved: boolean) => {
            if (!moved) return edges.hitEdge(edge);
            edges.moved();
            boundFrames();
            const shownWindow = currentFrameWindow(navigator);
            // Back from a scrolled chapter's start: the previous chapter shows from its end.
            if (scrolled && !forward && shownWindow) showChapterEnd(shownWindow);
            // Back from a vertical chapter's start: the previous chapter shows from its end.
            if (vertical && !forward && navigator && shownWindow && locator && state.status === 'ready') {
              showVerticalAt(shownWindow, 1);
              const place = verticalPlace(shownWindow, navigator.currentLocator.serialize() as R2Locator, state.positionList);
              if (place) {
                setLocator(place);
                progressRef.current?.report(place);
              }
            }
          };
          if (!navigator) break;
          // One turn at a time (turnGate.ts): a turn asked for meanwhile is dropped.
          gateRef.current.turn((finished) => {
            const done = (moved: boolean) => {
              finished();
              afterTurn(moved);
            };
            if (forward) navigator.goForward(false, done);
            else navigator.goBackward(false, done);
          });
          break;
        }
        case 'first':
          goToPosition(1);
          break;
        case 'last':
          goToPosition(total);
          break;
        default:
          break;
      }
    },
    [edges, goToPosition, total, toggleFullscreen, toolbar, vertical, locator, state],
  );

  /** To the start of the next or previous chapter; past the book's first or last one, its edge note. */
  const jumpChapter = (forward: boolean) => {
    const navigator = navigatorRef.current;
    if (!navigator || state.status !== 'ready') return;
    const target = chapterStart(state.positions, navigator.currentLocator.href, forward);
    if (target) go(target);
    else edges.hitEdge(forward ? 'end' : 'start');
  };

  /** Keys from the page and from inside the book's frames (focus is often in the text). */
  const onKeyRef = useRef<(event: KeyboardEvent) => void>(() => {});
  onKeyRef.current = (event: KeyboardEvent) => {
    // An open dialog or popover (the "more" menu, the full title) owns the keys.
    if (event.defaultPrevented || containerRef.current?.querySelector('dialog[open], :popover-open') || isTyping(event.target, event.key)) return;
    // Space on a toolbar button reached by keyboard presses it instead of turning the page.
    if (pressesFocusedButton(event)) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const chapter = chapterKey(event, rtl ? 'RIGHT_TO_LEFT' : 'LEFT_TO_RIGHT');
    if (chapter) {
      event.preventDefault();
      jumpChapter(chapter === 'next');
      return;
    }
    let action: ReaderAction | null;
    if (event.key === ' ' || event.key === 'PageDown') action = event.shiftKey ? 'previous' : 'next';
    else if (event.key === 'PageUp') action = 'previous';
    else action = keyAction(event, rtl ? 'RIGHT_TO_LEFT' : 'LEFT_TO_RIGHT');
    // Only the keys that mean something here; the comic reader's layout keys do nothing.
    if (!action || /^(cycle-|direction-|scroll-)/.test(action)) return;
    event.preventDefault();
    perform(action);
  };
  /** Swipes over paginated text turn as the keys do (with the same start and end of the book). */
  const onSwipeRef = useRef<(dx: number) => void>(() => {});
  onSwipeRef.current = (dx: number) => {
    const action = swipeAction(Math.sign(dx), 0, rtl ? 'RIGHT_TO_LEFT' : 'LEFT_TO_RIGHT');
    if (action) perform(action);
  };
  useEffect(() => followFocusOrigin(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => onKeyRef.current(event);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The navigator: made once the publication is here, kept until the book changes.
  useEffect(() => {
    if (state.status !== 'ready') return;
    const host = frameHostRef.current;
    if (!host) return;
    const restored = state.saved ? restorePoint(state.saved, state.positionList) : null;
    const initial = restored ? Locator.deserialize(restored.position) : undefined;
    const withFrames = new WeakSet<Window>();
    const readingOrder = state.publication.readingOrder.items.map((item) => item.href);
    const clickAt = (x: number, y: number) => {
      const frame = currentFrame(navigatorRef.current);
      const width = frame?.clientWidth ?? host.clientWidth;
      const height = frame?.clientHeight ?? host.clientHeight;
      // The frame reports device pixels.
      perform(clickZoneAction(x / devicePixelRatio / Math.max(1, width), y / devicePixelRatio / Math.max(1, height), rtl ? 'RIGHT_TO_LEFT' : 'LEFT_TO_RIGHT'));
      return true;
    };
    // A fixed-layout page is scaled to fit and centred (or set in its spread's half), leaving bands
    // of the screen beside or above it that no frame covers: a click or tap there reaches the host,
    // not a frame, and turned nothing (on a phone held sideways the whole right edge was dead). It
    // turns as the same place of the screen would over a frame: by its share of the host's box.
    const clickBeside = (event: MouseEvent) => {
      if (event.target instanceof HTMLIFrameElement || event.button !== 0) return;
      const box = host.getBoundingClientRect();
      perform(clickZoneAction((event.clientX - box.left) / Math.max(1, box.width), (event.clientY - box.top) / Math.max(1, box.height), rtl ? 'RIGHT_TO_LEFT' : 'LEFT_TO_RIGHT'));
    };
    host.addEventListener('click', clickBeside);
    let reporting = false;
    // The place across a resize or a rotation (see placeKeeper.ts); vertical chapters keep their own.
    const keeper = keepPlace<Locator>(host, (place) => {
      const frameWindow = currentFrameWindow(navigatorRef.current);
      if (frameWindow && verticalMode(frameWindow) !== 'horizontal') return;
      return new Promise<void>((resolve) => goRef.current(place, resolve));
    });
    keeperRef.current = keeper;
    // Back after following a link of the book returns to where it was followed (linkHistory.ts).
    const links = linkHistory<Locator>((place) => goRef.current(place));
    const followingLink = (href: string) => {
      const navigator = navigatorRef.current;
      if (!navigator) return;
      const from = navigator.currentLocator;
      // The navigator resolves a link against the chapter's address, as done here.
      const inBook = href.startsWith('#') || linkTarget(new URL(href, from.href).href, readingOrder, window.location.origin).kind === 'chapter';
      if (inBook) links.followed(from);
    };
    /**
     * A link the navigator did not follow: a chapter of the book is shown here; a link out of the
     * book opens in a new tab, never inside the reader's frame.
     */
    const followOutsideNavigator = (href: string, type = 'application/xhtml+xml') => {
      const link = linkTarget(href, readingOrder, window.location.origin);
      if (link.kind === 'chapter') {
        const place = new Locator({ href: link.href, type, locations: new LocatorLocations({ fragments: link.fragment ? [link.fragment] : [] }) });
        goRef.current(place);
      } else if (link.kind === 'outside') {
        window.open(link.url, '_blank', 'noopener,noreferrer');
      } else {
        console.warn('A link of the book leads to nothing a reader can show', href);
        setLinkNotice(t('reader.epub.link_nowhere'));
      }
    };
    /** An image map's area or an SVG anchor (frameInput.ts): resolved against the chapter's address, as the navigator resolves anchors. */
    const followOtherLink = (href: string) => {
      const from = navigatorRef.current?.currentLocator;
      if (!from) return;
      let resolved: string;
      try {
        resolved = new URL(href, from.href).href;
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        console.warn('A link of the book has an address no browser can read', href);
        return;
      }
      followingLink(href);
      followOutsideNavigator(resolved);
    };
    const listeners: EpubNavigatorListeners = {
      frameLoaded: (frameWindow) => {
        // Also shown when the frame answers (revealFrames may have missed a frame's load).
        frameShown(frameWindow.document);
        // Named for screen readers (an unnamed frame is announced as just "frame"): the chapter's
        // own title, else the book's.
        frameWindow.frameElement?.setAttribute('title', frameWindow.document.title.trim() || title);
        if (withFrames.has(frameWindow)) return;
        withFrames.add(frameWindow);
        // Nothing of the book drawn over every page (pinnedElements.ts).
        unpinElements(frameWindow.document);
        // Tables wider than the text scroll sideways in the Scrolling layout; the others stay tables (wideTables.ts).
        markWideTables(frameWindow);
        listenToFrame(frameWindow, {
          key: (event) => onKeyRef.current(event),
          image: setZoomed,
          swipe: (dx) => onSwipeRef.current(dx),
          link: followingLink,
          otherLink: followOtherLink,
        });
        if (verticalMode(frameWindow) !== 'horizontal') setVertical(true);
      },
      positionChanged: (current) => {
        if (keeper.holding()) return;
        keeper.shown(placeToKeep(current, currentFrameWindow(navigatorRef.current), preferencesRef.current.scroll === true));
        // The navigator names the first position of the screen; the book's last position may start
        // before it on the last page. At the very end, that last position is where the reader is,
        // so "page y of y" shows and the book counts as read (the server completes a book at it).
        const shown = current.serialize() as R2Locator;
        // A vertical chapter's place is its sideways scroll, which the navigator does not see.
        const frameWindow = currentFrameWindow(navigatorRef.current);
        const sideways = frameWindow ? verticalPlace(frameWindow, shown, state.positionList) : null;
        const atEnd = !sideways && navigatorRef.current?.canGoForward === false;
        // Otherwise the page named is the one holding the screen's start, as the server stores it.
        const plain = sideways ?? (atEnd ? (state.positionList.at(-1) ?? shown) : heldPosition(shown, state.positionList));
        setLocator(plain);
        if (reporting) progressRef.current?.report(plain);
      },
      tap: (event) => clickAt(event.x, event.y),
      click: (event) => clickAt(event.x, event.y),
      zoom: () => {},
      miscPointer: () => {},
      scroll: () => {},
      customEvent: () => {},
      // Links the navigator could not place (see epubLinks.ts).
      handleLocator: (target) => {
        const fragments = target.locations?.fragments ?? [];
        followOutsideNavigator(fragments.length > 0 ? `${target.href}#${fragments[0]}` : target.href, target.type);
        return true;
      },
      textSelected: () => {},
    };
    const stopRevealing = revealFrames(host);
    // The frames fill the host, which the navigator sizes before it builds the first document.
    state.fetcher.frameWidth = () => (host.clientWidth > 0 ? host.clientWidth : undefined);
    const navigator = new EpubNavigator(host, state.publication, listeners, state.positions, initial, {
      preferences: preferencesRef.current,
      defaults: {},
    });
    navigatorRef.current = navigator;
    // One thing at a time: settings that arrive while the book loads (vertical text found, the
    // user's settings) are applied after the load and before the jump to the saved place, not in
    // the middle of either (a layout switch then drops the jump).
    let chain: Promise<unknown> = Promise.resolve();
    const run = <T,>(task: () => Promise<T>): Promise<T> => {
      const next = chain.then(task);
      chain = next.catch(() => undefined);
      return next;
    };
    runRef.current = run;
    let disposed = false;
    const startedScrolled = preferencesRef.current.scroll === true;
    appliedScrollRef.current = startedScrolled;
    const started = performance.now();
    void run(() => navigator.load())
      .then(
        () =>
          run(() => new Promise<void>((resolve) => {
            const target = restored && Locator.deserialize(restored.target);
            if (!target || disposed) return resolve();
            // In a vertical chapter the navigator stops at the chapter's start; the rest of the way
            // is sideways, once the frame is laid out as vertical text is shown (scrolled).
            pendingSideways.current = restored.target.locations?.progression ?? null;
            navigator.go(target, false, () => {
              // Opened paginated, vertical text switches to scrolled, which lays the frame out anew:
              // the place is shown after that switch (preferences effect).
              if (startedScrolled) showPendingSideways();
              resolve();
            });
          })),
      )
      .then(() => {
        if (disposed) return;
        performance.measure('folio:epub-first-text', { start: started });
        host.dataset.ready = 'true';
        setTextShown(true);
        reporting = true;
        const shown = navigator.currentLocator.serialize() as R2Locator;
        const frameWindow = currentFrameWindow(navigator);
        const place = (frameWindow && verticalPlace(frameWindow, shown, state.positionList)) || shown;
        setLocator(place);
        progressRef.current?.report(place);
      })
      .catch((error: unknown) => {
        console.error('The EPUB reader could not open the book', error);
        if (!disposed) setState({ status: 'error', message: describeReaderError(error) });
      });
    return () => {
      disposed = true;
      host.removeEventListener('click', clickBeside);
      stopRevealing();
      links.dispose();
      keeper.dispose();
      keeperRef.current = null;
      navigatorRef.current = null;
      runRef.current = null;
      delete host.dataset.ready;
      void navigator.destroy();
    };
    // The navigator lives as long as the publication; settings go through submitPreferences.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.status === 'ready' ? state.publication : null]);

  const preferencesKey = JSON.stringify(preferences);
  useEffect(() => {
    const navigator = navigatorRef.current;
    const run = runRef.current;
    if (!navigator || !run) return;
    // Vertical text found: the switch to the scrolled layout lays the frame out anew.
    const laidOutVertically = vertical;
    const scroll = preferencesRef.current.scroll === true;
    // A bigger font (line height, margins) reflows the text and may narrow the frames (the
    // navigator keeps lines readable): the navigator snapped its old offset to a page and the
    // resize keeper put back the middle of the old screen, both pages past what was being read
    // (150 % in the middle of a chapter skipped 14 paragraphs). The first character read before the
    // change is shown again after it (readingPoint.ts), the keeper paused meanwhile. Only between
    // paginated layouts (a switch to or from scrolling builds the frames anew) and once the book
    // has opened (settings that arrive while it opens come before the jump to the saved place).
    // In the chain, so the frames looked at are the ones a previous change left.
    run(async () => {
      const wasScrolled = appliedScrollRef.current;
      appliedScrollRef.current = scroll;
      const opened = frameHostRef.current?.dataset.ready === 'true';
      const reading = opened && !scroll && !wasScrolled && !laidOutVertically ? characterBeingRead(navigator) : null;
      const keeper = keeperRef.current;
      if (reading) keeper?.pause();
      try {
        await navigator.submitPreferences(new EpubPreferences(preferencesRef.current));
      } catch (error) {
        keeper?.placed(null);
        throw error;
      }
      return { reading, keeper };
    }).then(
      ({ reading, keeper }) => {
        if (navigatorRef.current !== navigator) return;
        if (laidOutVertically) return showPendingSideways();
        if (!reading) return;
        return run(() => showCharacterAgain(navigator, reading)).then(
          (shown) => keeper?.placed(shown && placeToKeep(shown, currentFrameWindow(navigator), false)),
          (error: unknown) => {
            keeper?.placed(null);
            console.warn('The place read could not be kept across the new settings', error);
          },
        );
      },
      (error: unknown) => console.warn('The reader settings could not be applied', error),
    );
  }, [preferencesKey]);

  const toc = useMemo(() => (state.status === 'ready' ? (state.publication.toc?.items ?? []) : []), [state]);
  const position = positionNumber(locator, total);
  const theme = preferences.backgroundColor;

  if (state.status === 'error') {
    return (
      <div className={styles.screen}>
        <div className={styles.message} role="alert">
          {state.message}
        </div>
      </div>
    );
  }

  return (
    <div ref={containerRef} className={styles.screen} style={{ background: theme }} data-testid="epub-reader">
      {/* The main landmark: the text is the page's content, between the bars. */}
      <main className={epubStyles.stage}>
        <div
          ref={frameHostRef}
          className={epubStyles.frames}
          data-testid="epub-frames"
          data-position={locator?.locations?.position ?? ''}
          data-progression={locator?.locations?.progression ?? ''}
          data-resource={locator ? resourcePath(locator.href) : ''}
          aria-busy={textShown ? undefined : 'true'}
        />
      </main>
      {!textShown && (
        <div className={styles.message} role="status" data-testid="epub-loading" style={{ color: preferences.textColor }}>
          {t('reader.loading')}
        </div>
      )}
      {toolbar && (
        <ReaderToolbar
          title={title}
          backHref={backHref}
          page={position}
          total={total}
          counterText={t('reader.page_label', { page: position, total })}
          pageDirection={rtl ? 'rtl' : 'ltr'}
          incognito={query.incognito}
          fullscreen={fullscreen}
          hasPreviousBook={siblings.previous !== null}
          hasNextBook={siblings.next !== null}
          onFullscreen={toggleFullscreen}
          onHelp={() => setDialog('help')}
          onContents={() => setDialog('contents')}
          onSettings={() => setDialog('settings')}
          onGoToPage={goToPosition}
          onPreviousBook={() => edges.goToBook(siblings.previous)}
          onNextBook={() => edges.goToBook(siblings.next)}
        />
      )}
      <div className={styles.visuallyHidden} aria-live="polite" aria-atomic="true">
        {t('reader.page_label', { page: position, total })}
      </div>
      <LiveStatus
        message={saveNotice ?? linkNotice ?? edges.message}
        messageProps={saveNotice ? saveNoticeHold : linkNotice ? linkNoticeHold : edges.holdProps}
        className={styles.snackbar}
        testId="reader-edge-message"
      />
      {dialog === 'settings' && (
        <EpubSettingsDialog
          settings={settings}
          fontSize={fontSize}
          onSettings={setSettings}
          onFontSize={setFontSize}
          onClose={() => setDialog(null)}
          unsaved={settingsUnsaved}
          unsavedKey={settingsSaveError?.failure ?? 0}
          onRetry={retrySettingsSave}
        />
      )}
      {dialog === 'help' && <ShortcutsDialog reader="text" onClose={() => setDialog(null)} />}
      {dialog === 'contents' && (
        <TocDialog
          entries={toc}
          current={currentTocEntry(toc, locator?.href ?? null, (fragment) => {
            const frameWindow = currentFrameWindow(navigatorRef.current);
            return frameWindow ? fragmentReached(frameWindow, fragment) : null;
          })}
          onPick={(link) => {
            setDialog(null);
            go(link);
          }}
          onClose={() => setDialog(null)}
          unavailable={state.status === 'ready' && state.navigationUnavailable}
        />
      )}
      {zoomed && <ImageZoomDialog src={zoomed} onClose={() => setZoomed(null)} />}
    </div>
  );
}
