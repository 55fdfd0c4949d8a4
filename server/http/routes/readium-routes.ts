import { posix } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Book } from '../../db/book-repository.ts';
import type { Media, MediaPage } from '../../db/media-repository.ts';
import type { ReadProgress } from '../../db/read-progress-repository.ts';
import type { User } from '../../db/user-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { epubNavigation, epubPublication, openBookEntry } from '../../domain/reading/epub-publication.ts';
import {
  ProgressionConflict,
  ProgressionError,
  contractLocator,
  currentProgression,
  pageOfLocator,
  saveProgression,
} from '../../domain/reading/r2-progression.ts';
import { MediaError } from '../../media/book-reader.ts';
import { mediaProfileOf } from '../../media/readers.ts';
import { isAdmin } from '../dto/user-dto.ts';
import { toBookDto } from '../dto/book-dto.ts';
import {
  MEDIATYPE_DIVINA,
  MEDIATYPE_WEBPUB,
  type LinkBase,
  type ManifestSource,
  type BooksRoot,
  type Profile,
  type WPPublication,
  bookUrl,
  divinaManifest,
  epubManifest,
  pdfManifest,
  resourceUrl,
} from '../dto/webpub-dto.ts';
import { HttpError, badRequest, notFound } from '../errors.ts';
import { inlineDisposition } from '../file-download.ts';
import { formatDateTime } from '../format.ts';
import { canAccessLibrary, caller } from '../guards.ts';
import { requirePagesReady } from '../book-readiness.ts';
import { notModifiedSince } from '../conditional.ts';
import { publicBaseUrl } from '../base-path.ts';
import { MEDIATYPE_OPDS_PUBLICATION } from '../opds/opds2.ts';
import { servableResourceType } from '../security-headers.ts';
import { STORE_LIMITS, StoreLimitExceeded, checkProgression } from '../../domain/store-limits.ts';
import { type FolioApp, Nullable, type Static, Type, withMessage } from '../schemas.ts';
import { workFor } from '../work-caller.ts';
import { chunkedArrayIn, chunkedObject, chunksOf, mapChunks } from '../chunked-page.ts';
import type { EpubPosition, EpubPositions } from '../../domain/reading/epub-positions.ts';

const MEDIATYPE_POSITIONS = 'application/vnd.readium.position-list+json';
const MEDIATYPE_PROGRESSION = 'application/vnd.readium.progression+json';
/** Positions written per turn of the event loop (~10 µs each: ~10 ms a turn). */
const POSITIONS_PER_TURN = 1000;

type BookParams = { Params: { bookId: string } };

interface ReadableBook {
  user: User;
  book: Book;
  media: Media;
  profile: Profile;
}

const notCompatible = (media: Media) => badRequest(`Book media type '${media.mediaType}' not compatible with requested profile`);

/**
 * Readium endpoints for book readers (REFERENCE §10): WebPub manifests (Divina, PDF, EPUB
 * profiles), EPUB positions, per-user R2 progression, EPUB resources served from the archive, and
 * the reader font endpoints (Folio ships no extra fonts).
 *
 * Restrictions of single-book routes are applied by the content guard (hidden books are 404).
 */
