import { useSnapshot } from 'valtio';
import { session } from '../store/session.ts';

/**
 * Whether a series or book cannot be read now, as Komga's cards mark it: its own file or folder is
 * gone (`deleted`, kept listed until the trash is emptied), or its whole library's folder cannot be
 * reached (the library is `unavailable`: a disk not mounted), which leaves the items themselves
 * untouched so that they come back with it.
 */
export function useUnavailable(item: { deleted: boolean; libraryId: string }): boolean {
  const { libraries } = useSnapshot(session);
  return item.deleted || libraries.some((library) => library.id === item.libraryId && library.unavailable);
}
