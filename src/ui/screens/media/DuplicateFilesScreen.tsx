import { Link } from 'wouter';
import { getDuplicateBooks } from '../../../api/duplicates.ts';
import { EmptyState, ErrorMessage, Loading } from '../../components/Feedback.tsx';
import { LabelledCell } from '../../components/LabelledCell.tsx';
import { PagingFooter } from '../../components/PagingFooter.tsx';
import * as table from '../../components/table.css.ts';
import { formatBytes } from '../../format.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { usePageParam } from '../../hooks/usePageParam.ts';
import { t } from '../../i18n.ts';
import * as library from '../library/library.css.ts';
import { DuplicatesPageSizeField, useDuplicatesPageSize } from './DuplicatesPageSize.tsx';
import { MediaManagementLayout } from './MediaManagementLayout.tsx';

/** Books whose files have the same hash, grouped by that hash. */
export function DuplicateFilesScreen() {
  const [page, setPage] = usePageParam();
  const size = useDuplicatesPageSize();
  const books = useAsync(() => getDuplicateBooks({ page, size, sort: ['fileHash,asc'] }), [page, size]);
  const rows = books.data?.content ?? [];
  return (
    <MediaManagementLayout current="duplicate_files">
      <div className={library.toolbar}>
        <DuplicatesPageSizeField onChanged={() => setPage(0)} />
      </div>
      <ErrorMessage error={books.error} />
      {books.loading && !books.data && <Loading />}
      {books.data && rows.length === 0 && <EmptyState>{t('media.duplicates.none')}</EmptyState>}
      {rows.length > 0 && (
        <div className={table.wrapper}>
          {/* Cards on a phone: the file path and size were past the screen's edge. */}
          <table className={`${table.table} ${table.stacked}`}>
            <thead>
              <tr>
                <th scope="col">{t('media.columns.hash')}</th>
                <th scope="col">{t('media.columns.book')}</th>
                <th scope="col">{t('book.file')}</th>
                <th scope="col">{t('book.size')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((book) => (
                <tr key={book.id}>
                  <LabelledCell label={t('media.columns.hash')}>
                    <code>{book.fileHash.slice(0, 12)}</code>
                  </LabelledCell>
                  <th scope="row">
                    <Link href={`/book/${book.id}`}>{book.metadata.title || book.name}</Link>
                  </th>
                  <LabelledCell label={t('book.file')}>{book.url}</LabelledCell>
                  <LabelledCell label={t('book.size')}>{formatBytes(book.sizeBytes)}</LabelledCell>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {books.data && <PagingFooter page={page} size={size} total={books.data.totalElements} onPage={setPage} />}
    </MediaManagementLayout>
  );
}