export function registerReadiumRoutes(app: FolioApp, ctx: FolioContext): void {
  /** A book the caller may read, analysed (READY), with its media profile. */
  const readable = (request: FastifyRequest, bookId: string): ReadableBook => {
    const user = caller(request);
    const book = ctx.repos.books.findById(bookId);
    const media = book && ctx.repos.media.findByBookId(book.id);
    if (!book || !media || !canAccessLibrary(user, book.libraryId)) throw notFound();
    requirePagesReady(media);
    const profile = mediaProfileOf(media.mediaType);
    if (!profile) throw notFound('Book analysis failed');
    return { user, book, media, profile };
  };

  /** What a manifest is written from; `books` is the address family it was asked under, which its links keep. */
  const source = (request: FastifyRequest, target: ReadableBook, books: BooksRoot): ManifestSource => {
    const book = toBookDto(ctx, target.book.id, target.user.id, isAdmin(target.user));
    if (!book) throw notFound();
    return {
      origin: publicBaseUrl(request),
      books,
      book,
      seriesMetadata: ctx.repos.seriesMetadata.findBySeriesId(target.book.seriesId),
      profile: target.profile,
      epubDivinaCompatible: target.media.epubDivinaCompatible,
    };
  };

  const linkBase = (request: FastifyRequest, target: ReadableBook, books: BooksRoot): LinkBase => ({ origin: publicBaseUrl(request), books, bookId: target.book.id });

  const send = (reply: FastifyReply, type: string, body: unknown) => reply.type(type).send(JSON.stringify(body));
  /** Manifests list every page or spine document: their long lists are written over several turns. */
  const sendManifest = (reply: FastifyReply, type: string, body: WPPublication) => chunkedObject(reply, type, body);

  /** Image-only EPUBs: each spine document with the page image it shows, for link sizes. */
  const imagePages = (target: ReadableBook, spine: { path: string }[]): Map<string, MediaPage> => {
    const pages = ctx.repos.media.findPages(target.book.id);
    if (!target.media.epubDivinaCompatible || pages.length !== spine.length) return new Map();
    return new Map(spine.map((item, index) => [item.path, pages[index]!]));
  };

  /**
   * The EPUB's package, read from its archive. A file gone missing is a 404 as for pages; a busy
   * server (503) or a damaged package (422) is answered as such by the error handler.
   */
  const publicationOf = (request: FastifyRequest, target: ReadableBook) =>
    epubPublication(ctx, target.book, target.media, workFor(request)).catch((error: unknown) => {
      if (error instanceof MediaError && error.code === 'ERR_1000') throw notFound('File not found, it may have moved');
      throw error;
    });

  /**
   * An EPUB's navigation not read now (navigation entry timed out, server busy) still leaves the
   * book readable: its manifest goes without a table of contents, said in this header (the client
   * tells the reader; the value is how many seconds until it is read again) and never cached.
   */
  const NAVIGATION_UNAVAILABLE_HEADER = 'Folio-Navigation-Unavailable';

  const manifest = async (request: FastifyRequest, reply: FastifyReply, target: ReadableBook, profile: Profile, books: BooksRoot): Promise<WPPublication> => {
    const from = source(request, target, books);
    if (profile === 'DIVINA') return divinaManifest(from, ctx.repos.media.findPages(target.book.id));
    if (profile === 'PDF') return pdfManifest(from, ctx.repos.media.findPages(target.book.id));
    const epub = await publicationOf(request, target);
    const read = await epubNavigation(ctx, target.book, target.media, workFor(request));
    if (read.unavailable) {
      reply.header(NAVIGATION_UNAVAILABLE_HEADER, String(read.unavailable.retryAfterSeconds)).header('Cache-Control', 'no-store');
    }
    return epubManifest(from, epub, read.navigation, imagePages(target, epub.readingOrder));
  };

  // Also at Komga's OPDS 2 addresses of a book (Opds2Controller), which its OPDS 2 publications
  // link to; there the manifest is typed as an OPDS publication, and its links stay under
  // /opds/v2, as Komga's OpdsGenerator writes them.
  for (const [prefix, typed] of [
    ['/api/v1/books', (type: string) => type],
    ['/opds/v2/books', () => MEDIATYPE_OPDS_PUBLICATION],
  ] as const) {
    app.get(`${prefix}/:bookId/manifest`, { schema: { params: Type.Object({ bookId: Type.String() }) } }, async (request, reply) => {
      const target = readable(request, request.params.bookId);
      const type = target.profile === 'DIVINA' ? MEDIATYPE_DIVINA : MEDIATYPE_WEBPUB;
      return sendManifest(reply, typed(type), await manifest(request, reply, target, target.profile, prefix));
    });

    app.get(`${prefix}/:bookId/manifest/divina`, { schema: { params: Type.Object({ bookId: Type.String() }) } }, async (request, reply) => {
      const target = readable(request, request.params.bookId);
      // Page by page: comics, PDFs (pages drawn as images) and EPUBs made only of images.
      if (target.profile === 'EPUB' && !target.media.epubDivinaCompatible) throw notCompatible(target.media);
      return sendManifest(reply, typed(MEDIATYPE_DIVINA), await manifest(request, reply, target, 'DIVINA', prefix));
    });

    app.get(`${prefix}/:bookId/manifest/pdf`, { schema: { params: Type.Object({ bookId: Type.String() }) } }, async (request, reply) => {
      const target = readable(request, request.params.bookId);
      if (target.profile !== 'PDF') throw notCompatible(target.media);
      return sendManifest(reply, typed(MEDIATYPE_WEBPUB), await manifest(request, reply, target, 'PDF', prefix));
    });

    app.get(`${prefix}/:bookId/manifest/epub`, { schema: { params: Type.Object({ bookId: Type.String() }) } }, async (request, reply) => {
      const target = readable(request, request.params.bookId);
      if (target.profile !== 'EPUB') throw notCompatible(target.media);
      return sendManifest(reply, typed(MEDIATYPE_WEBPUB), await manifest(request, reply, target, 'EPUB', prefix));
    });
  }

  const positionsOf = async (request: FastifyRequest, target: ReadableBook): Promise<EpubPositions> => (await publicationOf(request, target)).positions;

  const toLocator = (from: LinkBase, p: EpubPosition) => ({
    href: resourceUrl(from, p.path),
    type: p.mediaType,
    locations: { fragments: [], position: p.position, progression: p.progression, totalProgression: p.totalProgression },
  });

  /** EPUB positions (Komga has none for other formats: 404). */
  app.get('/api/v1/books/:bookId/positions', { schema: { params: Type.Object({ bookId: Type.String() }) } }, async (request, reply) => {
    const target = readable(request, request.params.bookId);
    if (target.profile !== 'EPUB') throw notFound();
    const from = linkBase(request, target, '/api/v1/books');
    const positions = await positionsOf(request, target);
    // Short lists from memory (with their ETag); past one turn's worth, written a chunk per turn as
    // the client reads: a text EPUB has one position per KB of text.
    if (positions.total <= POSITIONS_PER_TURN) {
      return send(reply, MEDIATYPE_POSITIONS, { total: positions.total, positions: [...positions].map((p) => toLocator(from, p)) });
    }
    return chunkedArrayIn(reply, MEDIATYPE_POSITIONS, { total: positions.total }, 'positions', mapChunks(chunksOf(positions, POSITIONS_PER_TURN), (p) => toLocator(from, p)));
  });

  /** A locator for a read progress saved without one (page-based readers, "mark as read"). */
  const locatorFromPage = async (request: FastifyRequest, target: ReadableBook, progress: ReadProgress, books: BooksRoot) => {
    const from = linkBase(request, target, books);
    if (target.profile === 'EPUB') {
      const positions = await positionsOf(request, target);
      const position = positions.at(Math.min(progress.page, positions.total));
      if (position) return toLocator(from, position);
    }
    const page = ctx.repos.media.findPage(target.book.id, progress.page);
    const pdf = target.profile === 'PDF';
    return {
      href: bookUrl(from, pdf ? `pages/${progress.page}/raw` : `pages/${progress.page}?contentNegotiation=false`),
      type: pdf ? 'application/pdf' : (page?.mediaType ?? 'application/octet-stream'),
      locations: { fragments: [], position: progress.page, totalProgression: target.media.pageCount ? progress.page / target.media.pageCount : 0 },
    };
  };

  // Komga's R2 progression is also served under its OPDS 2 book address (positions are not).
  for (const prefix of ['/api/v1/books', '/opds/v2/books'] as const) {
    /** 204 when the user never opened the book. */
    app.get(`${prefix}/:bookId/progression`, { schema: { params: Type.Object({ bookId: Type.String() }) } }, async (request, reply) => {
      const target = readable(request, request.params.bookId);
      const progress = ctx.repos.readProgress.find(target.book.id, target.user.id);
      if (!progress) return reply.code(204).send();
      const stored = currentProgression(ctx, progress);
      return send(reply, MEDIATYPE_PROGRESSION, {
        modified: formatDateTime(progress.readDate),
        device: { id: stored?.deviceId ?? progress.deviceId, name: stored?.deviceName ?? progress.deviceName },
        locator: stored ? contractLocator(stored.locator) : await locatorFromPage(request, target, progress, prefix),
      });
    });

    app.put(`${prefix}/:bookId/progression`, { schema: { params: Type.Object({ bookId: Type.String() }), body: R2ProgressionBody } }, async (request, reply) => {
      const target = readable(request, request.params.bookId);
      const input = readProgression(request.body);
      const positions = target.profile === 'EPUB' ? await positionsOf(request, target) : null;
      try {
        saveProgression(ctx, target.user.id, target.book, input, pageOfLocator(target.media, input.locator, positions));
      } catch (error) {
        if (error instanceof ProgressionError) throw badRequest(error.message);
        if (error instanceof ProgressionConflict) throw new HttpError(409, error.message);
        throw error;
      }
      return reply.code(204).send();
    });
  }

  registerResourceRoutes(app, ctx);
  registerFontRoutes(app);
}

