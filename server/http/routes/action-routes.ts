import type { FastifyInstance } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { liveBookIds, submitBooksAnalysis, submitEmptyTrash, submitMetadataRefreshes } from '../../domain/tasks/library-tasks.ts';
import { notFound } from '../errors.ts';
import { requireRole } from '../guards.ts';
import { IdParams, type FolioApp } from '../schemas.ts';

/**
 * Admin actions that queue background work and answer 202 at once (REFERENCE §2.2):
 * analyse / refresh metadata for a library, a series or a book; empty a library's trash;
 * cancel queued tasks.
 */
export function registerActionRoutes(app: FolioApp, ctx: FolioContext): void {
  type Scope = 'libraries' | 'series' | 'books';
  const booksOf = (scope: Scope, id: string): string[] => {
    if (scope === 'libraries') {
      if (!ctx.repos.libraries.findById(id)) throw notFound();
      return liveBookIds(ctx, id);
    }
    if (scope === 'series') {
      const series = ctx.repos.series.findById(id);
      if (!series) throw notFound();
      return liveBookIds(ctx, series.libraryId, series.id);
    }
    if (!ctx.repos.books.findById(id)) throw notFound();
    return [id];
  };

  for (const scope of ['libraries', 'series', 'books'] as const) {
    app.post(`/api/v1/${scope}/:id/analyze`, { schema: { params: IdParams } }, async (request, reply) => {
      requireRole(request, 'ADMIN');
      submitBooksAnalysis(ctx, booksOf(scope, request.params.id));
      return reply.code(202).send();
    });
    app.post(`/api/v1/${scope}/:id/metadata/refresh`, { schema: { params: IdParams } }, async (request, reply) => {
      requireRole(request, 'ADMIN');
      submitMetadataRefreshes(ctx, booksOf(scope, request.params.id));
      return reply.code(202).send();
    });
  }

  app.post('/api/v1/libraries/:id/empty-trash', { schema: { params: IdParams } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    if (!ctx.repos.libraries.findById(request.params.id)) throw notFound();
    submitEmptyTrash(ctx, request.params.id);
    return reply.code(202).send();
  });

  /** Drops queued (not running) tasks; answers the number dropped as a bare integer. */
  app.delete('/api/v1/tasks', async (request, reply) => {
    requireRole(request, 'ADMIN');
    return reply.type('application/json').send(String(ctx.tasks.cancelPending()));
  });
}
