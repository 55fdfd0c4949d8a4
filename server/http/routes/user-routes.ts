import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../../db/ids.ts';
import type { User } from '../../db/user-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { checkPassword, isApiKeyRequest } from '../auth/login-methods.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { hashPassword } from '../auth/passwords.ts';
import { openBasicSession } from '../auth/basic-session.ts';
import { SESSION_COOKIE, hashSessionId, presentedSessionId, signedInRecently } from '../auth/sessions.ts';
import { badRequest, errorBody, forbidden, notFound } from '../errors.ts';
import { cookiePath } from '../base-path.ts';
import { caller, requireRole } from '../guards.ts';
import { isAdmin, toActivityDto, toUserDto } from '../dto/user-dto.ts';
import { parsePaging, toPage } from '../paging.ts';
import { type RawQuery, stringParam } from '../query-params.ts';
import { type FolioApp, IdParams, NamedQuery, PAGING_PARAMS, Type, fieldViolations } from '../schemas.ts';
import { type PasswordChange, PasswordUpdate, UserCreation, UserUpdate, applyRestrictions, restrictionsChanged } from './user-schemas.ts';

/** Password changes are refused to API-key callers: a leaked key must not take over the account. */
function requireInteractive(request: FastifyRequest): void {
  if (isApiKeyRequest(request)) throw forbidden('Not allowed with an API key');
}

/**
 * Users API (REFERENCE §1.9–1.10, §2.1): admin user management, own password, authentication
 * activity, and the X-Auth-Token → cookie exchange.
 */
