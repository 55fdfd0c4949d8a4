import type { BookThumbnail } from '../../db/thumbnail-repository.ts';
import { withDecodeInput } from '../../media/image-decode.ts';
import { thumbnailJpeg } from '../../media/image-transcode.ts';
import { fileSlots } from '../../media/file-slots.ts';
import { isTransientFailure } from '../../media/transient-errors.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import type { FolioContext } from '../context.ts';
import { thumbnailMaxEdge } from '../server-settings.ts';
import { bookThumbnail } from './book-thumbnails.ts';

/**
 * The poster at Komga's OPDS "small" address (`/opds/v1.2/books/{id}/thumbnail/small`). A drawn
 * poster is already small and is served as it is; a chosen one (uploaded or sidecar: often large,
 * often PNG) is redrawn as a JPEG at most the thumbnailSize setting on its longest side, as Komga's
 * OpdsController does, since OPDS readers show it in lists. Null when the poster is drawn or
 * cannot be redrawn (logged): the caller then serves it as it is, as Komga falls back to.
 * A busy server is not a bad image: that failure is thrown, not hidden by the fallback.
 */
export async function smallChosenPoster(ctx: FolioContext, bookId: string, poster: BookThumbnail, work: MediaWork = {}): Promise<Buffer | null> {
  if (poster.type === 'GENERATED') return null;
  const file = await bookThumbnail(ctx, bookId, poster, work);
  if (!file) return null;
  try {
    // A poster drawn just now that could not be stored has only its bytes.
    const edge = thumbnailMaxEdge(ctx.repos.serverSettings);
    const drawn = file.bytes
      ? await thumbnailJpeg(file.bytes, edge, 85, work)
      : await withDecodeInput(await fileSlots.openReadStream(file.absolutePath), null, work, (input) => thumbnailJpeg(input, edge, 85, work));
    return drawn.data;
  } catch (error) {
    if (isTransientFailure(error)) throw error;
    ctx.logger.warn({ err: error, bookId, posterId: poster.id }, 'small OPDS poster not redrawn: served as stored');
    return null;
  }
}
