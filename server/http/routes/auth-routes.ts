import type { FastifyInstance } from 'fastify';
import { newId } from '../../db/ids.ts';
import type { FolioContext } from '../../domain/context.ts';
import { GRANTED_ROLES } from '../../db/stored-values.ts';
import { hashPassword } from '../auth/passwords.ts';
import { REMEMBER_ME_COOKIE, checkRememberMeToken, revokeRememberMe } from '../auth/remember-me.ts';
import { clearSessionCookies } from '../auth/sessions.ts';
import { badRequest } from '../errors.ts';
import { caller } from '../guards.ts';
import { toUserDto } from '../dto/user-dto.ts';
import { type FolioApp, Type } from '../schemas.ts';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Claim (first run), current user (= login with Basic) and logout (REFERENCE §1.2–1.7). */
export function registerAuthRoutes(app: FolioApp, ctx: FolioContext): void {
  app.get('/api/v1/claim', async () => ({ isClaimed: ctx.repos.users.count() > 0 }));

  app.post('/api/v1/claim', async (request) => {
    if (ctx.repos.users.count() > 0) throw badRequest('This server has already been claimed');
    const email = String(request.headers['x-komga-email'] ?? '').trim();
    const password = String(request.headers['x-komga-password'] ?? '');
    if (!EMAIL.test(email)) throw badRequest('Email must be a well-formed email address');
    if (!password.trim()) throw badRequest('Password must not be blank');
    const now = Date.now();
    const user = {
      id: newId(now),
      email,
      passwordHash: await hashPassword(password),
      roles: [...GRANTED_ROLES],
      sharedAllLibraries: true,
      sharedLibraryIds: [],
      labelsAllow: [],
      labelsExclude: [],
      ageRestriction: null,
      ageRestrictionType: null,
      created: now,
      lastModified: now,
    };
    // Re-check inside the write: two racing claims must not both succeed.
    const created = ctx.repos.inTransaction(() => {
      if (ctx.repos.users.count() > 0) return false;
      ctx.repos.users.insert(user);
      return true;
    });
    if (!created) throw badRequest('This server has already been claimed');
    return toUserDto(user);
  });

  // `remember-me` is read at sign-in (login-methods.ts); declared here so that Spring's refusal of a
  // value that is no boolean (400) holds here too.
  app.get('/api/v2/users/me', { schema: { querystring: Type.Object({ 'remember-me': Type.Optional(Type.Boolean()) }) } }, async (request) => toUserDto(caller(request)));

  const logout = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    if (request.sessionIdHash) ctx.repos.sessions.delete(request.sessionIdHash);
    // The remember-me cookie must not log back in once logged out, even if it was copied.
    const remembered = request.cookies[REMEMBER_ME_COOKIE];
    const rememberedUser = remembered ? checkRememberMeToken(ctx.repos.serverSettings, remembered, (id) => ctx.repos.users.findById(id)) : undefined;
    const userId = request.user?.id ?? (rememberedUser && 'user' in rememberedUser ? rememberedUser.user.id : undefined);
    if (userId) revokeRememberMe(ctx.repos.serverSettings, userId);
    clearSessionCookies(reply);
    return reply.code(204).send();
  };
  app.post('/api/logout', logout);
  app.get('/api/logout', { config: { getChangesState: true } }, logout);
}
