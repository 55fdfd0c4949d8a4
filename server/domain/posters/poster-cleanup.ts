import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolioContext } from '../context.ts';

/**
 * Poster files under the data dir that belong to rows about to disappear through ON DELETE
 * CASCADE (a library, collection or read list being deleted). Sidecars are the user's own files
 * and are never listed. Call before deleting; remove the returned files after.
 */
export function posterFilesOf(ctx: FolioContext, owner: { libraryId?: string; collectionId?: string; readListId?: string }): string[] {
  return [
    ...(owner.libraryId ? ctx.repos.thumbnails.dataDirFilesOfLibrary(owner.libraryId) : []),
    ...(owner.collectionId ? ctx.repos.collectionThumbnails.dataDirFiles(owner.collectionId) : []),
    ...(owner.readListId ? ctx.repos.readListThumbnails.dataDirFiles(owner.readListId) : []),
  ];
}

export async function removePosterFiles(ctx: FolioContext, files: string[]): Promise<void> {
  for (const file of files) await rm(join(ctx.dataDir, file), { force: true });
}
