import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredThumbnail } from '../../db/thumbnail-repository.ts';
import type { FolioContext } from '../context.ts';
import { libraryRoots, openInsideItsLibrary } from '../library/library-paths.ts';

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
  /**
   * Opens the file to read it, for a sidecar poster (see openPoster); undefined for files under the
   * data dir, opened by their path.
   */
  open?: () => Promise<FileHandle>;
  /**
   * A poster drawn just now that the data folder could not take (a full disk, a read-only folder):
   * its bytes, served as they are; nothing is at `absolutePath` for it and no record names it.
   */
  bytes?: Buffer;
}

/**
 * Opens a poster's file for reading. A sidecar is a file of the library, checked when a scan found
 * it, which may since have been replaced by a link leading out of the library (README "Security":
 * such a file is never read or served): it is opened first and the opened file checked, so it throws
 * OutsideLibraryError then, whatever is swapped in meanwhile. Callers treat that as a missing file.
 */
export function openPoster(ctx: FolioContext, row: Pick<StoredThumbnail, 'type' | 'filePath'>): (() => Promise<FileHandle>) | undefined {
  if (row.type !== 'SIDECAR') return undefined;
  const path = thumbnailFilePath(ctx, row);
  return () => openInsideItsLibrary(libraryRoots(ctx), path);
}
