import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifyMultipart from '@fastify/multipart';
import type { StoredThumbnail } from '../../db/thumbnail-repository.ts';
import type { User } from '../../db/user-repository.ts';
import { canSeeBook, canSeeCollection, canSeeReadList, canSeeSeries } from '../../domain/content-restrictions.ts';
import { isAdmin } from '../dto/user-dto.ts';
import type { FolioContext } from '../../domain/context.ts';
import {
  PosterError,
  type PosterOwner,
  deletePoster,
  posterRepository,
  selectPoster,
  storeUploadedPoster,
} from '../../domain/posters/poster-uploads.ts';
import { openPoster, thumbnailFilePath } from '../../domain/posters/thumbnail-files.ts';
import { posterVersion } from '../../domain/posters/chosen-poster.ts';
import { OutsideLibraryError } from '../../domain/library/library-paths.ts';
import { isMissingFile, rethrowUnless } from '../../fs-errors.ts';
import { badRequest, notFound } from '../errors.ts';
import { caller, requireRole } from '../guards.ts';
import { sendFileBody } from '../send-file.ts';
import { type FolioApp, IdParams, Type } from '../schemas.ts';

const PosterParams = Type.Object({ id: Type.String(), tid: Type.String() });

/** Largest poster upload accepted. */
export const MAX_POSTER_UPLOAD_BYTES = 10 * 1024 * 1024;

const OWNER_KEYS: Record<PosterOwner, string> = {
  books: 'bookId',
  series: 'seriesId',
  collections: 'collectionId',
  readlists: 'readListId',
};

function toThumbnailDto(kind: PosterOwner, t: StoredThumbnail) {
  return {
    id: t.id,
    [OWNER_KEYS[kind]]: t.ownerId,
    type: t.type,
    selected: t.selected,
    mediaType: t.mediaType,
    fileSize: t.fileSize,
    width: t.width,
    height: t.height,
  };
}

/**
 * The parts of a poster upload, read to the end: the file and the `selected` field, whichever
 * comes first. komga-webui and komga-client (Komelia, komf) send the file first; a form field
 * after a file is only parsed once the file is read, so looking at the fields when the file
 * arrives missed `selected=false` on any upload larger than the first chunk.
 */
async function readPosterUpload(request: FastifyRequest): Promise<{ bytes?: Buffer; selected?: string }> {
  const upload: { bytes?: Buffer; selected?: string } = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') upload.bytes = await part.toBuffer();
    else if (part.fieldname === 'selected') upload.selected = String(part.value);
  }
  return upload;
}

/**
 * Poster management for books, series, collections and read lists (SPEC: thumbnails can be
 * listed, uploaded with a selected flag, selected or deleted). Reads need access to the owner,
 * writes need ADMIN.
 */
export async function registerThumbnailRoutes(app: FolioApp, ctx: FolioContext): Promise<void> {
  const visible = (kind: PosterOwner, id: string, user: User): boolean => {
    switch (kind) {
      case 'books':
        return canSeeBook(ctx.repos, user, id);
      case 'series':
        return canSeeSeries(ctx.repos, user, id);
      case 'collections': {
        const collection = ctx.repos.collections.findById(id);
        return collection !== undefined && canSeeCollection(ctx.repos, user, isAdmin(user), collection.seriesIds);
      }
      case 'readlists': {
        const list = ctx.repos.readLists.findById(id);
        return list !== undefined && canSeeReadList(ctx.repos, user, isAdmin(user), list.bookIds);
      }
    }
  };
  const ownerFor = (kind: PosterOwner, request: FastifyRequest & { params: { id: string } }) => {
    if (!visible(kind, request.params.id, caller(request))) throw notFound();
    return request.params.id;
  };

  // Multipart parsing only in this scope, so other modules may register their own.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    await scope.register(fastifyMultipart, { limits: { fileSize: MAX_POSTER_UPLOAD_BYTES, files: 1 } });

    for (const kind of ['books', 'series', 'collections', 'readlists'] as const) {
      const base = `/api/v1/${kind}/:id/thumbnails`;

      scope.get(base, { schema: { params: IdParams } }, async (request) => {
        const owner = ownerFor(kind, request);
        return posterRepository(ctx, kind).list(owner).map((t) => toThumbnailDto(kind, t));
      });

      // Through the small-file cache, as selected posters are: length, ETag and 304 on a match (Komga's
      // shallow ETag covers these answers too), and a sidecar only read inside its library.
      scope.get(`${base}/:tid`, { schema: { params: PosterParams } }, async (request, reply) => {
        const owner = ownerFor(kind, request);
        const row = posterRepository(ctx, kind).find(owner, request.params.tid);
        if (!row) throw notFound();
        const path = thumbnailFilePath(ctx, row);
        const openSidecar = openPoster(ctx, row);
        // Local artwork now leading out of its library is never served (sendFileBody answers 404): said in the log.
        const open = openSidecar && (async () => {
          try {
            return await openSidecar();
          } catch (error) {
            if (error instanceof OutsideLibraryError) ctx.log(`local artwork not served: ${path} leads out of its library`, error);
            throw error;
          }
        });
        try {
          return await sendFileBody(reply, path, row.mediaType, posterVersion(row), open);
        } catch (error) {
          // Gone since it was listed: not found, as before any poster was read.
          rethrowUnless(error, isMissingFile);
          throw notFound();
        }
      });

      // Multipart (file + optional selected field): read from the stream, so no JSON body schema.
      scope.post(base, { schema: { params: IdParams, querystring: Type.Object({ selected: Type.Optional(Type.Boolean()) }) } }, async (request) => {
        requireRole(request, 'ADMIN');
        const owner = ownerFor(kind, request);
        const upload = await readPosterUpload(request);
        if (!upload.bytes) throw badRequest('A file is required');
        const bytes = upload.bytes;
        const fieldSelected = upload.selected;
        const select = request.query.selected ?? (fieldSelected === undefined ? true : fieldSelected.toLowerCase() === 'true');
        try {
          return toThumbnailDto(kind, await storeUploadedPoster(ctx, kind, owner, bytes, select));
        } catch (error) {
          if (error instanceof PosterError) throw badRequest(error.message);
          throw error;
        }
      });

      scope.put(`${base}/:tid/selected`, { schema: { params: PosterParams } }, async (request, reply) => {
        requireRole(request, 'ADMIN');
        const owner = ownerFor(kind, request);
        if (!selectPoster(ctx, kind, owner, request.params.tid)) throw notFound();
        return reply.code(202).send();
      });

      scope.delete(`${base}/:tid`, { schema: { params: PosterParams } }, async (request, reply) => {
        requireRole(request, 'ADMIN');
        const owner = ownerFor(kind, request);
        if (!(await deletePoster(ctx, kind, owner, request.params.tid))) throw notFound();
        return reply.code(202).send();
      });
    }
  });
}
