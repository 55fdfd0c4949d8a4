import { EllipsisVertical } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { focusFirstStop, wrapTab } from '../components/wrapTab.ts';
import { t } from '../i18n.ts';
import * as styles from './reader.css.ts';

interface ReaderMoreMenuProps {
  /**
   * True when every item is a phone-only stand-in for a top-bar button: wider screens show those
   * buttons and so no "more" button at all.
   */
  phoneOnly: boolean;
  /** The items; `close` hides the menu (before an item opens a dialog, so focus goes back to "more"). */
  children: (close: () => void) => ReactNode;
}

/**
 * The top bar's "more" button and its menu, a native popover (light dismiss, Escape, and focus back
 * on "more" when it closes). As it opens, focus moves to its first entry, and Tab and Shift+Tab go
 * round its entries: on a phone the menu covers the bar, and Tab used to walk on out of it, behind.
 */
export function ReaderMoreMenu({ phoneOnly, children }: ReaderMoreMenuProps) {
  const id = useId();
  const popover = useRef<HTMLDivElement>(null);
  const close = () => popover.current?.hidePopover();
  useEffect(() => {
    const menu = popover.current;
    if (!menu) return;
    const toggled = (event: Event) => {
      if ((event as ToggleEvent).newState === 'open') focusFirstStop(menu);
    };
    menu.addEventListener('toggle', toggled);
    return () => menu.removeEventListener('toggle', toggled);
  }, []);
  return (
    <>
      <button
        type="button"
        className={phoneOnly ? styles.phoneOnlyIconButton : styles.iconButton}
        popoverTarget={id}
        aria-label={t('reader.page_menu')}
        title={t('reader.page_menu')}
      >
        <EllipsisVertical aria-hidden size={20} />
      </button>
      <div id={id} ref={popover} popover="auto" className={styles.menu} onKeyDown={(event) => wrapTab(event, event.currentTarget)}>
        {children(close)}
      </div>
    </>
  );
}

/** One menu entry that runs an action (links use styles.menuItem directly). */
export function MenuAction({ onClick, phoneOnly = false, children }: { onClick: () => void; phoneOnly?: boolean; children: ReactNode }) {
  return (
    <button type="button" className={phoneOnly ? styles.phoneOnlyMenuItem : styles.menuItem} onClick={onClick}>
      {children}
    </button>
  );
}
