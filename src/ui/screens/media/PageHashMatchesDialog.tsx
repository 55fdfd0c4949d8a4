import { useState } from 'react';
import { Link } from 'wouter';
import { pageThumbnailUrl } from '../../../api/books.ts';
import { deletePageHashMatch, getPageHashMatches, knownPageHashThumbnailUrl, type PageHashMatchDto } from '../../../api/duplicates.ts';
import { EmptyState, ErrorMessage, Loading } from '../../components/Feedback.tsx';
import * as buttons from '../../components/buttons.css.ts';
import { LabelledCell } from '../../components/LabelledCell.tsx';
import * as table from '../../components/table.css.ts';
import { Modal } from '../../dialogs/Modal.tsx';
import { useAsync } from '../../hooks/useAsync.ts';
import { t } from '../../i18n.ts';
import * as styles from './media.css.ts';

/** The file name of a match's book, as the table shows it (the full path is the tooltip). */
const bookFile = (match: PageHashMatchDto) => match.url.split(/[\\/]/).pop() ?? match.url;

/**
 * The pages that carry a known hash (GET /page-hashes/{hash}), each shown beside the known page so
 * the two can be compared before one is deleted (POST …/delete-match). A deletion is queued: the
 * list is read again once it has been asked for.
 */
export function PageHashMatchesDialog(props: { hash: string; open: boolean; onClose: () => void; onChanged: () => void }) {
  const { hash, open, onClose } = props;
  const matches = useAsync(() => (open ? getPageHashMatches(hash, { unpaged: true }) : Promise.resolve(null)), [hash, open]);
  const [error, setError] = useState<unknown>(undefined);
  const [deleted, setDeleted] = useState<string[]>([]);
  const rows = (matches.data?.content ?? []).filter((m) => !deleted.includes(`${m.bookId}:${m.pageNumber}`));

  async function remove(match: PageHashMatchDto) {
    setError(undefined);
    try {
      await deletePageHashMatch(hash, match);
      setDeleted((previous) => [...previous, `${match.bookId}:${match.pageNumber}`]);
      props.onChanged();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Modal open={open} wide noSubmit title={t('media.pages.matches_title')} onClose={onClose} onSubmit={onClose} submitLabel={t('reader.close')} cancelLabel={t('reader.close')}>
      <ErrorMessage error={matches.error} />
      <ErrorMessage error={error} />
      {matches.loading && !matches.data && <Loading />}
      {matches.data && rows.length === 0 && <EmptyState>{t('media.pages.no_match_left')}</EmptyState>}
      {rows.length > 0 && (
        <div className={table.wrapper}>
          {/* Cards on a phone: four columns put the delete buttons past the screen's edge. */}
          <table className={`${table.table} ${table.stacked}`}>
            <thead>
              <tr>
                <th scope="col">{t('media.pages.known_page')}</th>
                <th scope="col">{t('media.pages.match_page')}</th>
                <th scope="col">{t('media.pages.match_book')}</th>
                <th scope="col">{t('media.pages.action')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((match) => {
                const label = t('media.pages.match_row', { book: bookFile(match), page: match.pageNumber });
                return (
                  <tr key={`${match.bookId}:${match.pageNumber}`}>
                    <LabelledCell label={t('media.pages.known_page')}>
                      <img className={styles.thumb} src={knownPageHashThumbnailUrl(hash)} alt={t('media.pages.known_page')} loading="lazy" />
                    </LabelledCell>
                    <LabelledCell label={t('media.pages.match_page')}>
                      <img className={styles.thumb} src={pageThumbnailUrl(match.bookId, match.pageNumber)} alt={label} loading="lazy" />
                    </LabelledCell>
                    <td>
                      <Link href={`/book/${encodeURIComponent(match.bookId)}`} title={match.url}>
                        {label}
                      </Link>
                    </td>
                    <td>
                      <button type="button" className={buttons.danger} aria-label={t('common.label_value', { label: t('media.pages.delete_match'), value: label })} onClick={() => void remove(match)}>
                        {t('media.pages.delete_match')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Modal>
  );
}
