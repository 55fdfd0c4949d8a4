import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { readComicRackList } from '../../domain/metadata/comicrack-list.ts';
import { matchComicRackList } from '../../domain/metadata/comicrack-match.ts';
import { canSeeSeries } from '../../domain/content-restrictions.ts';
import type { FolioContext } from '../../domain/context.ts';
import { badRequest } from '../errors.ts';
import { requireRole } from '../guards.ts';
import type { FolioApp } from '../schemas.ts';

/** Largest reading-list file accepted for matching. */
export const MAX_READLIST_FILE_BYTES = 5 * 1024 * 1024;

/** `POST /api/v1/readlists/match/comicrack` (ADMIN): match a .cbl file's books against the library. */
export async function registerReadListImportRoutes(app: FolioApp, ctx: FolioContext): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: MAX_READLIST_FILE_BYTES, files: 1 } });
    scope.post('/api/v1/readlists/match/comicrack', async (request) => {
      const user = requireRole(request, 'ADMIN');
      const file = await request.file();
      if (!file) throw badRequest('A file is required');
      // An upload over the limit is cut by multipart and answered 413, before anything is parsed.
      const bytes = await file.toBuffer();
      if (file.file.truncated) throw new scope.multipartErrors.RequestFileTooLargeError();
      const list = await readComicRackList(bytes, file.filename);
      return matchComicRackList(ctx, list, (seriesId) => canSeeSeries(ctx.repos, user, seriesId));
    });
  });
}
