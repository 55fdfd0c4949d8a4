import { READING_DIRECTIONS, SERIES_STATUSES } from '../../db/stored-values.ts';
import type { FolioContext } from '../../domain/context.ts';
import {
  type BookMetadataPatch,
  MetadataValidationError,
  applyMetadataPatch,
  readBookMetadataUpdate,
  readSeriesMetadataUpdate,
} from '../../domain/metadata/metadata-update.ts';
import { refreshSeriesAggregation } from '../../domain/metadata/series-aggregation.ts';
import { notFound } from '../errors.ts';
import { requireRole } from '../guards.ts';
import { BatchRecord, type FolioApp, IdParams, LongText, Nullable, type TSchema, StringEnum, Type, fieldViolations } from '../schemas.ts';

// PATCH semantics (REFERENCE §2.11): absent keeps; null keeps or clears, field by field, as the
// domain's read functions decide. Text rules (not blank, valid URL, ISBN) are the domain's too.
const optional = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const lock = () => optional(Type.Boolean());
const NameRole = Type.Object({ name: Type.String(), role: Type.String() });
const Link = Type.Object({ label: Type.String(), url: Type.String() });
const strings = () => optional(Type.Array(Type.String()));

const BookMetadataUpdate = Type.Object({
  title: optional(Type.String()),
  titleLock: lock(),
  summary: optional(LongText()),
  summaryLock: lock(),
  number: optional(Type.String()),
  numberLock: lock(),
  numberSort: optional(Type.Number()),
  numberSortLock: lock(),
  releaseDate: optional(Type.String()),
  releaseDateLock: lock(),
  authors: optional(Type.Array(NameRole)),
  authorsLock: lock(),
  tags: strings(),
  tagsLock: lock(),
  isbn: optional(Type.String()),
  isbnLock: lock(),
  links: optional(Type.Array(Link)),
  linksLock: lock(),
});

const SeriesMetadataUpdate = Type.Object({
  status: optional(StringEnum(SERIES_STATUSES)),
  statusLock: lock(),
  title: optional(Type.String()),
  titleLock: lock(),
  titleSort: optional(Type.String()),
  titleSortLock: lock(),
  summary: optional(LongText()),
  summaryLock: lock(),
  readingDirection: optional(StringEnum(READING_DIRECTIONS)),
  readingDirectionLock: lock(),
  publisher: optional(Type.String()),
  publisherLock: lock(),
  ageRating: optional(Type.Integer()),
  ageRatingLock: lock(),
  language: optional(Type.String()),
  languageLock: lock(),
  genres: strings(),
  genresLock: lock(),
  tags: strings(),
  tagsLock: lock(),
  totalBookCount: optional(Type.Integer()),
  totalBookCountLock: lock(),
  sharingLabels: strings(),
  sharingLabelsLock: lock(),
  links: optional(Type.Array(Link)),
  linksLock: lock(),
  alternateTitles: optional(Type.Array(Type.Object({ label: Type.String(), title: Type.String() }))),
  alternateTitlesLock: lock(),
});

/** Manual metadata edits (ADMIN, 204), REFERENCE §2.11. */
export function registerMetadataRoutes(app: FolioApp, ctx: FolioContext): void {
  /** The book edited, or undefined when the id names no book. */
  const updateBook = (bookId: string, patch: BookMetadataPatch, now: number) => {
    const book = ctx.repos.books.findById(bookId);
    const current = ctx.repos.bookMetadata.findByBookId(bookId);
    if (!book || !current) return undefined;
    ctx.repos.bookMetadata.update(applyMetadataPatch(current, patch, now));
    refreshSeriesAggregation(ctx, book.seriesId, now);
    return book;
  };
  /** A body's own rules, checked before any lookup (as Komga validates before its handler): a 400 names the field. */
  const validated = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof MetadataValidationError) throw fieldViolations([{ fieldName: error.fieldName, message: error.rule }]);
      throw error;
    }
  };

  app.patch('/api/v1/books/:id/metadata', { config: { role: 'ADMIN' }, schema: { params: IdParams, body: BookMetadataUpdate } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const patch = validated(() => readBookMetadataUpdate(request.body));
    const book = ctx.repos.inTransaction(() => updateBook(request.params.id, patch, Date.now()));
    if (!book) throw notFound();
    ctx.events.emit({ name: 'BookChanged', data: { bookId: book.id, seriesId: book.seriesId, libraryId: book.libraryId } });
    return reply.code(204).send();
  });

  app.patch('/api/v1/books/metadata', { config: { role: 'ADMIN' }, schema: { body: BatchRecord(BookMetadataUpdate) } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const patches = validated(() => Object.entries(request.body).map(([id, update]) => [id, readBookMetadataUpdate(update)] as const));
    const now = Date.now();
    // An id naming no book (deleted since the client listed it) is passed over, as Komga's mapNotNull does.
    const books = ctx.repos.inTransaction(() => patches.flatMap(([id, patch]) => updateBook(id, patch, now) ?? []));
    for (const book of books) {
      ctx.events.emit({ name: 'BookChanged', data: { bookId: book.id, seriesId: book.seriesId, libraryId: book.libraryId } });
    }
    return reply.code(204).send();
  });

  app.patch('/api/v1/series/:id/metadata', { config: { role: 'ADMIN' }, schema: { params: IdParams, body: SeriesMetadataUpdate } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const patch = validated(() => readSeriesMetadataUpdate(request.body));
    const series = ctx.repos.series.findById(request.params.id);
    const current = ctx.repos.seriesMetadata.findBySeriesId(request.params.id);
    if (!series || !current) throw notFound();
    ctx.repos.seriesMetadata.update(applyMetadataPatch(current, patch, Date.now()));
    ctx.events.emit({ name: 'SeriesChanged', data: { seriesId: series.id, libraryId: series.libraryId } });
    return reply.code(204).send();
  });
}
