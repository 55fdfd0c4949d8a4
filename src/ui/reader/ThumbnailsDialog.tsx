import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { pageThumbnailUrl } from '../../api/books.ts';
import { formatNumber } from '../format.ts';
import { t } from '../i18n.ts';
import { ReaderDialog } from './ReaderDialog.tsx';
import * as styles from './reader.css.ts';
import { readerPreferences, THUMBNAIL_PAGE_SIZES } from './settingsStore.ts';

interface ThumbnailsDialogProps {
  bookId: string;
  pageCount: number;
  currentPage: number;
  onPick: (page: number) => void;
  onClose: () => void;
}

/** REFERENCE §5.8: a paged grid of page thumbnails; a click goes to that page and closes. */
export function ThumbnailsDialog({ bookId, pageCount, currentPage, onPick, onClose }: ThumbnailsDialogProps) {
  const { thumbnailsPageSize } = useSnapshot(readerPreferences);
  const [chunk, setChunk] = useState(() => Math.floor((currentPage - 1) / thumbnailsPageSize));
  const chunks = Math.max(1, Math.ceil(pageCount / thumbnailsPageSize));
  const first = chunk * thumbnailsPageSize + 1;
  const last = Math.min(pageCount, first + thumbnailsPageSize - 1);
  const numbers: number[] = [];
  for (let page = first; page <= last; page++) numbers.push(page);

  return (
    <ReaderDialog title={t('reader.thumbnails')} onClose={onClose}>
      <ul className={styles.thumbnailGrid}>
        {numbers.map((page) => (
          <li key={page}>
            <button
              type="button"
              className={styles.thumbnailButton}
              aria-current={page === currentPage ? 'page' : undefined}
              onClick={() => onPick(page)}
            >
              <img className={styles.thumbnailImage} src={pageThumbnailUrl(bookId, page)} alt="" loading="lazy" />
              <span>{t('reader.page_number', { page })}</span>
            </button>
          </li>
        ))}
      </ul>
      <nav className={styles.dialogHeader} aria-label={t('reader.thumbnail_pages')}>
        <button type="button" className={styles.textButton} disabled={chunk <= 0} onClick={() => setChunk(chunk - 1)}>
          {t('reader.previous')}
        </button>
        <span>{t('reader.range', { first, last, total: pageCount })}</span>
        <label>
          {t('reader.per_page')}{' '}
          <select
            className={styles.select}
            value={thumbnailsPageSize}
            onChange={(event) => {
              readerPreferences.thumbnailsPageSize = Number(event.target.value);
              setChunk(0);
            }}
          >
            {THUMBNAIL_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {formatNumber(size)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={styles.textButton} disabled={chunk >= chunks - 1} onClick={() => setChunk(chunk + 1)}>
          {t('reader.next')}
        </button>
      </nav>
    </ReaderDialog>
  );
}
