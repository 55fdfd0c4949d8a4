import {
  ArrowLeft,
  ChevronFirst,
  ChevronLast,
  EyeOff,
  Grid3x3,
  Keyboard,
  ListTree,
  Maximize,
  Minimize,
  Settings,
  SkipBack,
  SkipForward,
} from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { interfaceDirection, t } from '../i18n.ts';
import * as styles from './reader.css.ts';
import { flipInRtl } from '../theme/direction.css.ts';
import { MenuAction, ReaderMoreMenu } from './ReaderMoreMenu.tsx';

interface ReaderToolbarProps {
  title: string;
  backHref: string;
  page: number;
  total: number;
  incognito: boolean;
  fullscreen: boolean;
  hasPreviousBook: boolean;
  hasNextBook: boolean;
  onFullscreen: () => void;
  onHelp: () => void;
  /** The page thumbnails (page books). */
  onThumbnails?: () => void;
  /** The table of contents (EPUB books). */
  onContents?: () => void;
  /** What the counter says; "page / total" by default. */
  counterText?: string;
  onSettings: () => void;
  onGoToPage: (page: number) => void;
  onPreviousBook: () => void;
  onNextBook: () => void;
  /**
   * The book's page order on screen: the bottom bar (slider, first/last page, previous/next book) runs
   * in it, so a right-to-left manga has page 1 on the right even under an English interface, and a
   * left-to-right comic has it on the left under Arabic. The top bar follows the interface language.
   */
  pageDirection: 'ltr' | 'rtl';
  /** Entries of the "more" menu at the end of the top bar, after the phone-only ones; `close` hides it. */
  menuItems?: (close: () => void) => ReactNode;
}

interface IconButtonProps {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** Hidden on phones, where the "more" menu holds the same action. */
  widerOnly?: boolean;
  children: ReactNode;
}

function IconButton({ label, onClick, disabled, widerOnly = false, children }: IconButtonProps) {
  return (
    <button
      type="button"
      className={widerOnly ? styles.widerOnlyIconButton : styles.iconButton}
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
    >
      {children}
    </button>
  );
}

/** REFERENCE §5.8: top bar (back, title, incognito, actions) and bottom bar (slider, book and page jumps). */
export function ReaderToolbar(props: ReaderToolbarProps) {
  const { title, backHref, page, total, incognito, fullscreen } = props;
  // The slider moves freely while dragged and jumps once released.
  const [sliderValue, setSliderValue] = useState(page);
  useEffect(() => setSliderValue(page), [page]);
  const commit = () => {
    if (sliderValue !== page) props.onGoToPage(sliderValue);
  };
  const fullscreenLabel = fullscreen ? t('reader.exit_fullscreen') : t('reader.fullscreen');
  const titleId = useId();
  return (
    <>
      <header className={styles.topBar} onClick={(event) => event.stopPropagation()}>
        <Link href={backHref} className={styles.iconButton} aria-label={t('reader.back')} title={t('reader.back')}>
          <ArrowLeft className={flipInRtl} aria-hidden size={20} />
        </Link>
        <h1 className={styles.title} style={{ fontSize: 'inherit', margin: 0 }}>
          {/* A long title is cut to the bar; a press shows it whole (no hover tooltip on a phone). */}
          <button type="button" className={styles.titleButton} popoverTarget={titleId} aria-haspopup="dialog" title={title}>
            {title}
          </button>
        </h1>
        {/* A dialog takes the focus as it opens (a screen reader then reads the title out); it holds
            nothing to act on, so Tab closes it and goes on from the title button, where popovers give focus back. */}
        <div
          id={titleId}
          popover="auto"
          role="dialog"
          aria-label={t('reader.full_title')}
          className={styles.titleSheet}
          tabIndex={-1}
          onToggle={(event) => {
            if (event.newState === 'open') event.currentTarget.focus();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Tab') event.currentTarget.hidePopover();
          }}
        >
          {title}
        </div>
        {incognito && (
          <span title={t('reader.incognito')} aria-label={t('reader.incognito')} role="img">
            <EyeOff aria-hidden size={20} />
          </span>
        )}
        {/* On a phone these two live in the "more" menu, so that the title keeps room to be read. */}
        <IconButton label={fullscreenLabel} onClick={props.onFullscreen} widerOnly>
          {fullscreen ? <Minimize aria-hidden size={20} /> : <Maximize aria-hidden size={20} />}
        </IconButton>
        <IconButton label={t('reader.shortcuts')} onClick={props.onHelp} widerOnly>
          <Keyboard aria-hidden size={20} />
        </IconButton>
        {props.onContents && (
          <IconButton label={t('reader.epub.contents')} onClick={props.onContents}>
            <ListTree aria-hidden size={20} />
          </IconButton>
        )}
        {props.onThumbnails && (
          <IconButton label={t('reader.thumbnails')} onClick={props.onThumbnails}>
            <Grid3x3 aria-hidden size={20} />
          </IconButton>
        )}
        <IconButton label={t('reader.settings')} onClick={props.onSettings}>
          <Settings aria-hidden size={20} />
        </IconButton>
        <ReaderMoreMenu phoneOnly={!props.menuItems}>
          {(close) => (
            <>
              <MenuAction
                phoneOnly
                onClick={() => {
                  close();
                  props.onFullscreen();
                }}
              >
                {fullscreenLabel}
              </MenuAction>
              <MenuAction
                phoneOnly
                onClick={() => {
                  close();
                  props.onHelp();
                }}
              >
                {t('reader.shortcuts')}
              </MenuAction>
              {props.menuItems?.(close)}
            </>
          )}
        </ReaderMoreMenu>
      </header>
      <footer className={styles.bottomBar} dir={props.pageDirection} onClick={(event) => event.stopPropagation()}>
        <div className={styles.barGroup}>
          <IconButton label={t('reader.previous_book')} onClick={props.onPreviousBook} disabled={!props.hasPreviousBook}>
            <SkipBack className={flipInRtl} aria-hidden size={20} />
          </IconButton>
          <IconButton label={t('reader.first_page')} onClick={() => props.onGoToPage(1)} disabled={page <= 1}>
            <ChevronFirst className={flipInRtl} aria-hidden size={20} />
          </IconButton>
        </div>
        <input
          type="range"
          className={styles.slider}
          min={1}
          max={Math.max(1, total)}
          value={sliderValue}
          aria-label={t('reader.page_slider')}
          // Without it a screen reader says the bare number in Latin digits ("5"), whatever the language.
          aria-valuetext={t('reader.page_label', { page: sliderValue, total: Math.max(1, total) })}
          onChange={(event) => setSliderValue(Number(event.target.value))}
          onPointerUp={commit}
          onKeyUp={commit}
        />
        {/* Words of the interface's language: its direction, not the book's (a right-to-left bar
            would show "1 / 14" to an English reader as "14 / 1"). */}
        <span className={styles.counter} data-testid="reader-page-counter" dir={interfaceDirection()}>
          {props.counterText ?? t('reader.page_counter', { page, total })}
        </span>
        <div className={styles.barGroup}>
          <IconButton label={t('reader.last_page')} onClick={() => props.onGoToPage(total)} disabled={page >= total}>
            <ChevronLast className={flipInRtl} aria-hidden size={20} />
          </IconButton>
          <IconButton label={t('reader.next_book')} onClick={props.onNextBook} disabled={!props.hasNextBook}>
            <SkipForward className={flipInRtl} aria-hidden size={20} />
          </IconButton>
        </div>
      </footer>
    </>
  );
}
