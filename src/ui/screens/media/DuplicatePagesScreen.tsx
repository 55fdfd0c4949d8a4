import { useRef, useState } from 'react';
import {
  deleteAllPageHashMatches,
  getKnownPageHashes,
  getUnknownPageHashes,
  knownPageHashThumbnailUrl,
  PAGE_HASH_ACTIONS,
  setPageHashAction,
  unknownPageHashThumbnailUrl,
  type PageHashAction,
} from '../../../api/duplicates.ts';
import { EmptyState, ErrorMessage, LiveStatus, Loading } from '../../components/Feedback.tsx';
import { LabelledCell } from '../../components/LabelledCell.tsx';
import { PagingFooter } from '../../components/PagingFooter.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import * as buttons from '../../components/buttons.css.ts';
import * as feedback from '../../components/feedback.css.ts';
import * as table from '../../components/table.css.ts';
import { ConfirmDeleteDialog } from '../../dialogs/ConfirmDeleteDialog.tsx';
import { formatBytes, formatNumber } from '../../format.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { usePageParam } from '../../hooks/usePageParam.ts';
import { useRowFocusAfterRemoval } from '../../hooks/useRowFocusAfterRemoval.ts';
import { t } from '../../i18n.ts';
import { TabLinks } from '../../components/TabLinks.tsx';
import * as library from '../library/library.css.ts';
import * as styles from './media.css.ts';
import { DuplicatesPageSizeField, useDuplicatesPageSize } from './DuplicatesPageSize.tsx';
import { MediaManagementLayout } from './MediaManagementLayout.tsx';
import { PageHashMatchesDialog } from './PageHashMatchesDialog.tsx';
import { useMatchesDeletion } from './useMatchesDeletion.ts';

const sizeText = (size: number | null) => (size === null || size < 0 ? t('media.pages.unknown_size') : formatBytes(size));

