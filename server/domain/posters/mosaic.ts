import { renderMosaic } from '../../media/poster-images.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import type { FolioContext } from '../context.ts';
import { bookThumbnail } from './book-thumbnails.ts';
import { seriesPoster } from './series-poster.ts';

/** At most this many posters make a mosaic (2 × 2). */
const TILES = 4;

/**
 * A collection's drawn poster: the posters of its first four series that have one, in the order
 * given (the caller has already left out series the viewer may not see).
 */
export async function seriesMosaic(ctx: FolioContext, seriesIds: readonly string[], userId: string, work: MediaWork = {}): Promise<Buffer> {
  const posters: (string | Buffer)[] = [];
  for (const seriesId of seriesIds) {
    if (posters.length === TILES) break;
    const poster = await seriesPoster(ctx, seriesId, userId, work);
    if (poster) posters.push(poster.bytes ?? poster.absolutePath);
  }
  return renderMosaic(posters, work);
}

/** A read list's drawn poster: the posters of its first four books that have one, in the order given. */
export async function bookMosaic(ctx: FolioContext, bookIds: readonly string[], work: MediaWork = {}): Promise<Buffer> {
  const posters: (string | Buffer)[] = [];
  for (const bookId of bookIds) {
    if (posters.length === TILES) break;
    const poster = await bookThumbnail(ctx, bookId, undefined, work);
    if (poster) posters.push(poster.bytes ?? poster.absolutePath);
  }
  return renderMosaic(posters, work);
}
