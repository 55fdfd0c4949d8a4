import type { FastifyRequest } from 'fastify';
import type { ApiKey } from '../../db/api-key-repository.ts';
import { newId } from '../../db/ids.ts';
import type { FolioContext } from '../../domain/context.ts';
import { STORE_LIMITS } from '../../domain/store-limits.ts';
import { REDACTED_KEY, hashApiKey, newApiKey } from '../auth/api-keys.ts';
import { isApiKeyRequest } from '../auth/login-methods.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { caller } from '../guards.ts';
import { toApiKeyDto } from '../dto/user-dto.ts';
import { type FolioApp, Type, withMessage } from '../schemas.ts';

/** The comment's bound is the store's (store-limits.ts), checked with the request's other bounds. */
const ApiKeyRequest = Type.Object({
  comment: withMessage(Type.String({ pattern: '\\S', maxLength: STORE_LIMITS.apiKeys.commentLength }), 'must not be blank'),
});

/** The caller's own API keys (REFERENCE §1.6). Managing keys needs a login, not another key. */
export function registerApiKeyRoutes(app: FolioApp, ctx: FolioContext): void {
  const { apiKeys } = ctx.repos;
  const interactiveCaller = (request: FastifyRequest) => {
    const user = caller(request);
    if (isApiKeyRequest(request)) throw forbidden('Not allowed with an API key');
    return user;
  };

  app.get('/api/v2/users/me/api-keys', async (request) => {
    const user = interactiveCaller(request);
    return apiKeys.findByUser(user.id).map((k) => toApiKeyDto(k, REDACTED_KEY));
  });

  app.post('/api/v2/users/me/api-keys', { schema: { body: ApiKeyRequest } }, async (request) => {
    const user = interactiveCaller(request);
    const trimmed = request.body.comment.trim();
    const limits = STORE_LIMITS.apiKeys;
    if (apiKeys.commentExists(user.id, trimmed)) throw badRequest('ERR_1034');
    if (apiKeys.findByUser(user.id).length >= limits.perUser) throw badRequest(`At most ${limits.perUser} API keys per user: delete one first`);
    const key = newApiKey();
    const now = Date.now();
    const record: ApiKey = { id: newId(now), userId: user.id, keyHash: hashApiKey(key), comment: trimmed, created: now, lastModified: now };
    try {
      apiKeys.insert(record);
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw badRequest('ERR_1034');
      throw error;
    }
    // The only time the key leaves the server.
    return toApiKeyDto(record, key);
  });

  app.delete('/api/v2/users/me/api-keys/:keyId', { schema: { params: Type.Object({ keyId: Type.String() }) } }, async (request, reply) => {
    const user = interactiveCaller(request);
    // A key that is not the caller's (or no longer exists) is a 404, as UserController.deleteApiKeyByKeyId answers.
    if (!apiKeys.delete(user.id, request.params.keyId)) throw notFound();
    // Downloads and event streams opened with the key end now (download-revocation.ts, sse-routes.ts).
    ctx.events.emit({ name: 'ApiKeyDeleted', data: { apiKeyId: request.params.keyId, userId: user.id }, userId: user.id, internal: true });
    return reply.code(204).send();
  });
}
