import type { FolioContext } from '../../domain/context.ts';
import { bookThumbnail, keptBookPoster } from '../../domain/posters/book-thumbnails.ts';
import { smallChosenPoster } from '../../domain/posters/small-book-poster.ts';
import { notFound } from '../errors.ts';
import { canAccessLibrary, caller } from '../guards.ts';
import { sendKeptFile, sendPoster } from '../send-file.ts';
import { type FolioApp, IdParams } from '../schemas.ts';
import { workFor } from '../work-caller.ts';

/** Where a book's poster is served: the REST address and Komga's OPDS 1.2 and 2 ones. */
export const BOOK_POSTER_URLS = [
  '/api/v1/books/:id/thumbnail',
  '/opds/v1.2/books/:id/thumbnail',
  '/opds/v1.2/books/:id/thumbnail/small',
  '/opds/v2/books/:id/thumbnail',
];

/** Komga's small OPDS poster: a chosen poster is redrawn small there (small-book-poster.ts). */
const SMALL_OPDS_POSTER_URL = '/opds/v1.2/books/:id/thumbnail/small';

/** A book's poster at `urls` (all of them by default; a serving process registers those it serves). */
export function registerBookPosterRoutes(app: FolioApp, ctx: FolioContext, urls: readonly string[] = BOOK_POSTER_URLS): void {
  // The book's poster, also at the addresses Komga's OPDS feeds give (OpdsCommonController,
  // OpdsController's small one): readers keep those links. Content restrictions: content-guard.ts.
  for (const url of urls) {
    app.get(url, { schema: { params: IdParams } }, async (request, reply) => {
      // Asked for by every book card: the book's library (the access check, made on every request)
      // and its selected poster, remembered until a write changes them (serving-lookups.ts), whose
      // bytes are usually in memory under the record's version.
      const found = ctx.repos.served.bookPoster(request.params.id);
      if (!found || !canAccessLibrary(caller(request), found.libraryId)) throw notFound();
      if (url === SMALL_OPDS_POSTER_URL && found.poster) {
        const small = await smallChosenPoster(ctx, request.params.id, found.poster, workFor(request));
        if (small) return reply.type('image/jpeg').send(small);
      }
      const kept = found.poster && keptBookPoster(ctx, found.poster);
      if (kept) return sendKeptFile(reply, kept, found.poster!.mediaType);
      const thumbnail = await bookThumbnail(ctx, request.params.id, found.poster, workFor(request));
      if (!thumbnail) throw notFound();
      return sendPoster(reply, thumbnail);
    });
  }
}
