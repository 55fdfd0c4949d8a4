import { extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { openBookPage, servedPage } from '../../domain/pages/page-content.ts';
import { convertedPage } from '../../domain/pages/page-images.ts';
import { pageThumbnail } from '../../domain/pages/page-thumbnails.ts';
import { badRequest, notFound } from '../errors.ts';
import { canAccessLibrary, caller } from '../guards.ts';
import { type RawQuery, booleanParam, pageNumberParam, stringParam } from '../query-params.ts';
import { requirePagesReady } from '../book-readiness.ts';
import { registerRawPageRoute } from './raw-page-routes.ts';
import { prefersPdf, releaseOnClose, sendRawPage, sizeHint } from '../page-responses.ts';
import { inlineDisposition } from '../file-download.ts';
import { httpDateOf, resolveStreamedPage } from '../streamed-page.ts';
import { type FolioApp, NamedQuery, Type } from '../schemas.ts';
import { workFor } from '../work-caller.ts';

const EXTENSION_OF: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/jxl': '.jxl',
  'image/heif': '.heif',
  'image/bmp': '.bmp',
  'image/tiff': '.tiff',
};


/**
 * Page bytes (REFERENCE §4): streamed straight from the archive entry, typed with the page's
 * sniffed media type, cacheable by Last-Modified of the book's media.
 */
export function registerPageRoutes(app: FolioApp, ctx: FolioContext): void {
  registerPageBytesRoutes(app, ctx);
  registerPageThumbnailRoute(app, ctx);
  registerRawPageRoute(app, ctx);
}

/** A page's bytes at Komga's three addresses (a serving process registers these too). */
export function registerPageBytesRoutes(app: FolioApp, ctx: FolioContext): void {
  // Also at Komga's OPDS-PSE address (OpdsController), whose page numbers count from 0, and its
  // OPDS 2 one (Opds2Controller), counted from 1: readers keep the links its feeds gave.
  // Content restrictions: content-guard.ts.
  const addresses = [['/api/v1/books/:id/pages/:n', undefined], ['/opds/v1.2/books/:id/pages/:n', 'v1.2'], ['/opds/v2/books/:id/pages/:n', 'v2']] as const;
  for (const [url, opdsPages] of addresses) {
    app.get(url, { config: { opdsPages }, schema: { params: Type.Object({ id: Type.String(), n: Type.String() }), querystring: NamedQuery(['contentNegotiation', 'convert', 'zero_based', 'width', 'height', 'v']) } }, async (request, reply) => {
        // The query is converted before the book is looked up, as Spring does before Komga's handler runs.
        const convert = stringParam(request.query, 'convert')?.toLowerCase();
        if (convert !== undefined && convert !== 'jpeg' && convert !== 'png') {
          throw badRequest(`Invalid conversion format: ${convert}`);
        }
        const negotiate = opdsPages === undefined && booleanParam(request.query, 'contentNegotiation') !== false;

        const resolved = resolveStreamedPage(ctx, request, reply);
        if (!resolved) return reply;
        const { book, media, number } = resolved;

        const hint = sizeHint(request.query);
        // PDF pages: a one-page PDF instead of a drawn image when the client prefers it (REFERENCE §4).
        if (media.mediaType === 'application/pdf' && negotiate && prefersPdf(request.headers.accept)) {
          return sendRawPage(ctx, reply, book, number, workFor(request));
        }

        // Failures (busy server, damaged entry, missing file) are answered by the app's error handler.
        const options = { ...hint, ...workFor(request) };
        const content = convert ? await openBookPage(ctx, book, number, { format: convert, ...options }) : await servedPage(ctx, book, number, options);
        if (!content) throw badRequest('Page number does not exist');
        const { page } = content;

        const targetType = convert ? `image/${convert}` : page.mediaType;
        const extension = EXTENSION_OF[targetType] ?? extname(page.fileName);
        reply.header('Content-Disposition', inlineDisposition(`${book.name}-${number}${extension}`));
        if ('whole' in content) {
          // The bytes stay counted against the pool's budget until the client has them (or left).
          releaseOnClose(reply.raw, content.whole.release);
          return reply.type(page.mediaType).send(content.whole.bytes);
        }
        const { stream } = content;
        if (convert && targetType !== page.mediaType) {
          // Within the decode limits; a page over them is refused with ERR_1007. Its bytes stay
          // counted in the conversions' budget until the client has them (or left).
          const converted = await convertedPage(book, content, convert, workFor(request));
          releaseOnClose(reply.raw, converted.release);
          return reply.type(targetType).send(converted.bytes);
        }
        if (content.length !== null) reply.header('Content-Length', content.length);
        return reply.type(page.mediaType).send(stream);
      },
    );
  }

}

/** A page resized to 300 px on its longest side, always JPEG; needs no streaming role. */
function registerPageThumbnailRoute(app: FolioApp, ctx: FolioContext): void {
  app.get('/api/v1/books/:id/pages/:n/thumbnail', { schema: { params: Type.Object({ id: Type.String(), n: Type.String() }), querystring: NamedQuery(['contentNegotiation', 'convert', 'zero_based', 'width', 'height', 'v']) } }, async (request, reply) => {
      // Parameters first, as Spring converts them before Komga's handler looks the book up.
      const raw = pageNumberParam(request.params.n);
      const number = booleanParam(request.query, 'zero_based') ? raw + 1 : raw;
      const book = ctx.repos.books.findById(request.params.id);
      const media = book && ctx.repos.media.findByBookId(book.id);
      if (!book || !media || !canAccessLibrary(caller(request), book.libraryId)) throw notFound();
      requirePagesReady(media);
      if (number < 1 || number > media.pageCount) throw badRequest('Page number does not exist');
      const output = await pageThumbnail(ctx, book, media.lastModified, number, workFor(request));
      if (!output) throw badRequest('Page number does not exist');
      reply.header('Last-Modified', httpDateOf(media.lastModified));
      return reply.type('image/jpeg').send(output);
    },
  );
}
