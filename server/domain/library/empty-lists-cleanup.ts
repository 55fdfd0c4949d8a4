import type { FolioContext } from '../context.ts';
import { readSettings } from '../server-settings.ts';

/**
 * Honours the deleteEmptyCollections / deleteEmptyReadLists server settings: once series or books
 * are removed for good (their membership rows go with them), collections and read lists left with
 * no member are deleted, with the matching SSE event. Series and books only flagged deleted by a
 * scan keep their memberships, so nothing happens until the trash is emptied.
 */
export function enableEmptyListsCleanup(ctx: FolioContext): () => void {
  return ctx.events.subscribe((event) => {
    if (event.name !== 'SeriesDeleted' && event.name !== 'BookDeleted') return;
    const settings = readSettings(ctx.db);
    if (event.name === 'SeriesDeleted' && settings.deleteEmptyCollections) {
      const empty = ctx.db
        .prepare('SELECT id FROM collection c WHERE NOT EXISTS (SELECT 1 FROM collection_series cs WHERE cs.collection_id = c.id)')
        .pluck()
        .all() as string[];
      for (const id of empty) {
        ctx.repos.collections.delete(id);
        ctx.events.emit({ name: 'CollectionDeleted', data: { collectionId: id, seriesIds: [] } });
      }
    }
    if (event.name === 'BookDeleted' && settings.deleteEmptyReadLists) {
      const empty = ctx.db
        .prepare('SELECT id FROM readlist r WHERE NOT EXISTS (SELECT 1 FROM readlist_book rb WHERE rb.readlist_id = r.id)')
        .pluck()
        .all() as string[];
      for (const id of empty) {
        ctx.repos.readLists.delete(id);
        ctx.events.emit({ name: 'ReadListDeleted', data: { readListId: id, bookIds: [] } });
      }
    }
  });
}
