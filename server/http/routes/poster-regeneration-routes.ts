import type { FastifyInstance } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { submitPosterRegeneration } from '../../domain/posters/poster-regeneration.ts';
import { requireRole } from '../guards.ts';
import { type FolioApp, Type } from '../schemas.ts';

/**
 * `PUT /api/v1/books/thumbnails?for_bigger_result_only=` (ADMIN, 202): redraws generated book
 * posters in the background, e.g. after the thumbnailSize setting changed (Komga's web UI offers
 * it right after that change).
 */
export function registerPosterRegenerationRoutes(app: FolioApp, ctx: FolioContext): void {
  app.put('/api/v1/books/thumbnails', { schema: { querystring: Type.Object({ for_bigger_result_only: Type.Optional(Type.Boolean()) }) } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    submitPosterRegeneration(ctx, request.query.for_bigger_result_only === true);
    return reply.code(202).send();
  });
}
