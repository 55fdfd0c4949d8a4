import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect } from 'react';
import { formatNumber } from '../format.ts';
import { t } from '../i18n.ts';
import * as buttons from './buttons.css.ts';
import * as styles from './paging.css.ts';
import { flipInRtl } from '../theme/direction.css.ts';

/**
 * "x–y of total" with previous/next controls; `page` is 0-based. A page past the end (an old link,
 * a list that shrank) moves to the last page, replacing the address rather than adding to history.
 */
export function PagingFooter(props: {
  page: number;
  size: number;
  total: number;
  onPage: (page: number, options?: { replace?: boolean }) => void;
}) {
  const { size, total, onPage } = props;
  const lastPage = Math.max(0, Math.ceil(total / size) - 1);
  const outOfRange = total > 0 && props.page > lastPage;
  useEffect(() => {
    if (outOfRange) onPage(lastPage, { replace: true });
  }, [outOfRange, lastPage, onPage]);
  if (total === 0) return null;
  const page = Math.min(props.page, lastPage);
  const from = page * size + 1;
  const to = Math.min(total, (page + 1) * size);
  return (
    <nav className={styles.footer} aria-label={t('paging.label')}>
      <span>{t('paging.range', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) })}</span>
      <button type="button" className={buttons.icon} disabled={page <= 0} onClick={() => onPage(page - 1)} aria-label={t('paging.previous')}>
        <ChevronLeft className={flipInRtl} aria-hidden="true" size={20} />
      </button>
      <button type="button" className={buttons.icon} disabled={page >= lastPage} onClick={() => onPage(page + 1)} aria-label={t('paging.next')}>
        <ChevronRight className={flipInRtl} aria-hidden="true" size={20} />
      </button>
    </nav>
  );
}
