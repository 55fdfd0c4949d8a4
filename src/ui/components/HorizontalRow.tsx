import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useId, useRef, type ReactNode, type UIEvent } from 'react';
import * as buttons from './buttons.css.ts';
import * as styles from './row.css.ts';
import { flipInRtl } from '../theme/direction.css.ts';

/**
 * A titled, sideways-scrolling row of cards (dashboard sections). `onNearEnd` fires when the row
 * is scrolled past 95% so the caller can fetch the next page.
 */
export function HorizontalRow<T>(props: {
  title: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  onNearEnd?: () => void;
}) {
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const { onNearEnd } = props;
  // Pointer users without a horizontal wheel page the row with these; keyboard users tab through
  // the cards (the browser scrolls them into view), so the buttons stay out of the tab order.
  function page(direction: 1 | -1) {
    const el = listRef.current;
    if (!el) return;
    const rtl = getComputedStyle(el).direction === 'rtl' ? -1 : 1;
    el.scrollBy({ left: direction * rtl * el.clientWidth * 0.9, behavior: 'smooth' });
  }
  function onScroll(event: UIEvent<HTMLUListElement>) {
    const el = event.currentTarget;
    // scrollLeft runs from 0 toward negative values in a right-to-left row, hence the absolute value.
    if (onNearEnd && Math.abs(el.scrollLeft) + el.clientWidth >= el.scrollWidth * 0.95) onNearEnd();
  }
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.header}>
        <h2 id={headingId} className={styles.heading}>
          {props.title}
        </h2>
        <span aria-hidden="true">
          <button type="button" tabIndex={-1} className={buttons.icon} onClick={() => page(-1)}>
            <ChevronLeft className={flipInRtl} size={20} />
          </button>
          <button type="button" tabIndex={-1} className={buttons.icon} onClick={() => page(1)}>
            <ChevronRight className={flipInRtl} size={20} />
          </button>
        </span>
      </div>
      <ul ref={listRef} className={styles.scroller} onScroll={onScroll}>
        {props.items.map((item) => (
          <li key={props.itemKey(item)} className={styles.item}>
            {props.renderItem(item)}
          </li>
        ))}
      </ul>
    </section>
  );
}
