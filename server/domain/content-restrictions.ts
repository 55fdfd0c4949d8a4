import type { Repositories } from '../db/repositories.ts';
import type { User } from '../db/user-repository.ts';

/**
 * Per-user content restrictions (SPEC §6): shared libraries, age restriction on the series' age
 * rating, allowed and excluded sharing labels. The rules become one SQL condition in
 * db/search/content-restriction.ts, built by the repositories from the viewing user; these
 * helpers answer the questions routes and events ask.
 */
export const hasContentRestrictions = (user: User) =>
  user.ageRestrictionType !== null || user.labelsAllow.length > 0 || user.labelsExclude.length > 0;

/** Whether the user may see this series (and so its books and pages). Unknown ids are not visible. */
export function canSeeSeries(repos: Repositories, user: User, seriesId: string): boolean {
  return repos.series.isVisible(seriesId, user);
}

/** Whether the user may see this book (its series decides). */
export function canSeeBook(repos: Repositories, user: User, bookId: string): boolean {
  return repos.books.isVisible(bookId, user);
}

/**
 * Whether the user may see a collection of these series: an admin sees every collection (one
 * emptied by deletions too, as in Komga); anybody else one holding at least one series they can
 * see. The collection routes, its poster routes and the event stream all ask this.
 */
export function canSeeCollection(repos: Repositories, user: User, admin: boolean, seriesIds: readonly string[]): boolean {
  return admin || seriesIds.some((id) => canSeeSeries(repos, user, id));
}

/** Whether the user may see a read list of these books: as canSeeCollection, for books. */
export function canSeeReadList(repos: Repositories, user: User, admin: boolean, bookIds: readonly string[]): boolean {
  return admin || bookIds.some((id) => canSeeBook(repos, user, id));
}

/** Library ids the user may see (restricted users only see shared ones). */
export function visibleLibraryIds(user: User, allIds: string[]): string[] {
  return user.sharedAllLibraries ? allIds : allIds.filter((id) => user.sharedLibraryIds.includes(id));
}
