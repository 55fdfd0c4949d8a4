import { Link } from 'wouter';
import { bookThumbnailUrl } from '../../api/books.ts';
import type { BookDto } from '../../api/types.ts';
import { t, tPlural } from '../i18n.ts';
import { CardSelectBox } from './CardSelectBox.tsx';
import { Poster } from './Poster.tsx';
import * as styles from './cards.css.ts';
import { useUnavailable } from './unavailable.ts';

/** A card whose link is named exactly by the book title; series and page count sit beside it. */
export function BookCard(props: {
  book: BookDto;
  showSeries?: boolean;
  /** Read list the book is shown in; its detail page then navigates within that list. */
  readListId?: string;
  /** When given, the card carries a checkbox for multi-selection. */
  selection?: { selected: boolean; onToggle: (selected: boolean) => void };
}) {
  const { book, showSeries = false, readListId, selection } = props;
  const title = book.metadata.title || book.name;
  const progress = book.readProgress;
  const readFraction =
    progress && !progress.completed && book.media.pagesCount > 0 ? progress.page / book.media.pagesCount : 0;
  const unavailable = useUnavailable(book);
  const thumbnail = `${bookThumbnailUrl(book.id)}?v=${encodeURIComponent(book.lastModified)}`;
  return (
    <div className={`${styles.card} ${unavailable ? styles.unavailableCard : ''}`}>
      <Poster src={thumbnail} retryWhen={(event) => event.name === 'ThumbnailBookAdded' && event.data.bookId === book.id}>
        {selection && (
          <CardSelectBox label={t('batch_edit.select_book', { title })} selected={selection.selected} onToggle={selection.onToggle} />
        )}
        {!progress && (
          <span className={styles.badge} aria-hidden="true">
            •
          </span>
        )}
        {readFraction > 0 && <span className={styles.readMark} style={{ width: `${readFraction * 100}%` }} />}
      </Poster>
      <span className={styles.title}>
        <Link
          href={`/book/${book.id}${readListId ? `?readlist=${encodeURIComponent(readListId)}` : ''}`}
          className={styles.titleLink}
        >
          {title}
        </Link>
      </span>
      {unavailable && <span className={styles.unavailableLabel}>{t('content.unavailable')}</span>}
      <span className={styles.subtitle}>
        {showSeries && book.seriesTitle ? `${book.seriesTitle} · ` : ''}
        {tPlural('units.pages', book.media.pagesCount)}
      </span>
    </div>
  );
}