/** R2Progression body → checked input. */
/** R2Progression as Readium clients send it (locator details are checked against the book). */
const R2ProgressionBody = Type.Object({
  modified: withMessage(Type.String({ format: 'date-time' }), 'must be a date-time'),
  device: Type.Object({ id: Type.String(), name: Type.String() }),
  locator: Type.Object({
    // An href is part of the locator, bounded as a whole by checkProgression.
    href: Type.String({ maxLength: STORE_LIMITS.progression.locatorBytes }),
    type: Type.String(),
    locations: Type.Optional(Nullable(Type.Object({}))),
  }),
});

function readProgression(body: Static<typeof R2ProgressionBody>) {
  try {
    checkProgression(body.locator, body.device.id, body.device.name);
  } catch (error) {
    if (error instanceof StoreLimitExceeded) throw badRequest(`Invalid progression: ${error.message}`);
    throw error;
  }
  return { modified: Date.parse(body.modified), deviceId: body.device.id, deviceName: body.device.name, locator: contractLocator(body.locator) };
}

/**
 * `GET /api/v1/books/{id}/resource/{path}`: one entry of an EPUB, streamed from the archive. Only
 * entries analysis listed for that book are served, looked up by name inside the archive (never a
 * filesystem path). Unlike Komga, every resource (fonts included) needs a signed-in caller: an
 * anonymous font path let anyone fetch a book's SVGs; and like pages they need PAGE_STREAMING. The content type is the declared one only
 * when it is a type a book may show (scripts are sent as octet-stream); the CSP, nosniff and
 * sandboxing of what is served are set for every API response in security-headers.ts.
 */
