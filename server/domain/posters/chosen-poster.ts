import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StoredThumbnail } from '../../db/thumbnail-repository.ts';
import { isTransientFailure } from '../../media/transient-errors.ts';
import type { FolioContext } from '../context.ts';
import { smallFiles } from '../small-file-cache.ts';
import { type PosterOwner, deletePoster, posterRepository } from './poster-uploads.ts';
import { OutsideLibraryError } from '../library/library-paths.ts';
import { type ThumbnailFile, openPoster, thumbnailFilePath } from './thumbnail-files.ts';

/**
 * The selected poster's file exists (or may) but cannot be read now: out of descriptors, a disk
 * error, its library's folder not reachable. Nothing stored is changed for it; `retryable` says
 * whether asking again later is likely to work (503) or the file itself needs looking at (500).
 */
export class PosterUnreadable extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { cause: unknown; retryable: boolean }) {
    super(message, { cause: options.cause });
    this.name = 'PosterUnreadable';
    this.retryable = options.retryable;
  }
}

/** The selected poster is a generated one whose file is gone: the caller draws it again. */
export const GENERATED_POSTER_GONE = Symbol('generated poster gone');

/**
 * The one place that decides what happens when an owner's selected poster is read. Readable: its
 * file, read through the small-file cache (so the route serves those very bytes). Definitely gone
 * (ENOENT, in a folder that is there): as Komga does, its record is dropped (a ThumbnailXDeleted
 * event tells clients), the next poster takes its place and is read in turn; undefined once none is
 * left, so the caller falls back to its drawn poster (book cover, series rule, mosaic). Anything
 * else throws PosterUnreadable and changes nothing: a poster someone chose must never give way to
 * a drawn one because the disk or the server had a bad moment.
 */
export async function readSelectedPoster(
  ctx: FolioContext,
  kind: PosterOwner,
  ownerId: string,
  first: StoredThumbnail | undefined = posterRepository(ctx, kind).selected(ownerId),
): Promise<ThumbnailFile | typeof GENERATED_POSTER_GONE | undefined> {
  for (let row = first; row; row = posterRepository(ctx, kind).selected(ownerId)) {
    const absolutePath = thumbnailFilePath(ctx, row);
    const open = openPoster(ctx, row);
    const version = posterVersion(row);
    let found: boolean;
    try {
      found = (await smallFiles.read(absolutePath, Date.now(), version, open)) !== null;
    } catch (error) {
      // Local artwork swapped for a link out of its library is never read; it is not gone either, so
      // its record stays (the link may be put right) and the caller's drawn poster stands in.
      if (error instanceof OutsideLibraryError) {
        ctx.log(`local artwork not served: ${absolutePath} leads out of its library`, error);
        return undefined;
      }
      // Removed between the look and the read: as gone as a file that was never there.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadable(row, error);
      found = false;
    }
    if (found) return { absolutePath, mediaType: row.mediaType, lastModified: row.lastModified, version, ...(open ? { open } : {}) };
    // Drawn posters are the server's own cache: drawn again, keeping their place.
    if (row.type === 'GENERATED') return GENERATED_POSTER_GONE;
    await assertFolderReachable(row, absolutePath);
    ctx.logger.warn({ kind, ownerId, poster: row.id, type: row.type, file: absolutePath }, 'selected poster file is gone: its record is dropped and the next poster used');
    await deletePoster(ctx, kind, ownerId, row.id);
  }
  return undefined;
}

/**
 * The selected poster of a series, collection or read list (readSelectedPoster), which have no
 * drawn posters stored; undefined when none is left, for the caller's fallback.
 */
export async function selectedPosterFile(ctx: FolioContext, kind: Exclude<PosterOwner, 'books'>, ownerId: string): Promise<ThumbnailFile | undefined> {
  const chosen = await readSelectedPoster(ctx, kind, ownerId);
  return chosen === GENERATED_POSTER_GONE ? undefined : chosen;
}

/** Names the version of a poster file the server wrote itself; undefined for sidecars (see ThumbnailFile.version). */
export function posterVersion(poster: Pick<StoredThumbnail, 'id' | 'type' | 'lastModified' | 'fileSize'>): string | undefined {
  return poster.type === 'SIDECAR' ? undefined : `${poster.id}:${poster.lastModified}:${poster.fileSize}`;
}

/**
 * A sidecar whose folder cannot be looked at (a library on an unmounted disk or a share that is
 * down) is not known to be gone: it is kept, and the request answered "try again later".
 */
async function assertFolderReachable(row: StoredThumbnail, absolutePath: string): Promise<void> {
  if (row.type !== 'SIDECAR') return;
  try {
    await stat(dirname(absolutePath));
  } catch (error) {
    throw new PosterUnreadable('The folder of the selected poster cannot be reached; try again later', { cause: error, retryable: true });
  }
}

function unreadable(row: StoredThumbnail, error: unknown): PosterUnreadable {
  const code = (error as NodeJS.ErrnoException).code;
  const retryable = isTransientFailure(error);
  const reason = retryable ? 'try again shortly' : `the file cannot be read${typeof code === 'string' ? ` (${code})` : ''}`;
  return new PosterUnreadable(`The selected poster (${row.id}) cannot be read now: ${reason}`, { cause: error, retryable });
}
