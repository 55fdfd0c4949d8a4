import { join } from 'node:path';
import type { StoredThumbnail } from '../../db/thumbnail-repository.ts';

/** Where a poster's bytes are: sidecars are the user's own files, others live under the data dir. */
export function thumbnailFilePath(ctx: { dataDir: string }, row: Pick<StoredThumbnail, 'type' | 'filePath'>): string {
  return row.type === 'SIDECAR' ? row.filePath : join(ctx.dataDir, row.filePath);
}