export function registerUserRoutes(app: FolioApp, ctx: FolioContext, throttle: LoginThrottle): void {
  const activity = ctx.repos.authActivity;
  const libraryExists = (id: string) => ctx.repos.libraries.findById(id) !== undefined;

  /** Ends every session of the user and tells their open clients (SSE SessionExpired). */
  const expireSessions = (userId: string) => {
    ctx.repos.sessions.deleteForUser(userId);
    ctx.events.emit({ name: 'SessionExpired', data: { userId }, userId });
  };

  /** An admin acting on another user by id; acting on oneself this way is forbidden. */
  const otherUser = (request: FastifyRequest & { params: { id: string } }): User => {
    const admin = requireRole(request, 'ADMIN');
    if (admin.id === request.params.id) throw forbidden('Cannot modify your own user this way');
    const user = ctx.repos.users.findById(request.params.id);
    if (!user) throw notFound();
    return user;
  };

  app.get('/api/v2/users', async (request) => {
    requireRole(request, 'ADMIN');
    return ctx.repos.users.findAll().map(toUserDto);
  });

  app.post('/api/v2/users', { config: { role: 'ADMIN' }, schema: { body: UserCreation } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const email = request.body.email.trim();
    const now = Date.now();
    const user: User = {
      id: newId(now),
      email,
      passwordHash: '',
      roles: [],
      sharedAllLibraries: true,
      sharedLibraryIds: [],
      labelsAllow: [],
      labelsExclude: [],
      ageRestriction: null,
      ageRestrictionType: null,
      created: now,
      lastModified: now,
    };
    applyRestrictions(request.body, user, libraryExists);
    // Named as a refused `email` field (Komga's violations shape), so a client can say so on that
    // field in its own language rather than show this English sentence.
    if (ctx.repos.users.findByEmail(email)) throw emailTaken();
    user.passwordHash = await hashPassword(request.body.password);
    try {
      ctx.repos.users.insert(user);
    } catch (error) {
      // Two concurrent creations with one email: the unique index decides.
      if (String(error).includes('UNIQUE')) throw emailTaken();
      throw error;
    }
    return reply.code(201).send(toUserDto(user));
  });

  app.patch('/api/v2/users/:id', { config: { role: 'ADMIN' }, schema: { params: IdParams, body: UserUpdate } }, async (request, reply) => {
    const before = otherUser(request);
    const after: User = { ...before, roles: [...before.roles] };
    applyRestrictions(request.body, after, libraryExists);
    if (restrictionsChanged(before, after)) {
      after.lastModified = Date.now();
      ctx.repos.users.update(after);
      expireSessions(after.id);
    }
    return reply.code(204).send();
  });

  app.delete('/api/v2/users/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const user = otherUser(request);
    expireSessions(user.id);
    ctx.repos.users.delete(user.id);
    throttle.forgetAccount(user.email);
    return reply.code(204).send();
  });

  /**
   * One's own password. Unlike Komga, the current password is required: as `currentPassword` in the
   * body, or implied when the request itself was authenticated with it (Basic, as Komga's apps do).
   * Every other session of the user ends (their remember-me cookies die with the old password hash);
   * the caller's own session stays.
   */
  const changeOwnPassword = async (request: FastifyRequest, reply: FastifyReply, user: User, body: PasswordChange) => {
    requireInteractive(request);
    // Basic carries the password itself; a session just opened by signing in is proof enough too.
    if (request.authenticatedBy !== 'basic' && !signedInRecently(ctx.repos.sessions, request.sessionIdHash)) {
      const current = body.currentPassword;
      // A guess like any other: whoever holds a session (a stolen cookie, an unattended browser)
      // must not get an unthrottled, unrecorded password oracle. Queued per address and account,
      // slowed after failures, recorded as authentication activity, a flood answered 429.
      const proven = typeof current === 'string' ? await checkPassword(ctx, throttle, request, user.email, current, { freshLane: false }) : undefined;
      if (proven?.id !== user.id) {
        const violations = [{ fieldName: 'currentPassword', message: 'must be your current password' }];
        return reply
          .code(400)
          .type('application/json')
          .send({ ...errorBody(400, 'Validation failed: currentPassword must be your current password', request.originalUrl), violations });
      }
    }
    ctx.repos.users.update({ ...user, passwordHash: await hashPassword(body.password), lastModified: Date.now() });
    ctx.repos.sessions.deleteForUserExcept(user.id, request.sessionIdHash);
    return reply.code(204).send();
  };

  app.patch('/api/v2/users/me/password', { schema: { body: PasswordUpdate } }, async (request, reply) =>
    changeOwnPassword(request, reply, caller(request), request.body),
  );

  /**
   * Another user's password (admins), or one's own by id: Komga lets any user here for their own id
   * (komga-webui's password dialog calls it for the signed-in user), and then it is the same
   * change as /me/password. Who may call is settled before the body is read (403 before 400).
   */
  const ownIdOrAdmin = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    if (caller(request).id !== request.params.id) requireRole(request, 'ADMIN');
  };
  app.patch('/api/v2/users/:id/password', { preValidation: ownIdOrAdmin, schema: { params: IdParams, body: PasswordUpdate } }, async (request, reply) => {
    const self = caller(request);
    if (self.id === request.params.id) return changeOwnPassword(request, reply, self, request.body);
    requireRole(request, 'ADMIN');
    requireInteractive(request);
    const user = ctx.repos.users.findById(request.params.id);
    if (!user) throw notFound();
    ctx.repos.users.update({ ...user, passwordHash: await hashPassword(request.body.password), lastModified: Date.now() });
    // Resetting someone else's password logs them out everywhere.
    expireSessions(user.id);
    return reply.code(204).send();
  });

  app.get('/api/v2/users/me/authentication-activity', { schema: { querystring: NamedQuery(PAGING_PARAMS) } }, async (request) => {
    const user = caller(request);
    const paging = parsePaging(request.query);
    const page = activity.page({
      user: { id: user.id, email: user.email },
      sort: paging.sort,
      limit: paging.unpaged ? null : paging.size,
      offset: paging.page * paging.size,
    });
    return toPage(page.rows.map(toActivityDto), page.total, paging, page.sorted);
  });

  app.get('/api/v2/users/authentication-activity', { schema: { querystring: NamedQuery(PAGING_PARAMS) } }, async (request) => {
    requireRole(request, 'ADMIN');
    const paging = parsePaging(request.query);
    const page = activity.page({
      sort: paging.sort,
      limit: paging.unpaged ? null : paging.size,
      offset: paging.page * paging.size,
    });
    return toPage(page.rows.map(toActivityDto), page.total, paging, page.sorted);
  });

  app.get(
    '/api/v2/users/:id/authentication-activity/latest',
    { schema: { params: IdParams, querystring: Type.Object({ apikey_id: Type.Optional(Type.String()) }) } },
    async (request) => {
      const user = caller(request);
      if (user.id !== request.params.id && !isAdmin(user)) throw forbidden();
      const latest = activity.latest(request.params.id, request.query.apikey_id || undefined);
      if (!latest) throw notFound('No activity found');
      return toActivityDto(latest);
    },
  );

  /**
   * Writes the KOMGA-SESSION cookie of the caller's session (REFERENCE §1.4), as Komga writes that
   * of its HttpSession: the one named by X-Auth-Token or the cookie, or the session a Basic call
   * opens (web readers check credentials with Basic here). An API key opens no session: 400.
   */
  app.get('/api/v1/login/set-cookie', async (request, reply) => {
    const user = caller(request);
    const presented = presentedSessionId(request);
    const id =
      presented && request.sessionIdHash === hashSessionId(presented)
        ? presented
        : request.authenticatedBy === 'basic'
          ? openBasicSession(ctx, user).id
          : undefined;
    if (!id) throw badRequest('This call has no session to set a cookie for');
    reply.setCookie(SESSION_COOKIE, Buffer.from(id).toString('base64'), {
      path: cookiePath(request),
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    });
    return reply.code(204).send();
  });
}

const emailTaken = () => fieldViolations([{ fieldName: 'email', message: 'is already used by another user' }]);