function UnknownHashes() {
  const [page, setPage] = usePageParam();
  const size = useDuplicatesPageSize();
  const hashes = useAsync(() => getUnknownPageHashes({ page, size, sort: ['matchCount,desc'] }), [page, size]);
  const [error, setError] = useState<unknown>(undefined);
  const rows = hashes.data?.content ?? [];
  // A decided hash leaves this tab (it is known now), taking the pressed button with it.
  const listRef = useRef<HTMLDivElement>(null);
  const acted = useRowFocusAfterRemoval(listRef, hashes.data);

  async function decide(index: number, hash: string, size: number | null, action: PageHashAction) {
    setError(undefined);
    try {
      await setPageHashAction(hash, size, action);
      acted(index, action);
      hashes.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <>
      <div className={library.toolbar}>
        <DuplicatesPageSizeField onChanged={() => setPage(0)} />
      </div>
      <ErrorMessage error={hashes.error} />
      <ErrorMessage error={error} />
      {hashes.loading && !hashes.data && <Loading />}
      {hashes.data && rows.length === 0 && <EmptyState>{t('media.pages.none_unknown')}</EmptyState>}
      {rows.length > 0 && (
        <div className={table.wrapper} ref={listRef}>
          {/* Cards on a phone: five columns put the actions past the screen's edge. */}
          <table className={`${table.table} ${table.stacked}`}>
            <thead>
              <tr>
                <th scope="col">{t('media.pages.page')}</th>
                <th scope="col">{t('book.size')}</th>
                <th scope="col">{t('media.pages.matches')}</th>
                <th scope="col">{t('media.pages.total_size')}</th>
                <th scope="col">{t('media.pages.action')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={row.hash}>
                  <td>
                    <img
                      className={styles.thumb}
                      src={unknownPageHashThumbnailUrl(row.hash)}
                      alt={t('media.pages.page_alt', { n: page * size + index + 1 })}
                      loading="lazy"
                    />
                  </td>
                  <LabelledCell label={t('book.size')}>{sizeText(row.size)}</LabelledCell>
                  <LabelledCell label={t('media.pages.matches')}>{formatNumber(row.matchCount)}</LabelledCell>
                  <LabelledCell label={t('media.pages.total_size')}>
                    {row.size !== null && row.size >= 0 ? formatBytes(row.size * row.matchCount) : ''}
                  </LabelledCell>
                  <td>
                    <div className={styles.actions}>
                      {PAGE_HASH_ACTIONS.map((action) => (
                        <button
                          key={action}
                          type="button"
                          className={buttons.quiet}
                          data-row-control={action}
                          aria-label={t('media.pages.set_action', { action: t(`media.pages.actions.${action}`), n: page * size + index + 1 })}
                          onClick={() => void decide(index, row.hash, row.size, action)}
                        >
                          {t(`media.pages.actions.${action}`)}
                        </button>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hashes.data && <PagingFooter page={page} size={size} total={hashes.data.totalElements} onPage={setPage} />}
    </>
  );
}

/** A hash's preview; a failed load (its last match went meanwhile) shows words, not a broken image. */
function HashPreview({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <span className={styles.noPreview}>{t('media.pages.no_match_left')}</span>;
  return <img className={styles.thumb} src={src} alt={alt} loading="lazy" onError={() => setFailed(true)} />;
}

function KnownHashes() {
  const [page, setPage] = usePageParam();
  const [filter, setFilter] = useState<PageHashAction | ''>('');
  const size = useDuplicatesPageSize();
  const hashes = useAsync(
    () => getKnownPageHashes(filter || undefined, { page, size, sort: ['deleteCount,desc'] }),
    [page, filter, size],
  );
  const [error, setError] = useState<unknown>(undefined);
  const [deleting, setDeleting] = useState<{ hash: string; n: number } | null>(null);
  const [showing, setShowing] = useState<string | null>(null);
  const rows = hashes.data?.content ?? [];
  // Filtered by action, a row whose action changed leaves the list with its focused field.
  const listRef = useRef<HTMLDivElement>(null);
  const acted = useRowFocusAfterRemoval(listRef, hashes.data);
  const deletion = useMatchesDeletion(listRef, hashes.data?.content, hashes.reload);

  async function change(index: number, hash: string, size: number | null, action: PageHashAction) {
    setError(undefined);
    try {
      await setPageHashAction(hash, size, action);
      acted(index, 'action');
      hashes.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <>
      <div className={library.toolbar}>
        <SelectField
          label={t('media.pages.filter')}
          value={filter}
          options={[
            { value: '', label: t('media.pages.all_actions') },
            ...PAGE_HASH_ACTIONS.map((action) => ({ value: action, label: t(`media.pages.actions.${action}`) })),
          ]}
          onChange={(value) => {
            setFilter(value as PageHashAction | '');
            setPage(0);
          }}
        />
        <DuplicatesPageSizeField onChanged={() => setPage(0)} />
      </div>
      <ErrorMessage error={hashes.error} />
      <ErrorMessage error={error} />
      <LiveStatus as="p" message={deletion.status} />
      <LiveStatus as="p" className={feedback.errorBox} message={deletion.failure} />
      {hashes.loading && !hashes.data && <Loading />}
      {hashes.data && rows.length === 0 && <EmptyState>{t('media.pages.none_known')}</EmptyState>}
      {rows.length > 0 && (
        <div className={table.wrapper} ref={listRef}>
          {/* Cards on a phone: five columns put the actions past the screen's edge. */}
          <table className={`${table.table} ${table.stacked}`}>
            <thead>
              <tr>
                <th scope="col">{t('media.pages.page')}</th>
                <th scope="col">{t('book.size')}</th>
                <th scope="col">{t('media.pages.matches')}</th>
                <th scope="col">{t('media.pages.deleted')}</th>
                <th scope="col">{t('media.pages.action')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const n = page * size + index + 1;
                return (
                  <tr key={row.hash} data-hash={row.hash}>
                    <td>
                      {/* The preview is drawn from a matching page: none is left once all were deleted. */}
                      {row.matchCount > 0 ? (
                        <HashPreview src={knownPageHashThumbnailUrl(row.hash)} alt={t('media.pages.page_alt', { n })} />
                      ) : (
                        <span className={styles.noPreview}>{t('media.pages.no_match_left')}</span>
                      )}
                    </td>
                    <LabelledCell label={t('book.size')}>{sizeText(row.size)}</LabelledCell>
                    <LabelledCell label={t('media.pages.matches')}>{formatNumber(row.matchCount)}</LabelledCell>
                    <LabelledCell label={t('media.pages.deleted')}>{formatNumber(row.deleteCount)}</LabelledCell>
                    <td>
                      <div className={styles.actions}>
                        <SelectField
                          label={t('media.pages.action_for', { n })}
                          data-row-control="action"
                          value={row.action}
                          options={PAGE_HASH_ACTIONS.map((action) => ({ value: action, label: t(`media.pages.actions.${action}`) }))}
                          onChange={(value) => void change(index, row.hash, row.size, value as PageHashAction)}
                        />
                        {row.matchCount > 0 && (
                          <button type="button" className={buttons.quiet} aria-label={t('common.label_value', { label: t('media.pages.show_matches'), value: t('media.pages.page_alt', { n }) })} onClick={() => setShowing(row.hash)}>
                            {t('media.pages.show_matches')}
                          </button>
                        )}
                        {/* Under way, the same button (so focus stays on it when the dialog closes) says so and does nothing. */}
                        {row.action === 'DELETE_MANUAL' && row.matchCount > 0 && (
                          <button
                            type="button"
                            className={buttons.danger}
                            aria-disabled={deletion.isUnderway(row.hash) || undefined}
                            onClick={() => {
                              if (!deletion.isUnderway(row.hash)) setDeleting({ hash: row.hash, n });
                            }}
                          >
                            {deletion.isUnderway(row.hash) ? t('media.pages.deleting_matches') : t('media.pages.delete_matches')}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {hashes.data && <PagingFooter page={page} size={size} total={hashes.data.totalElements} onPage={setPage} />}
      {showing && <PageHashMatchesDialog hash={showing} open onClose={() => setShowing(null)} onChanged={hashes.reload} />}
      <ConfirmDeleteDialog
        open={deleting !== null}
        title={t('media.pages.delete_matches')}
        explanation={t('media.pages.delete_matches_explanation')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          // 202: the books are rewritten in the background; the list follows their BookChanged events
          // (TaskFailed for a book that could not be).
          deletion.sending(deleting.hash);
          try {
            await deleteAllPageHashMatches(deleting.hash);
          } catch (refused) {
            deletion.started(deleting.hash, deleting.n, false);
            throw refused;
          }
          deletion.started(deleting.hash, deleting.n);
          setDeleting(null);
        }}
      />
    </>
  );
}

/** Pages that repeat across books (scanner ads, credits): decide what to do with each. */
export function DuplicatePagesScreen({ which }: { which: 'known' | 'unknown' }) {
  return (
    <MediaManagementLayout current="duplicate_pages">
      <TabLinks
        label={t('media.pages.views')}
        tabs={(['known', 'unknown'] as const).map((view) => ({ key: view, href: `/media-management/duplicate-pages/${view}`, label: t(`media.pages.${view}`) }))}
        current={which}
      />
      {which === 'known' ? <KnownHashes /> : <UnknownHashes />}
    </MediaManagementLayout>
  );
}
