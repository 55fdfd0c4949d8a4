import type { FastifyInstance } from 'fastify';
import { isAbsolute } from 'node:path';
import { COPY_MODES } from '../../domain/import/book-import.ts';
import { submitBookImport } from '../../domain/import/import-task.ts';
import { matchImportMetadata } from '../../domain/import/import-match.ts';
import type { FolioContext } from '../../domain/context.ts';
import { ImportFolderError, type TransientBook, TransientBookStore, importSourceFolder, openTransientPage } from '../../domain/import/transient-books.ts';
import { badRequest, notFound } from '../errors.ts';
import { formatDateTime, humanSize } from '../format.ts';
import { requireRole } from '../guards.ts';
import { toPageDto } from '../dto/book-dto.ts';
import { pageNumberParam } from '../query-params.ts';
import { Batch, type FolioApp, IdParams, Nullable, PathText, StringEnum, Type } from '../schemas.ts';
import { workFor } from '../work-caller.ts';

function toTransientBookDto(book: TransientBook, match: { seriesId: string | null; number: number | null } = { seriesId: null, number: null }) {
  return {
    id: book.id,
    name: book.name,
    url: book.path,
    fileLastModified: formatDateTime(book.fileLastModified),
    sizeBytes: book.size,
    size: humanSize(book.size),
    mediaType: book.mediaType,
    status: book.status,
    comment: book.comment,
    pages: book.pages.map((p, i) => toPageDto({ number: i + 1, fileName: p.fileName, mediaType: p.mediaType, width: p.width, height: p.height, fileSize: p.fileSize })),
    files: book.files.map((f) => f.fileName),
    number: match.number,
    seriesId: match.seriesId,
  };
}

/**
 * Book import (ADMIN): look at files outside the libraries (transient books: scan a folder,
 * analyse one, view its pages), then copy or move chosen files into series folders. Import runs
 * in the background; each outcome is announced with a BookImported event.
 */
export function registerImportRoutes(app: FolioApp, ctx: FolioContext): void {
  const transient = new TransientBookStore((message, error) => ctx.log(message, error));

  app.post('/api/v1/transient-books', { config: { role: 'ADMIN' }, schema: { body: Type.Object({ path: PathText() }) } }, async (request) => {
    const path = request.body.path;
    if (!isAbsolute(path) || path.includes('\0')) throw badRequest('path must be an absolute folder path');
    const folder = await importSourceFolder(ctx, path).catch((error: unknown) => {
      throw error instanceof ImportFolderError ? badRequest(error.message) : error;
    });
    return (await transient.scan(folder)).map((book) => toTransientBookDto(book));
  });

  app.post('/api/v1/transient-books/:id/analyze', { schema: { params: IdParams } }, async (request) => {
    requireRole(request, 'ADMIN');
    const book = await transient.analyse(request.params.id);
    if (!book) throw notFound();
    return toTransientBookDto(book, await matchImportMetadata(ctx, book, workFor(request)));
  });

  app.get('/api/v1/transient-books/:id/pages/:n', { schema: { params: Type.Object({ id: Type.String(), n: Type.String() }) } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const number = pageNumberParam(request.params.n);
    const book = transient.get(request.params.id);
    if (!book) throw notFound();
    const page = await openTransientPage(ctx, book, number, workFor(request));
    if (!page) throw badRequest('Page number does not exist');
    return reply.type(page.mediaType).send(page.stream);
  });

  // BookImportBatchDto: books defaults to an empty list when absent (a null is refused).
  const BookImportBatch = Type.Object({
    books: Type.Optional(Batch(
      Type.Object({
        sourceFile: PathText(),
        seriesId: Type.String(),
        upgradeBookId: Type.Optional(Nullable(Type.String())),
        destinationName: Type.Optional(Nullable(Type.String())),
      }),
    )),
    copyMode: StringEnum([...COPY_MODES]),
  });

  app.post('/api/v1/books/import', { config: { role: 'ADMIN' }, schema: { body: BookImportBatch } }, async (request, reply) => {
    const { books = [], copyMode } = request.body;
    // Each file is its own task (import-task.ts), announced by a BookImported event.
    for (const book of books) submitBookImport(ctx, book, copyMode);
    return reply.code(202).send();
  });
}
