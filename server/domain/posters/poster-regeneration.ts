import type { FolioContext } from '../context.ts';
import { regenerateBookThumbnail } from './book-thumbnails.ts';
import { thumbnailMaxEdge } from '../server-settings.ts';

/**
 * Queues a redraw of generated book posters (after the thumbnailSize setting changed). With
 * `biggerResultOnly`, only posters smaller than the current size on both sides are redrawn: those
 * are the ones a redraw could enlarge. Sidecar and uploaded posters are never touched.
 * Returns how many books were queued.
 */
export function submitPosterRegeneration(ctx: FolioContext, biggerResultOnly: boolean): number {
  const edge = thumbnailMaxEdge(ctx.repos.serverSettings);
  const ids = ctx.repos.thumbnails.findBooksWithGeneratedPoster(biggerResultOnly ? edge : undefined);
  for (const bookId of ids) {
    ctx.tasks.submit('GenerateBookThumbnail', `GenerateBookThumbnail:${bookId}`, async () => {
      await regenerateBookThumbnail(ctx, bookId);
    });
  }
  return ids.length;
}
