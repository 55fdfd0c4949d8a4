import type { FastifyInstance } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { sendRawPage } from '../page-responses.ts';
import { resolveStreamedPage } from '../streamed-page.ts';
import { type FolioApp, NamedQuery, Type } from '../schemas.ts';

/** `GET /api/v1/books/{id}/pages/{n}/raw` (REFERENCE §4): the page exactly as stored, no negotiation. */
export function registerRawPageRoute(app: FolioApp, ctx: FolioContext): void {
  app.get('/api/v1/books/:id/pages/:n/raw', { schema: { params: Type.Object({ id: Type.String(), n: Type.String() }), querystring: NamedQuery(['zero_based', 'v']) } }, async (request, reply) => {
      const resolved = resolveStreamedPage(ctx, request, reply);
      if (!resolved) return reply;
      return sendRawPage(ctx, reply, resolved.book, resolved.number);
    },
  );
}
