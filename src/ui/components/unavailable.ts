import { useSnapshot } from 'valtio';
import { session } from '../store/session.ts';

/**
 * Whether a library's folder cannot be reached now (a disk not mounted): the scan marks the whole
 * library `unavailable` and leaves its series and books as they are, so that they come back with it.
 */
export function libraryUnavailable(libraries: readonly { id: string; unavailable: boolean }[], libraryId: string): boolean {
  return libraries.some((library) => library.id === libraryId && library.unavailable);
}

/**
 * Whether a series or book cannot be read now, as Komga's cards mark it: its own file or folder is
 * gone (`deleted`, kept listed until the trash is emptied), or its whole library is unavailable.
 */
export function useUnavailable(item: { deleted: boolean; libraryId: string }): boolean {
  const { libraries } = useSnapshot(session);
  return item.deleted || libraryUnavailable(libraries, item.libraryId);
}
