import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { NeedsPrimary } from '../../domain/needs-primary.ts';
import { LruMap } from '../../lru-map.ts';
import { requestPath } from '../request-path.ts';
import { addressKey } from './address-group.ts';
import { API_KEY_HEADER } from './api-keys.ts';
import { hashApiKey } from './api-keys.ts';
import { SESSION_INACTIVITY_MS, TOUCH_INTERVAL_MS, hashSessionId, presentedByHeader, presentedSessionId } from './sessions.ts';
import { isProtectedPath } from './authenticate.ts';

/**
 * Authentication in a serving process (README "Serving processes"): the primary's policy
 * (authenticate.ts), the part of it that only reads. A live session (cookie or X-Auth-Token) or a
 * known API key is looked up in the shared database, whose commits this process follows
 * (foreign-writes.ts), so a logout, a password change, a deleted key or user is refused on the very
 * next request, whichever process it reaches. Everything else is the primary's to decide, and the
 * request goes to it whole (NeedsPrimary): Basic credentials and remember-me cookies (argon2 and
 * the login throttle, one per server), a session to refresh or expire (a write), an unknown
 * credential or none (the primary counts the failure and answers 401 in its flavours), and an API
 * key's use due to be recorded as authentication activity (at most once a minute per key and
 * address and process, as the primary records it).
 */
export function createServingAuthHook(ctx: FolioContext) {
  const recentApiKeyUse = new LruMap<string, number>(10_000);
  return async function servingAuth(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    request.user = null;
    request.sessionIdHash = null;
    request.authenticatedBy = null;
    const path = requestPath(request);
    if (!isProtectedPath(path)) throw new NeedsPrimary('a request to an open path');
    const apiKey = request.headers[API_KEY_HEADER];
    if (apiKey !== undefined) {
      const found = apiKey ? ctx.repos.apiKeys.findByHash(hashApiKey(String(apiKey))) : undefined;
      const user = found && ctx.repos.users.findById(found.userId);
      if (!found || !user) throw new NeedsPrimary('an unknown API key');
      const seen = `${found.id}|${addressKey(request.ip ?? '')}`;
      const now = Date.now();
      if ((recentApiKeyUse.get(seen) ?? 0) < now - 60_000) {
        recentApiKeyUse.set(seen, now);
        throw new NeedsPrimary('an API key use to record');
      }
      request.user = user;
      request.authenticatedBy = 'apiKey';
      return;
    }
    if (request.headers.authorization !== undefined) throw new NeedsPrimary('an Authorization header');
    const sessionId = presentedSessionId(request);
    if (!sessionId) throw new NeedsPrimary('no session');
    const idHash = hashSessionId(sessionId);
    const session = ctx.repos.sessions.find(idHash);
    const now = Date.now();
    if (!session || now - session.lastAccess > TOUCH_INTERVAL_MS || now - session.lastAccess > SESSION_INACTIVITY_MS) {
      throw new NeedsPrimary('a session to look up, refresh or end');
    }
    const user = ctx.repos.users.findById(session.userId);
    if (!user) throw new NeedsPrimary('a session of nobody');
    request.user = user;
    request.sessionIdHash = idHash;
    request.authenticatedBy = presentedByHeader(request) ? 'header' : 'cookie';
  };
}
