import { pageThumbnailUrl } from '../../api/books.ts';
import { transientPageUrl, type TransientBookDto } from '../../api/bookImport.ts';
import type { BookDto } from '../../api/types.ts';
import { formatBytes } from '../format.ts';
import { t, tPlural } from '../i18n.ts';
import * as styles from './compare.css.ts';
import { Modal } from './Modal.tsx';

const SHOWN_PAGES = 4;

/**
 * Before an import replaces a book's file (an upgrade), the two side by side: sizes, page counts
 * and the first pages, so the admin can tell the new file really is the better one.
 */
export function CompareBooksDialog(props: { existing: BookDto; incoming: TransientBookDto; open: boolean; onClose: () => void }) {
  const { existing, incoming, open, onClose } = props;
  const existingPages = existing.media.pagesCount;
  const incomingPages = incoming.pages.length;
  return (
    <Modal open={open} wide title={t('compare.title')} onClose={onClose} onSubmit={onClose} submitLabel={t('compare.done')}>
      <div className={styles.columns}>
        <section aria-label={t('compare.existing')}>
          <h3 className={styles.heading}>{t('compare.existing')}</h3>
          <p>{existing.metadata.title || existing.name}</p>
          <p>
            {formatBytes(existing.sizeBytes)} · {tPlural('units.pages', existingPages)}
          </p>
          <div className={styles.pages}>
            {Array.from({ length: Math.min(SHOWN_PAGES, existingPages) }, (_, i) => (
              <img
                key={i}
                className={styles.page}
                src={pageThumbnailUrl(existing.id, i + 1)}
                alt={t('compare.page_alt', { n: i + 1, which: t('compare.existing') })}
                loading="lazy"
              />
            ))}
          </div>
        </section>
        <section aria-label={t('compare.incoming')}>
          <h3 className={styles.heading}>{t('compare.incoming')}</h3>
          <p>{incoming.name}</p>
          <p>
            {formatBytes(incoming.sizeBytes)} · {tPlural('units.pages', incomingPages)}
          </p>
          <div className={styles.pages}>
            {Array.from({ length: Math.min(SHOWN_PAGES, incomingPages) }, (_, i) => (
              <img
                key={i}
                className={styles.page}
                src={transientPageUrl(incoming.id, i + 1)}
                alt={t('compare.page_alt', { n: i + 1, which: t('compare.incoming') })}
                loading="lazy"
              />
            ))}
          </div>
        </section>
      </div>
    </Modal>
  );
}
