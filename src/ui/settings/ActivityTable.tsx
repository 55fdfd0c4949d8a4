import { useState } from 'react';
import type { AuthenticationActivityDto, Page } from '../../api/types.ts';
import { ErrorMessage, EmptyState, Loading } from '../components/Feedback.tsx';
import { PagingFooter } from '../components/PagingFooter.tsx';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../format.ts';
import * as styles from './settings.css.ts';
import { LabelledCell } from '../components/LabelledCell.tsx';
import { activityErrorText } from './activityErrorText.ts';

const PAGE_SIZE = 20;

/** A paged table of login attempts, newest first; `showEmail` for the all-users view. */
export function ActivityTable(props: {
  load: (query: { page: number; size: number }, signal: AbortSignal) => Promise<Page<AuthenticationActivityDto>>;
  showEmail?: boolean;
  caption: string;
}) {
  const [page, setPage] = useState(0);
  const state = useAsync((signal) => props.load({ page, size: PAGE_SIZE }, signal), [page]);
  if (state.error) return <ErrorMessage error={state.error} />;
  if (!state.data) return <Loading />;
  if (state.data.totalElements === 0) return <EmptyState>{t('users_admin.activity.empty')}</EmptyState>;
  return (
    <div className={styles.tableScroll}>
      <table className={styles.table} aria-label={props.caption}>
        <thead>
          <tr>
            <th className={styles.headerCell}>{t('users_admin.activity.date')}</th>
            {props.showEmail && <th className={styles.headerCell}>{t('users_admin.email')}</th>}
            <th className={styles.headerCell}>{t('users_admin.activity.result')}</th>
            <th className={styles.headerCell}>{t('users_admin.activity.source')}</th>
            <th className={styles.headerCell}>{t('users_admin.activity.ip')}</th>
            <th className={styles.headerCell}>{t('users_admin.activity.user_agent')}</th>
          </tr>
        </thead>
        <tbody>
          {state.data.content.map((a, index) => (
            <tr key={`${a.dateTime}-${index}`}>
              <LabelledCell className={styles.cell} label={t('users_admin.activity.date')}>{formatDateTime(a.dateTime)}</LabelledCell>
              {props.showEmail && <LabelledCell className={styles.cell} label={t('users_admin.email')}>{a.email ?? ''}</LabelledCell>}
              <LabelledCell className={styles.cell} label={t('users_admin.activity.result')}>
                {a.success ? t('users_admin.activity.success') : <span className={styles.failure}>{t('users_admin.activity.failure', { error: activityErrorText(a.error) })}</span>}
              </LabelledCell>
              <LabelledCell className={styles.cell} label={t('users_admin.activity.source')}>{a.source ? t(`users_admin.activity.sources.${a.source}`) : ''}{a.apiKeyComment ? ` ${t('common.parenthesized', { text: a.apiKeyComment })}` : ''}</LabelledCell>
              <LabelledCell className={styles.cell} label={t('users_admin.activity.ip')}>{a.ip ?? ''}</LabelledCell>
              <LabelledCell className={styles.cell} label={t('users_admin.activity.user_agent')}>{a.userAgent ?? ''}</LabelledCell>
            </tr>
          ))}
        </tbody>
      </table>
      <PagingFooter page={page} size={PAGE_SIZE} total={state.data.totalElements} onPage={setPage} />
    </div>
  );
}
