import { Link } from 'wouter';
import { getBookReadLists, getSeriesCollections } from '../../api/collections.ts';
import { ApiError } from '../../api/http.ts';
import { useLiveRefresh } from '../events/useLiveRefresh.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import { ErrorMessage } from './Feedback.tsx';
import * as styles from '../screens/screens.css.ts';

/** "In collections: A, B" under a series, "In read lists: …" under a book. */
export function MembershipLinks({ kind, id }: { kind: 'series' | 'book'; id: string }) {
  const groups = useAsync(async () => {
    if (kind === 'series') {
      return (await getSeriesCollections(id)).map((c) => ({ id: c.id, name: c.name, href: `/collections/${c.id}` }));
    }
    return (await getBookReadLists(id)).map((r) => ({ id: r.id, name: r.name, href: `/readlists/${r.id}` }));
  }, [kind, id]);
  useLiveRefresh((event) => event.name.startsWith(kind === 'series' ? 'Collection' : 'ReadList'), groups.reload);
  if (groups.error instanceof ApiError && groups.error.status === 404) return null;
  if (groups.error) return <ErrorMessage error={groups.error} />;
  const list = groups.data ?? [];
  if (list.length === 0) return null;
  return (
    <nav aria-label={t(kind === 'series' ? 'membership.collections' : 'membership.readlists')}>
      <span className={styles.detailTerm}>{t('common.label_before_list', { label: t(kind === 'series' ? 'membership.collections' : 'membership.readlists') })} </span>
      <ul className={styles.inlineList}>
        {list.map((group) => (
          <li key={group.id}>
            <Link href={group.href}>{group.name}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
