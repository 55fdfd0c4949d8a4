import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolioContext } from '../context.ts';

/**
 * Poster files under the data dir that belong to rows about to disappear through ON DELETE
 * CASCADE (a library, collection or read list being deleted). Sidecars are the user's own files
 * and are never listed. Call before deleting; remove the returned files after.
 */
export function posterFilesOf(ctx: FolioContext, owner: { libraryId?: string; collectionId?: string; readListId?: string }): string[] {
  const rows: string[] = [];
  const pick = (sql: string, id: string) => {
    rows.push(...(ctx.db.prepare(sql).pluck().all(id) as string[]));
  };
  if (owner.libraryId) {
    pick(`SELECT t.file_path FROM thumbnail_book t JOIN book b ON b.id = t.book_id WHERE b.library_id = ? AND t.type <> 'SIDECAR'`, owner.libraryId);
    pick(`SELECT t.file_path FROM thumbnail_series t JOIN series s ON s.id = t.series_id WHERE s.library_id = ? AND t.type <> 'SIDECAR'`, owner.libraryId);
  }
  if (owner.collectionId) pick(`SELECT file_path FROM thumbnail_collection WHERE collection_id = ? AND type <> 'SIDECAR'`, owner.collectionId);
  if (owner.readListId) pick(`SELECT file_path FROM thumbnail_readlist WHERE readlist_id = ? AND type <> 'SIDECAR'`, owner.readListId);
  return rows.filter(Boolean);
}

export async function removePosterFiles(ctx: FolioContext, files: string[]): Promise<void> {
  for (const file of files) await rm(join(ctx.dataDir, file), { force: true });
}
