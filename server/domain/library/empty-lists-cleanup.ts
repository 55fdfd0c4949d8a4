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
    const settings = readSettings(ctx.repos.serverSettings);
    if (event.name === 'SeriesDeleted' && settings.deleteEmptyCollections) {
      for (const id of ctx.repos.collections.findEmptyIds()) {
        ctx.repos.collections.delete(id);
        ctx.events.emit({ name: 'CollectionDeleted', data: { collectionId: id, seriesIds: [] } });
      }
    }
    if (event.name === 'BookDeleted' && settings.deleteEmptyReadLists) {
      for (const id of ctx.repos.readLists.findEmptyIds()) {
        ctx.repos.readLists.delete(id);
        ctx.events.emit({ name: 'ReadListDeleted', data: { readListId: id, bookIds: [] } });
      }
    }
  });
}
