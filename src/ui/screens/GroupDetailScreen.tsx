import { Image, Pencil, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { useSnapshot } from 'valtio';
import {
  deleteCollection,
  deleteReadList,
  getCollection,
  getCollectionSeries,
  getReadList,
  getReadListBooks,
  setCollectionSeries,
  setReadListBooks,
} from '../../api/collections.ts';
import { getReferentialValues } from '../../api/referential.ts';
import { FilterButtons, SeriesFilterPanel, type FilterKind } from './library/SeriesFilterPanel.tsx';
import * as libraryStyles from './library/library.css.ts';
import {
  hasActiveFilter,
  parseSeriesBrowse,
  SERIES_FILTERS,
  writeSeriesBrowse,
  type SeriesBrowseState,
  type ValueFilter,
} from './library/seriesBrowseQuery.ts';
import { DisclosureMenu } from '../components/DisclosureMenu.tsx';
import { MoveControls } from '../components/MoveControls.tsx';
import { ConfirmDeleteDialog } from '../dialogs/ConfirmDeleteDialog.tsx';
import { EditGroupDialog, type EditableGroup } from '../dialogs/EditGroupDialog.tsx';
import { PostersDialog } from '../dialogs/PostersDialog.tsx';
import { isAdmin, session } from '../store/session.ts';
import type { BookDto, Page, SeriesDto } from '../../api/types.ts';
import { BookCard } from '../components/BookCard.tsx';
import { CardGrid } from '../components/CardGrid.tsx';
import { EmptyState, ErrorMessage, Loading } from '../components/Feedback.tsx';
import { PagingFooter } from '../components/PagingFooter.tsx';
import { SeriesCard } from '../components/SeriesCard.tsx';
import { useLiveRefresh } from '../events/useLiveRefresh.ts';
import { useOnLiveEvent } from '../events/useOnLiveEvent.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { usePageParam } from '../hooks/usePageParam.ts';
import { usePageSize } from '../hooks/usePageSize.ts';
import { useRememberedQuery } from '../hooks/useRememberedQuery.ts';
import { preferences } from '../store/preferences.ts';
import { t } from '../i18n.ts';
import * as styles from './screens.css.ts';

/**
 * Admin menu of a collection or read list: edit it, manage its posters (SPEC §4 thumbnails, as for
 * a book or series), or delete it (its series and books stay).
 */
function GroupAdminActions({ group, onChanged }: { group: EditableGroup; onChanged: () => void }) {
  const { me } = useSnapshot(session);
  const [dialog, setDialog] = useState<'edit' | 'posters' | 'delete' | null>(null);
  const [, navigate] = useLocation();
  if (!isAdmin(me)) return null;
  const collection = group.kind === 'collection';
  return (
    <>
      <DisclosureMenu
        label={t(collection ? 'groups.edit.collection_actions' : 'groups.edit.readlist_actions')}
        actions={[
          {
            key: 'edit',
            label: t(collection ? 'groups.edit.collection_title' : 'groups.edit.readlist_title'),
            icon: <Pencil aria-hidden="true" size={16} />,
            run: () => setDialog('edit'),
          },
          {
            key: 'posters',
            label: t('posters.title'),
            icon: <Image aria-hidden="true" size={16} />,
            run: () => setDialog('posters'),
          },
          {
            key: 'delete',
            label: t(collection ? 'groups.edit.delete_collection' : 'groups.edit.delete_readlist'),
            icon: <Trash2 aria-hidden="true" size={16} />,
            danger: true,
            run: () => setDialog('delete'),
          },
        ]}
      />
      <EditGroupDialog
        group={group}
        open={dialog === 'edit'}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          onChanged();
        }}
      />
      <PostersDialog
        owner={collection ? 'collections' : 'readlists'}
        id={group.id}
        open={dialog === 'posters'}
        onClose={() => setDialog(null)}
        // This screen shows no poster of the group; the cards elsewhere follow the thumbnail events.
        onChanged={() => undefined}
      />
      <ConfirmDeleteDialog
        open={dialog === 'delete'}
        title={t(collection ? 'groups.edit.delete_collection' : 'groups.edit.delete_readlist')}
        explanation={t(collection ? 'groups.edit.delete_collection_explanation' : 'groups.edit.delete_readlist_explanation', {
          name: group.name,
        })}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (collection) await deleteCollection(group.id);
          else await deleteReadList(group.id);
          setDialog(null);
          navigate(`/libraries/all/${collection ? 'collections' : 'readlists'}`);
        }}
      />
    </>
  );
}

