import { join } from 'node:path';
import type { StoredThumbnail } from '../../db/thumbnail-repository.ts';
import type { FolioContext } from '../context.ts';
import { OutsideLibraryError, assertInsideItsLibrary, libraryRoots } from '../library/library-paths.ts';

/** Where a poster's bytes are: sidecars are the user's own files, others live under the data dir. */
export function thumbnailFilePath(ctx: { dataDir: string }, row: Pick<StoredThumbnail, 'type' | 'filePath'>): string {
  return row.type === 'SIDECAR' ? row.filePath : join(ctx.dataDir, row.filePath);
}

/** A poster file to serve. */
export interface ThumbnailFile {
  absolutePath: string;
  mediaType: string;
  lastModified: number;
  /**
   * Names this version of a file the server wrote itself (record id, date and size change whenever
   * it writes the file again), so it can be served from memory without checking the disk; undefined
   * for sidecar posters, files in the library that may be replaced behind the server's back.
   */
  version?: string;
}

/**
 * The file to read a poster from, or null when it may not be read: a sidecar is a file of the
 * library, checked when a scan found it, which may since have been replaced by a link leading out
 * of the library (README "Security": such a file is never read or served). Callers treat null as a
 * missing file.
 */
export async function readablePosterPath(ctx: FolioContext, row: Pick<StoredThumbnail, 'type' | 'filePath'>): Promise<string | null> {
  const path = thumbnailFilePath(ctx, row);
  if (row.type !== 'SIDECAR') return path;
  try {
    await assertInsideItsLibrary(libraryRoots(ctx), path);
    return path;
  } catch (error) {
    if (!(error instanceof OutsideLibraryError)) throw error;
    ctx.log(`local artwork not served: ${path} leads out of its library`, error);
    return null;
  }
}
