import { Link } from 'wouter';
import { t } from '../i18n.ts';
import * as styles from './reader.css.ts';

interface ReaderStopProps {
  message: string;
  /** The book's page, when there is one to go back to (not for a book the server does not know). */
  bookHref: string | null;
}

/**
 * The reader's screen when it has nothing to show (the book failed to load, or has no pages): the
 * reason and a way on, since the toolbar and its back button are not there.
 */
export function ReaderStop({ message, bookHref }: ReaderStopProps) {
  return (
    <div className={styles.screen}>
      <div className={styles.message}>
        <p role="alert">{message}</p>
        <div className={styles.stopActions}>
          {bookHref && (
            <Link href={bookHref} className={`${styles.textButton} ${styles.messageAction}`}>
              {t('reader.back')}
            </Link>
          )}
          <Link href="/" className={`${styles.textButton} ${styles.messageAction}`}>
            {t('not_found.back_home')}
          </Link>
        </div>
      </div>
    </div>
  );
}
