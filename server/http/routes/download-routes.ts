import { basename } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { canSeeBook, hasContentRestrictions } from '../../domain/content-restrictions.ts';
import type { FolioContext } from '../../domain/context.ts';
import { zipOfBookFiles } from '../../domain/library/book-downloads.ts';
import { libraryRoots } from '../../domain/library/library-paths.ts';
import type { WrittenZip } from '../../media/zip-writer.ts';
import { notFound } from '../errors.ts';
import { attachmentDisposition, sendAttachment } from '../file-download.ts';
import { endDownloadWhenAccessEnds } from '../download-revocation.ts';
import { canAccessLibrary, requireRole } from '../guards.ts';
import { type FolioApp, IdParams, Type } from '../schemas.ts';

/** A zip as an attachment, with its exact Content-Length when the writer knows it upfront. */
function sendZip(reply: FastifyReply, zipName: string, zip: WrittenZip): FastifyReply {
  reply.type('application/zip').header('Content-Disposition', attachmentDisposition(zipName));
  if (zip.size !== null) reply.header('Content-Length', zip.size);
  return reply.send(zip.stream);
}

/**
 * Whole-series and whole-read-list downloads (role FILE_DOWNLOAD, REFERENCE §4): one zip of the
 * book files, streamed as it is built. The single-book download lives with the book routes.
 * Series visibility is enforced by the content guard (it covers every /api/v1/series/:id route);
 * read lists are filtered here, book by book, with the same restriction rules.
 */
export function registerDownloadRoutes(app: FolioApp, ctx: FolioContext): void {
  /**
   * `/books/{id}/file/<anything>`: the same download with a file name at the end of the URL, for
   * download tools that name files after the path (endpoints.txt); the suffix is ignored. Komga
   * serves it under its OPDS 1.2 and 2 addresses too (its feeds' acquisition links, kept by
   * readers). Content restrictions: content-guard.ts.
   */
  for (const url of ['/api/v1/books/:id/file/*', '/opds/v1.2/books/:id/file/*', '/opds/v2/books/:id/file/*']) {
    app.get(url, { schema: { params: Type.Object({ id: Type.String(), '*': Type.String() }) } }, async (request, reply) => {
      const user = requireRole(request, 'FILE_DOWNLOAD');
      const book = ctx.repos.books.findById(request.params.id);
      if (!book || !canAccessLibrary(user, book.libraryId)) throw notFound();
      const media = ctx.repos.media.findByBookId(book.id);
      endDownloadWhenAccessEnds(ctx, request, reply, user.id, [book]);
      return sendAttachment(request, reply, book.url, media?.mediaType ?? 'application/octet-stream', basename(book.url), libraryRoots(ctx), user.id);
    });
  }

  app.get('/api/v1/series/:id/file', { schema: { params: IdParams } }, async (request, reply) => {
    const user = requireRole(request, 'FILE_DOWNLOAD');
    const series = ctx.repos.series.findById(request.params.id);
    if (!series || !canAccessLibrary(user, series.libraryId)) throw notFound();
    const restricted = hasContentRestrictions(user);
    // The series is the content guard's; a book of it may still be kept from a restricted reader
    // (awaiting analysis, content-restriction.ts): only the books they may see go in the zip.
    const books = ctx.repos.books.findBySeries(series.id).filter((b) => b.deletedDate === null && (!restricted || canSeeBook(ctx.repos, user, b.id)));
    const zip = await zipOfBookFiles(ctx, books.map((b) => ({ path: b.url, entryName: basename(b.url) })), user.id);
    endDownloadWhenAccessEnds(ctx, request, reply, user.id, books);
    return sendZip(reply, `${series.name}.zip`, zip);
  });

  app.get('/api/v1/readlists/:id/file', { schema: { params: IdParams } }, async (request, reply) => {
    const user = requireRole(request, 'FILE_DOWNLOAD');
    const list = ctx.repos.readLists.findById(request.params.id);
    const visible = (list?.bookIds ?? []).filter((id) => canSeeBook(ctx.repos, user, id));
    if (!list || visible.length === 0) throw notFound();
    const books = visible.flatMap((id) => {
      const book = ctx.repos.books.findById(id);
      return book && book.deletedDate === null ? [book] : [];
    });
    // Entries carry their reading position so any unzip tool lists them in order.
    const width = String(books.length).length;
    const zip = await zipOfBookFiles(
      ctx,
      books.map((b, i) => ({ path: b.url, entryName: `${String(i + 1).padStart(width, '0')} - ${basename(b.url)}` })),
      user.id,
    );
    endDownloadWhenAccessEnds(ctx, request, reply, user.id, books);
    return sendZip(reply, `${list.name}.zip`, zip);
  });
}
