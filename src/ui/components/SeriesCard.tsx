import { Link } from 'wouter';
import type { LiveEventName } from '../../api/events.ts';
import { seriesThumbnailUrl } from '../../api/series.ts';
import type { SeriesDto } from '../../api/types.ts';
import { formatNumber } from '../format.ts';
import { t, tPlural } from '../i18n.ts';
import { CardSelectBox } from './CardSelectBox.tsx';
import { Poster } from './Poster.tsx';
import * as styles from './cards.css.ts';
import { useUnavailable } from './unavailable.ts';

/** A series poster is its own or its first book's: a new poster for either may be the one this card lacks. */
const POSTER_EVENTS: readonly LiveEventName[] = ['ThumbnailSeriesAdded', 'ThumbnailBookAdded'];

/** A card whose link is named exactly by the series title; the book count sits beside it. */
export function SeriesCard({
  series,
  selection,
}: {
  series: SeriesDto;
  /** When given, the card carries a checkbox for multi-selection. */
  selection?: { selected: boolean; onToggle: (selected: boolean) => void };
}) {
  const title = series.metadata.title || series.name;
  // Cache-bust the poster when the series changes, so a rescan's new cover shows up.
  const unavailable = useUnavailable(series);
  const thumbnail = `${seriesThumbnailUrl(series.id)}?v=${encodeURIComponent(series.lastModified)}`;
  return (
    <div className={`${styles.card} ${unavailable ? styles.unavailableCard : ''}`}>
      <Poster src={thumbnail} retryWhen={(event) => POSTER_EVENTS.includes(event.name) && event.data.seriesId === series.id}>
        {selection && (
          <CardSelectBox label={t('batch_edit.select_book', { title })} selected={selection.selected} onToggle={selection.onToggle} />
        )}
        {series.booksUnreadCount > 0 && (
          <span className={styles.badge} aria-hidden="true">
            {formatNumber(series.booksUnreadCount)}
          </span>
        )}
      </Poster>
      <span className={styles.title}>
        <Link href={`/series/${series.id}`} className={styles.titleLink}>
          {title}
        </Link>
      </span>
      {unavailable && <span className={styles.unavailableLabel}>{t('content.unavailable')}</span>}
      <span className={styles.subtitle}>{tPlural('units.books', series.booksCount)}</span>
    </div>
  );
}
