import { EllipsisVertical } from 'lucide-react';
import { useId, useRef, type ReactNode } from 'react';
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

/** The top bar's "more" button and its menu, a native popover (light dismiss, Escape, focus order). */
export function ReaderMoreMenu({ phoneOnly, children }: ReaderMoreMenuProps) {
  const id = useId();
  const popover = useRef<HTMLDivElement>(null);
  const close = () => popover.current?.hidePopover();
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
      <div id={id} ref={popover} popover="auto" className={styles.menu}>
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
