import { mkdir, rm } from 'node:fs/promises';
import { StorageUnwritable, isUnwritableStorage } from '../../fs-errors.ts';
import { writeFileAtomically } from '../../atomic-write.ts';
import { join } from 'node:path';
import { newId } from '../../db/ids.ts';
import { type PosterImageHeader, UnreadableImage, readPosterImageHeader } from '../../media/poster-images.ts';
import type { OwnedThumbnailRepository, StoredThumbnail } from '../../db/thumbnail-repository.ts';
import type { FolioContext } from '../context.ts';
import { STORE_LIMITS } from '../store-limits.ts';
import { fileSlots } from '../../media/file-slots.ts';
import type { FolioEvent } from '../events.ts';

/** The four kinds of things that have posters, named as in their API paths. */
export type PosterOwner = 'books' | 'series' | 'collections' | 'readlists';

export class PosterError extends Error {}

export function posterRepository(ctx: FolioContext, kind: PosterOwner): OwnedThumbnailRepository {
  switch (kind) {
    case 'books':
      return ctx.repos.thumbnails;
    case 'series':
      return ctx.repos.seriesThumbnails;
    case 'collections':
      return ctx.repos.collectionThumbnails;
    case 'readlists':
      return ctx.repos.readListThumbnails;
  }
}

/** The SSE event for a poster added to / removed from an owner. */
function posterEvent(ctx: FolioContext, kind: PosterOwner, ownerId: string, selected: boolean, added: boolean): FolioEvent | undefined {
  const suffix = added ? 'Added' : 'Deleted';
  switch (kind) {
    case 'books': {
      const book = ctx.repos.books.findById(ownerId);
      return book ? ({ name: `ThumbnailBook${suffix}`, data: { bookId: ownerId, seriesId: book.seriesId, selected } } as FolioEvent) : undefined;
    }
    case 'series':
      return { name: `ThumbnailSeries${suffix}`, data: { seriesId: ownerId, selected } } as FolioEvent;
    case 'collections':
      return { name: `ThumbnailSeriesCollection${suffix}`, data: { collectionId: ownerId, selected } } as FolioEvent;
    case 'readlists':
      return { name: `ThumbnailReadList${suffix}`, data: { readListId: ownerId, selected } } as FolioEvent;
  }
}

/**
 * Stores an uploaded poster as given (after checking it decodes as an image) under
 * <data dir>/thumbnails/<kind>/, as USER_UPLOADED; selected on request or when it is the only one.
 */
export async function storeUploadedPoster(
  ctx: FolioContext,
  kind: PosterOwner,
  ownerId: string,
  bytes: Buffer,
  select: boolean,
): Promise<StoredThumbnail> {
  let image: PosterImageHeader | null;
  try {
    image = await readPosterImageHeader(bytes);
  } catch (error) {
    // No image header in it: the upload is refused, with the reason kept as cause.
    if (error instanceof UnreadableImage) throw new PosterError('The file is not an image', { cause: error });
    throw error;
  }
  if (!image) throw new PosterError('Unsupported image format');
  const uploaded = posterRepository(ctx, kind).list(ownerId).filter((t) => t.type === 'USER_UPLOADED').length;
  const { perItem } = STORE_LIMITS.uploadedPosters;
  if (uploaded >= perItem) throw new PosterError(`At most ${perItem} uploaded posters per item: delete one first`);
  const now = Date.now();
  const id = newId(now);
  const relative = join('thumbnails', kind, `${ownerId}-${id}.${image.format}`);
  const absolutePath = join(ctx.dataDir, relative);
  try {
    await mkdir(join(ctx.dataDir, 'thumbnails', kind), { recursive: true });
    // Written aside then renamed: a write cut short (a full disk) leaves nothing behind.
    await fileSlots.withSlot(() => writeFileAtomically(absolutePath, bytes));
  } catch (error) {
    if (isUnwritableStorage(error)) throw new StorageUnwritable('Uploaded poster', error);
    throw error;
  }
  const row: StoredThumbnail = {
    id,
    ownerId,
    type: 'USER_UPLOADED',
    filePath: relative,
    selected: select,
    mediaType: image.mediaType,
    width: image.width,
    height: image.height,
    fileSize: bytes.length,
    created: now,
    lastModified: now,
  };
  const repository = posterRepository(ctx, kind);
  try {
    repository.insert(row, select);
  } catch (error) {
    // The database did not take it (a full disk, another process's lock): the file would be
    // referred to by nothing and kept for ever. The error itself is answered as such (503).
    await rm(absolutePath, { force: true });
    throw error;
  }
  const stored = repository.find(ownerId, id)!;
  const event = posterEvent(ctx, kind, ownerId, stored.selected, true);
  if (event) ctx.events.emit(event);
  return stored;
}

/** Removes a poster (and its file unless it is the user's own sidecar). False when unknown. */
export async function deletePoster(ctx: FolioContext, kind: PosterOwner, ownerId: string, id: string): Promise<boolean> {
  const removed = posterRepository(ctx, kind).delete(ownerId, id);
  if (!removed) return false;
  if (removed.type !== 'SIDECAR') await rm(join(ctx.dataDir, removed.filePath), { force: true });
  const event = posterEvent(ctx, kind, ownerId, removed.selected, false);
  if (event) ctx.events.emit(event);
  return true;
}

export function selectPoster(ctx: FolioContext, kind: PosterOwner, ownerId: string, id: string): boolean {
  const ok = posterRepository(ctx, kind).markSelected(ownerId, id);
  if (ok) {
    const event = posterEvent(ctx, kind, ownerId, true, true);
    if (event) ctx.events.emit(event);
  }
  return ok;
}
