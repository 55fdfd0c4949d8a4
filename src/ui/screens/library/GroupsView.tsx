import { useSnapshot } from 'valtio';
import { collectionThumbnailUrl, getCollections, getReadLists, readListThumbnailUrl } from '../../../api/collections.ts';
import { CardGrid } from '../../components/CardGrid.tsx';
import { EmptyState, ErrorMessage, Loading } from '../../components/Feedback.tsx';
import * as feedback from '../../components/feedback.css.ts';
import { GroupCard } from '../../components/GroupCard.tsx';
import { PagingFooter } from '../../components/PagingFooter.tsx';
import { useLiveRefresh } from '../../events/useLiveRefresh.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { usePageParam } from '../../hooks/usePageParam.ts';
import { usePageSize } from '../../hooks/usePageSize.ts';
import { t, tPlural } from '../../i18n.ts';
import { isAdmin, session } from '../../store/session.ts';
import { ALL_LIBRARIES } from './LibraryLayout.tsx';

interface GroupItem {
  id: string;
  name: string;
  href: string;
  thumbnail: string;
  description: string;
}

function useGroups(kind: 'collections' | 'readlists', libraryId: string) {
  const [page, setPage] = usePageParam();
  const [size] = usePageSize();
  const libraryIds = libraryId === ALL_LIBRARIES ? undefined : [libraryId];
  const result = useAsync(async () => {
    if (kind === 'collections') {
      const found = await getCollections({ libraryIds }, { page, size });
      return {
        total: found.totalElements,
        items: found.content.map<GroupItem>((c) => ({
          id: c.id,
          name: c.name,
          href: `/collections/${c.id}`,
          thumbnail: `${collectionThumbnailUrl(c.id)}?v=${encodeURIComponent(c.lastModifiedDate)}`,
          description: tPlural('units.series', c.seriesIds.length),
        })),
      };
    }
    const found = await getReadLists({ libraryIds }, { page, size });
    return {
      total: found.totalElements,
      items: found.content.map<GroupItem>((r) => ({
        id: r.id,
        name: r.name,
        href: `/readlists/${r.id}`,
        thumbnail: `${readListThumbnailUrl(r.id)}?v=${encodeURIComponent(r.lastModifiedDate)}`,
        description: tPlural('units.books', r.bookIds.length),
      })),
    };
  }, [kind, libraryId, page, size]);
  const prefix = kind === 'collections' ? 'Collection' : 'ReadList';
  useLiveRefresh((event) => event.name.startsWith(prefix), result.reload);
  return { result, page, size, setPage };
}

/**
 * How a collection or read list comes to be, for an empty tab: an administrator is pointed to the
 * action that makes one (a new name in "Add to collection" / "Add to read list"), named as its menu
 * item is; anyone else cannot make one, and is told who does.
 */
function howToMake(kind: 'collections' | 'readlists', admin: boolean): string {
  if (!admin) return t(`groups.${kind}_how_reader`);
  const action = t(kind === 'collections' ? 'groups.add_dialog.collection_title' : 'groups.add_dialog.readlist_title');
  return t(`groups.${kind}_how_admin`, { action });
}

/** Collections or read lists of a library as a paged grid. */
export function GroupsView({ kind, libraryId }: { kind: 'collections' | 'readlists'; libraryId: string }) {
  const { result, page, size, setPage } = useGroups(kind, libraryId);
  const { me } = useSnapshot(session);
  const items = result.data?.items ?? [];
  return (
    <>
      <ErrorMessage error={result.error} />
      {result.loading && !result.data && <Loading />}
      {result.data && items.length === 0 && (
        <EmptyState>
          <span className={feedback.emptyStateLine}>{t(`groups.${kind}_empty`)}</span>
          <span className={feedback.emptyStateLine}>{howToMake(kind, isAdmin(me))}</span>
        </EmptyState>
      )}
      {items.length > 0 && (
        <CardGrid
          items={items}
          itemKey={(item) => item.id}
          renderItem={(item) => (
            <GroupCard href={item.href} name={item.name} thumbnail={item.thumbnail} description={item.description} />
          )}
          label={t(`libraries.tabs.${kind}`)}
        />
      )}
      {result.data && <PagingFooter page={page} size={size} total={result.data.total} onPage={setPage} />}
    </>
  );
}