function registerResourceRoutes(app: FastifyInstance, ctx: FolioContext): void {
  const handler = async (request: FastifyRequest<{ Params: { bookId: string; resource?: string; '*'?: string } }>, reply: FastifyReply) => {
    const name = request.params.resource ?? request.params['*'] ?? '';
    const user = caller(request);
    const book = ctx.repos.books.findById(request.params.bookId);
    const media = book && ctx.repos.media.findByBookId(book.id);
    if (!book || !media || !canAccessLibrary(user, book.libraryId)) throw notFound();
    const lastModifiedSeconds = Math.floor(media.lastModified / 1000);
    if (notModifiedSince(request, media.lastModified)) return reply.code(304).send();
    if (mediaProfileOf(media.mediaType) !== 'EPUB') throw notCompatible(media);

    const listed =
      ctx.repos.media.findFiles(book.id).find((f) => f.fileName === name) ??
      ctx.repos.media.findPages(book.id).find((p) => p.fileName === name);
    if (!listed) throw notFound();
    // A book file gone since the scan is a 404; a busy server (503) or a damaged entry (422) is
    // answered as such by the error handler.
    const entry = await openBookEntry(ctx, book, name, workFor(request)).catch((error: unknown) => {
      if (error instanceof MediaError && error.code === 'ERR_1000') throw notFound('File not found, it may have moved');
      throw error;
    });
    if (!entry) throw notFound();
    const fileName = posix.basename(name);
    if (entry.length !== null) reply.header('Content-Length', entry.length);
    return reply
      .header('Last-Modified', new Date(lastModifiedSeconds * 1000).toUTCString())
      .header('Content-Disposition', inlineDisposition(fileName))
      .type(servableResourceType(listed.mediaType))
      .send(entry.stream);
  };
  // One path segment (the contract's {resource}) and nested paths inside the EPUB; also at Komga's
  // OPDS 2 book address (CommonBookController serves both).
  // The whole text of the book: the same role as its pages would need (Komga's readers offer reading only with it).
  for (const prefix of ['/api/v1/books', '/opds/v2/books']) {
    app.get(`${prefix}/:bookId/resource/:resource`, { config: { role: 'PAGE_STREAMING' }, schema: { params: Type.Object({ bookId: Type.String(), resource: Type.String() }) } }, handler);
    app.get(`${prefix}/:bookId/resource/*`, { config: { role: 'PAGE_STREAMING' }, schema: { params: Type.Object({ bookId: Type.String(), '*': Type.String() }) } }, handler);
  }
}

/**
 * Reader fonts: Komga serves extra font families from a server folder. Folio ships none, so the
 * family list is empty and every font resource is 404 (open to anonymous callers, as in Komga).
 */
function registerFontRoutes(app: FastifyInstance): void {
  app.get('/api/v1/fonts/families', async (request) => {
    caller(request);
    return [];
  });
  app.get('/api/v1/fonts/resource/:fontFamily/css', { schema: { params: Type.Object({ fontFamily: Type.String() }) } }, async () => {
    throw notFound();
  });
  app.get('/api/v1/fonts/resource/:fontFamily/:fontFile', { schema: { params: Type.Object({ fontFamily: Type.String(), fontFile: Type.String() }) } }, async () => {
    throw notFound();
  });
}