function GroupDetail<T extends { id: string }>(props: {
  header: { name: string; summary?: string } | undefined;
  actions?: ReactNode;
  headerError: unknown;
  loadItems: (page: number, size: number, filters: SeriesBrowseState) => Promise<Page<T>>;
  itemsKey: string;
  /** Where this group's filter is remembered: 'collection:<id>' or 'readlist:<id>'. */
  rememberAs: string;
  /** The filter groups offered over the members, and where their values come from. */
  filterKinds: readonly FilterKind[];
  loadFilterValues: (kind: ValueFilter) => Promise<string[] | null>;
  /**
   * `filtered`: a filter hides some members, so a move of one place could swap an item with a hidden
   * neighbour (nothing seems to move, yet the order changed): reordering is offered unfiltered only.
   */
  renderItem: (item: T, view: { filtered: boolean }) => ReactNode;
  emptyText: string;
  listLabel: string;
}) {
  const [page, setPage] = usePageParam();
  const [size] = usePageSize();
  // Filters live in the URL, as on the library browse screen (same parameter names).
  const [params, setParams] = useSearchParams();
  useRememberedQuery(preferences.groupBrowse, props.rememberAs, params, setParams);
  const filters = parseSeriesBrowse(params);
  const filtered = hasActiveFilter(filters);
  const [filtersOpen, setFiltersOpen] = useState(filtered);
  const panelId = useId();
  const update = (next: Partial<SeriesBrowseState>) => setParams((previous) => writeSeriesBrowse(previous, { ...filters, ...next }));
  // The group's first load comes while its items already load in parallel; each later load of
  // the group (after an edit here or a change event) may bring another order or other members,
  // so the items follow. Counted per load: two edits within a second share a modified date.
  const lastHeader = useRef(props.header);
  const headerReloads = useRef(0);
  if (props.header && props.header !== lastHeader.current) {
    if (lastHeader.current) headerReloads.current += 1;
    lastHeader.current = props.header;
  }
  const items = useAsync(() => props.loadItems(page, size, filters), [props.itemsKey, headerReloads.current, page, size, params.toString()]);
  const content = items.data?.content ?? [];
  return (
    <>
      <ErrorMessage error={props.headerError} />
      {props.header && (
        <div className={styles.pageHeader}>
          <h1 className={styles.pageTitle}>{props.header.name}</h1>
          {props.actions}
        </div>
      )}
      {props.header?.summary && <p className={styles.summary}>{props.header.summary}</p>}
      {/* A group that failed to load (gone, or hidden from this user) has its one message. */}
      {!props.headerError && (
        <>
          <div className={libraryStyles.toolbar}>
            <FilterButtons panelId={panelId} open={filtersOpen} onToggle={() => setFiltersOpen((open) => !open)} filtered={filtered} update={update} />
          </div>
          {filtersOpen && (
            <SeriesFilterPanel
              id={panelId}
              kinds={props.filterKinds}
              state={filters}
              update={update}
              valuesKey={props.itemsKey}
              loadValues={props.loadFilterValues}
            />
          )}
          <ErrorMessage error={items.error} />
          {items.loading && !items.data && <Loading />}
          {items.data && content.length === 0 && <EmptyState>{filtered ? t('browse.no_match') : props.emptyText}</EmptyState>}
          {content.length > 0 && (
            <CardGrid items={content} itemKey={(item) => item.id} renderItem={(item) => props.renderItem(item, { filtered })} label={props.listLabel} />
          )}
          {items.data && <PagingFooter page={page} size={size} total={items.data.totalElements} onPage={setPage} />}
        </>
      )}
    </>
  );
}

/** SPEC §7: a read list's books filter by read status, book tag, author and library. */
const READ_LIST_FILTERS: readonly FilterKind[] = ['readStatus', 'tag', 'author', 'library'];

/** SPEC §7: a collection's series take every series filter, the library one included. */
const COLLECTION_FILTERS: readonly FilterKind[] = [...SERIES_FILTERS, 'library'];

/** A collection or read list may span libraries: each library the user sees is offered. */
const visibleLibraryIds = () => Promise.resolve(session.libraries.map((library) => library.id));

