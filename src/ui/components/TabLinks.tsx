import { useLayoutEffect, useRef } from 'react';
import { Link } from 'wouter';
import * as styles from '../screens/library/library.css.ts';

export interface TabLink {
  key: string;
  href: string;
  label: string;
}

/**
 * A row of links to a screen's views, the current one marked. On a phone the row is wider than the
 * screen and scrolls sideways: the current tab is brought into view, or a user on the last tab
 * would see no tab marked at all.
 */
export function TabLinks({ label, tabs, current }: { label: string; tabs: readonly TabLink[]; current: string }) {
  const list = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    const row = list.current;
    const active = row?.querySelector('[aria-current="page"]');
    if (!row || !active) return;
    const shown = row.getBoundingClientRect();
    const tab = active.getBoundingClientRect();
    // Relative moves, so right-to-left rows (negative scrollLeft) need nothing special.
    if (tab.left < shown.left) row.scrollBy({ left: tab.left - shown.left });
    else if (tab.right > shown.right) row.scrollBy({ left: tab.right - shown.right });
  }, [current]);
  return (
    <nav aria-label={label}>
      <ul ref={list} className={styles.tabs}>
        {tabs.map((tab) => (
          <li key={tab.key}>
            <Link href={tab.href} className={styles.tab} aria-current={tab.key === current ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
