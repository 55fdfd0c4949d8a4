import { join } from 'node:path';
import type { StoredThumbnail } from '../../db/thumbnail-repository.ts';

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