export function CollectionScreen({ collectionId }: { collectionId: string }) {
  const collection = useAsync(() => getCollection(collectionId), [collectionId]);
  const { me } = useSnapshot(session);
  // Only a manually ordered collection has an order worth changing, and only admins change it.
  const reorderable = isAdmin(me) && !!collection.data?.ordered;
  // Edited here or elsewhere (name, manual ordering, members): reload it, and its series with it.
  useLiveRefresh((event) => event.name === 'CollectionChanged' && event.data.collectionId === collectionId, collection.reload);
  // Deleted elsewhere: nothing is left to show here, so go to the collections, as a delete here does.
  const [, navigate] = useLocation();
  useOnLiveEvent(
    (event) => event.name === 'CollectionDeleted' && event.data.collectionId === collectionId,
    () => navigate('/libraries/all/collections', { replace: true }),
  );
  return (
    <GroupDetail<SeriesDto>
      header={collection.data}
      headerError={collection.error}
      actions={
        collection.data && (
          <GroupAdminActions
            group={{ kind: 'collection', id: collection.data.id, name: collection.data.name, ordered: collection.data.ordered }}
            onChanged={collection.reload}
          />
        )
      }
      loadItems={(page, size, f) => {
        const { library, ...values } = f.values;
        const filter = { libraryIds: library, readStatus: f.readStatus, status: f.status, complete: f.complete, ...values };
        return getCollectionSeries(collectionId, filter, { page, size });
      }}
      itemsKey={collectionId}
      rememberAs={`collection:${collectionId}`}
      filterKinds={COLLECTION_FILTERS}
      loadFilterValues={(kind) => (kind === 'library' ? visibleLibraryIds() : getReferentialValues(kind, { collection_id: collectionId }))}
      renderItem={(series, view) => (
        <>
          <SeriesCard series={series} />
          {reorderable && !view.filtered && collection.data && (
            <MoveControls
              ids={collection.data.seriesIds}
              id={series.id}
              title={series.metadata.title || series.name}
              save={async (ids) => {
                await setCollectionSeries(collectionId, ids);
                collection.reload();
              }}
            />
          )}
        </>
      )}
      emptyText={t('groups.collection_empty')}
      listLabel={t('libraries.series_list')}
    />
  );
}

export function ReadListScreen({ readListId }: { readListId: string }) {
  const readList = useAsync(() => getReadList(readListId), [readListId]);
  const { me } = useSnapshot(session);
  const reorderable = isAdmin(me) && !!readList.data?.ordered;
  useLiveRefresh((event) => event.name === 'ReadListChanged' && event.data.readListId === readListId, readList.reload);
  const [, navigate] = useLocation();
  useOnLiveEvent(
    (event) => event.name === 'ReadListDeleted' && event.data.readListId === readListId,
    () => navigate('/libraries/all/readlists', { replace: true }),
  );
  return (
    <GroupDetail<BookDto>
      header={readList.data}
      headerError={readList.error}
      actions={
        readList.data && (
          <GroupAdminActions
            group={{
              kind: 'readlist',
              id: readList.data.id,
              name: readList.data.name,
              ordered: readList.data.ordered,
              summary: readList.data.summary,
            }}
            onChanged={readList.reload}
          />
        )
      }
      loadItems={(page, size, f) =>
        getReadListBooks(
          readListId,
          { readStatus: f.readStatus, tag: f.values.tag, author: f.values.author, libraryIds: f.values.library },
          { page, size },
        )
      }
      itemsKey={readListId}
      rememberAs={`readlist:${readListId}`}
      filterKinds={READ_LIST_FILTERS}
      loadFilterValues={(kind) => {
        if (kind === 'library') return visibleLibraryIds();
        return kind === 'tag' || kind === 'author' ? getReferentialValues(kind, { readlist_id: readListId }, { bookTags: true }) : Promise.resolve(null);
      }}
      renderItem={(book, view) => (
        <>
          <BookCard book={book} showSeries readListId={readListId} />
          {reorderable && !view.filtered && readList.data && (
            <MoveControls
              ids={readList.data.bookIds}
              id={book.id}
              title={book.metadata.title || book.name}
              save={async (ids) => {
                await setReadListBooks(readListId, ids);
                readList.reload();
              }}
            />
          )}
        </>
      )}
      emptyText={t('groups.readlist_empty')}
      listLabel={t('series.book_list')}
    />
  );
}
