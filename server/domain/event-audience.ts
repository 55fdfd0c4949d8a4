import type { Repositories } from '../db/repositories.ts';
import type { User } from '../db/user-repository.ts';
import { canSeeBook, canSeeCollection, canSeeReadList, canSeeSeries, hasContentRestrictions } from './content-restrictions.ts';
import type { FolioEvent } from './events.ts';

/**
 * Who may receive a domain event on the event stream (REFERENCE §2.12 audiences, plus Folio's
 * content restrictions): owner-only and admin-only events as Komga does, and — unlike Komga, which
 * sends every library's ids to everybody — no event naming a library, series or book the user
 * cannot see through their shared libraries, age rating or labels. Collections and read lists go
 * to those who may see them (canSeeCollection, canSeeReadList: admins, or a visible member) and
 * name only their visible members. Returns the event as this user may see it, or undefined.
 *
 * Deleted series and books are gone from the database, so their age rating and labels can no longer
 * be checked: users with such restrictions do not get those deletions (their lists drop the item on
 * the next refresh, as for any change they were not told about).
 */
export function eventFor(repos: Repositories, user: User, admin: boolean, event: FolioEvent): FolioEvent | undefined {
  if ('userId' in event && event.userId !== user.id) return undefined;
  if ('internal' in event) return undefined;
  if ('adminOnly' in event && !admin) return undefined;
  const restricted = hasContentRestrictions(user);
  if (user.sharedAllLibraries && !restricted) return event;
  const library = (id: string) => user.sharedAllLibraries || user.sharedLibraryIds.includes(id);
  switch (event.name) {
    case 'LibraryAdded':
    case 'LibraryChanged':
    case 'LibraryDeleted':
      return library(event.data.libraryId) ? event : undefined;
    case 'SeriesAdded':
    case 'SeriesChanged':
      return library(event.data.libraryId) && (!restricted || canSeeSeries(repos, user, event.data.seriesId)) ? event : undefined;
    case 'BookAdded':
    case 'BookChanged':
      return library(event.data.libraryId) && (!restricted || canSeeBook(repos, user, event.data.bookId)) ? event : undefined;
    case 'SeriesDeleted':
    case 'BookDeleted':
      return library(event.data.libraryId) && !restricted ? event : undefined;
    case 'ThumbnailBookAdded':
    case 'ThumbnailBookDeleted':
      return canSeeBook(repos, user, event.data.bookId) ? event : undefined;
    case 'ThumbnailSeriesAdded':
    case 'ThumbnailSeriesDeleted':
      return canSeeSeries(repos, user, event.data.seriesId) ? event : undefined;
    // Collections and read lists go to whoever may see them (content-restrictions.ts): an admin,
    // or a user who sees at least one member, named alone. One emptied or deleted (the cleanup
    // sends no members) names nothing this user may see: it is not announced to them.
    case 'CollectionAdded':
    case 'CollectionChanged':
    case 'CollectionDeleted': {
      if (!canSeeCollection(repos, user, admin, event.data.seriesIds)) return undefined;
      return { ...event, data: { ...event.data, seriesIds: event.data.seriesIds.filter((id) => canSeeSeries(repos, user, id)) } };
    }
    case 'ThumbnailSeriesCollectionAdded':
    case 'ThumbnailSeriesCollectionDeleted': {
      // Looked up: the event names the collection alone (gone already: no member to see).
      const seriesIds = repos.collections.findById(event.data.collectionId)?.seriesIds ?? [];
      return canSeeCollection(repos, user, admin, seriesIds) ? event : undefined;
    }
    case 'ThumbnailReadListAdded':
    case 'ThumbnailReadListDeleted': {
      const bookIds = repos.readLists.findById(event.data.readListId)?.bookIds ?? [];
      return canSeeReadList(repos, user, admin, bookIds) ? event : undefined;
    }
    case 'ReadListAdded':
    case 'ReadListChanged':
    case 'ReadListDeleted': {
      if (!canSeeReadList(repos, user, admin, event.data.bookIds)) return undefined;
      return { ...event, data: { ...event.data, bookIds: event.data.bookIds.filter((id) => canSeeBook(repos, user, id)) } };
    }
    default:
      return event;
  }
}

/**
 * What an open event stream was authorised with. The stream ends once it changes (roles,
 * restrictions, shared libraries, password) or the user is gone: a demoted or deleted user must
 * not keep receiving what they may no longer see.
 */
export function accessFingerprint(user: User): string {
  return JSON.stringify([
    user.roles,
    user.sharedAllLibraries,
    user.sharedLibraryIds,
    user.labelsAllow,
    user.labelsExclude,
    user.ageRestriction,
    user.ageRestrictionType,
    user.passwordHash,
  ]);
}
