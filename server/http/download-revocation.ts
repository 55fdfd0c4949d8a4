import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FolioContext } from '../domain/context.ts';
import { apiKeyIdOf } from './auth/login-methods.ts';

/**
 * Ends a download's connection once its user's sessions are ended — the user deleted, their roles
 * or restrictions changed, their password reset by an admin (user-routes.ts SessionExpired) — or
 * once the API key it was made with is deleted (api-key-routes.ts ApiKeyDeleted), so a file they
 * may no longer have stops flowing instead of running to its last byte, as event streams already
 * end (sse-routes.ts). Access is checked when a download starts; a whole series or read list takes
 * a slow client hours. A client that may still download resumes with a Range request.
 */
export function endDownloadWhenAccessEnds(ctx: FolioContext, request: FastifyRequest, reply: FastifyReply, userId: string): void {
  const apiKeyId = apiKeyIdOf(request);
  const unsubscribe = ctx.events.subscribe((event) => {
    if (event.name === 'SessionExpired' && event.userId === userId) reply.raw.destroy();
    else if (event.name === 'ApiKeyDeleted' && apiKeyId !== undefined && event.data.apiKeyId === apiKeyId) reply.raw.destroy();
  });
  reply.raw.once('close', unsubscribe);
}
