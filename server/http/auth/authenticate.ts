import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../db/user-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { errorBody } from '../errors.ts';
import { AUTH_DOCUMENT_PATH, MEDIATYPE_OPDS_AUTHENTICATION, authenticationDocument, authenticationLinkHeader } from '../opds/opds2.ts';
import { publicBaseUrl } from '../base-path.ts';
import { requestPath } from '../request-path.ts';
import { API_KEY_HEADER } from './api-keys.ts';
import { openBasicSession } from './basic-session.ts';
import { recordLoginAttempt } from './login-activity.ts';
import { checkApiKey, checkPassword, loginFromRememberMe, offerRememberMe } from './login-methods.ts';
import { DEFAULT_THROTTLE, LoginThrottle } from './login-throttle.ts';
import { deliverSession, hashSessionId, openSession, presentedByHeader, presentedSessionId, resolveSession } from './sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the auth hook on protected paths. */
    user: User | null;
    /** Hash of the session in use, for logout. */
    sessionIdHash: string | null;
  }
}

const LOGIN_PATH = '/api/v2/users/me';
const PROTECTED_PREFIXES = ['/api/', '/sse/', '/opds/', '/actuator/'];
const ANONYMOUS_PATHS = new Set([
  '/actuator/health',
  '/api/v1/claim',
  '/api/v1/oauth2/providers',
  '/api/v1/client-settings/global/list',
  '/api/logout',
  // OPDS 2 readers fetch the authentication document before they have a login (opds2.ts).
  AUTH_DOCUMENT_PATH,
]);
// Reader fonts are an open path (REFERENCE §1.1; Folio ships none, so they are all 404). EPUB
// resources, open in Komga for fonts, need a signed-in caller in Folio (README "Security").
const ANONYMOUS_PATTERNS = [/^\/api\/v1\/fonts\/resource\//];

export function isProtectedPath(path: string): boolean {
  return (
    PROTECTED_PREFIXES.some((p) => path.startsWith(p)) && !ANONYMOUS_PATHS.has(path) && !ANONYMOUS_PATTERNS.some((p) => p.test(path))
  );
}

/**
 * Verified Basic credentials are remembered briefly (keyed by a hash of the header) so clients
 * that send Basic auth on every request do not pay an argon2 verification each time.
 */
class BasicAuthCache {
  private readonly entries = new Map<string, { userId: string; passwordHash: string; expires: number }>();
  /** The cached user, unless their password changed since (then the old password must fail). */
  get(key: string, findUser: (id: string) => User | undefined): User | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.expires < Date.now()) return undefined;
    const user = findUser(hit.userId);
    if (!user || user.passwordHash !== hit.passwordHash) {
      this.entries.delete(key);
      return undefined;
    }
    return user;
  }
  set(key: string, user: User): void {
    // Full: the oldest entry goes, not every one (which made every client's next call an argon2 check).
    if (!this.entries.has(key) && this.entries.size >= 1000) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(key);
    this.entries.set(key, { userId: user.id, passwordHash: user.passwordHash, expires: Date.now() + 5 * 60_000 });
  }
  clear(): void {
    this.entries.clear();
  }
}

/** Concurrent calls with one key share the first call's promise until it settles. */
class SingleFlight<T> {
  private readonly pending = new Map<string, Promise<T>>();
  has(key: string): boolean {
    return this.pending.has(key);
  }
  run(key: string, task: () => Promise<T>): Promise<T> {
    const running = this.pending.get(key);
    if (running) return running;
    const started = task().finally(() => this.pending.delete(key));
    this.pending.set(key, started);
    return started;
  }
}

export function createAuthHook(ctx: FolioContext) {
  const basicCache = new BasicAuthCache();
  const basicInFlight = new SingleFlight<User | undefined>();
  // Only e-mails of real accounts get counters keyed by their text (login-throttle.ts).
  const throttle = new LoginThrottle(DEFAULT_THROTTLE, (email) => ctx.repos.users.findByEmail(email) !== undefined);

  async function userFromBasic(header: string, request: FastifyRequest): Promise<User | undefined> {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    // Keyed by the credentials, not the header's text: base64 decoding skips spaces and stray
    // characters, so one password has endless spellings, and each would cost an argon2 check.
    const key = createHash('sha256').update(decoded).digest('hex');
    // An explicit login (the login path) is recorded as authentication activity each time; its
    // credentials are checked like any other Basic call's. Before, every login ran argon2 in the
    // address's and the account's queues (eight places each), so readers signing in at once from one
    // address (a household, an office behind one router, a reverse proxy not trusted for
    // X-Forwarded-For) were refused with 429 for a correct password once eight were waiting.
    const isLogin = requestPath(request) === LOGIN_PATH;
    const cached = basicCache.get(key, (id) => ctx.repos.users.findById(id));
    if (cached) {
      if (isLogin) recordLoginAttempt(ctx, request, { source: 'Password', success: true, userId: cached.id, email: cached.email });
      return cached;
    }
    const check = () => checkPassword(ctx, throttle, request, decoded.slice(0, colon), decoded.slice(colon + 1));
    // A native client opening with a burst of requests (covers, pages), or many sign-ins to one
    // account at once, send the same header each: one check answers them all instead of each taking
    // a place in the login queues. The check records its own attempt; a login that shared it
    // records its own success.
    const flight = `${key}|${request.ip}`;
    const joined = basicInFlight.has(flight);
    const user = await basicInFlight.run(flight, check);
    if (!user) return undefined;
    if (isLogin && joined) recordLoginAttempt(ctx, request, { source: 'Password', success: true, userId: user.id, email: user.email });
    basicCache.set(key, user);
    return user;
  }

  /** Sets request.user from the session (header or cookie) or Basic credentials. */
  async function identify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const sessionId = presentedSessionId(request);
    let sessionUserId: string | undefined;
    if (sessionId) {
      const idHash = hashSessionId(sessionId);
      sessionUserId = resolveSession(ctx.repos.sessions, idHash);
      if (sessionUserId) request.sessionIdHash = idHash;
    }
    const authorization = request.headers.authorization;
    if (authorization?.toLowerCase().startsWith('basic ')) {
      const user = await userFromBasic(authorization, request);
      if (!user) return;
      request.user = user;
      request.authenticatedBy = 'basic';
      if (sessionUserId === user.id) return;
      // Logging in (Basic on /api/v2/users/me) opens a new session unless the caller already has
      // one for this user. Any other Basic call opens the user's derived session (basic-session.ts),
      // as Komga opens one per call: Mihon's tracker lives on that cookie; scripts that drop it
      // reuse one session rather than piling them up.
      const login = requestPath(request) === LOGIN_PATH;
      const session = login ? openSession(ctx.repos.sessions, user.id) : openBasicSession(ctx, user);
      request.sessionIdHash = session.idHash;
      deliverSession(request, reply, session.id);
      if (login) offerRememberMe(ctx, request, reply, user);
      return;
    }
    if (sessionUserId) request.user = ctx.repos.users.findById(sessionUserId) ?? null;
    else request.user = (await loginFromRememberMe(ctx, throttle, request, reply)) ?? null;
    // The CSRF guard (csrf.ts) checks callers whose credentials the browser sends by itself.
    // Header only when the session came from a non-empty X-Auth-Token: an empty one (a client asking
    // for header mode) names no session, and the cookie beside it is what a browser sends by itself.
    if (request.user) request.authenticatedBy = sessionUserId && presentedByHeader(request) ? 'header' : 'cookie';
  }

  return {
    identify,
    /** Shared with the routes that record failed logins of their own (OAuth2 callbacks). */
    throttle,
    forgetCachedCredentials: () => basicCache.clear(),
    /** onRequest hook: identifies the caller and rejects anonymous calls to protected paths. */
    async hook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      request.user = null;
      request.sessionIdHash = null;
      request.authenticatedBy = null;
      const path = requestPath(request);
      if (!PROTECTED_PREFIXES.some((p) => path.startsWith(p))) return;
      // X-API-Key authenticates this one request, without a session; a bad key is a bare 401.
      const apiKey = request.headers[API_KEY_HEADER];
      if (apiKey !== undefined) {
        request.user = (await checkApiKey(ctx, throttle, request, String(apiKey))) ?? null;
        if (!request.user) return reply.code(401).send();
        request.authenticatedBy = 'apiKey';
        return;
      }
      await identify(request, reply);
      if (request.user || !isProtectedPath(path)) return;
      return sendUnauthorized(request, reply);
    },
  };
}

/**
 * 401 in Komga's flavours: under /opds/v2 the Basic challenge plus a `Link` to the OPDS
 * authentication document, which is also the body (OPDS 2 readers read it to show a login form);
 * elsewhere XHR callers (X-Requested-With: XMLHttpRequest) get an empty body and no
 * WWW-Authenticate, so browsers show no login popup; others get the Basic challenge.
 */
export function sendUnauthorized(request: FastifyRequest, reply: FastifyReply) {
  if (requestPath(request).startsWith('/opds/v2/')) {
    const origin = publicBaseUrl(request);
    return reply
      .code(401)
      .header('WWW-Authenticate', 'Basic realm="Realm"')
      .header('Link', authenticationLinkHeader(origin))
      .type(MEDIATYPE_OPDS_AUTHENTICATION)
      .send(JSON.stringify(authenticationDocument(origin)));
  }
  if (request.headers['x-requested-with'] === 'XMLHttpRequest') {
    return reply.code(401).send();
  }
  return reply
    .code(401)
    .header('WWW-Authenticate', 'Basic realm="Realm"')
    .type('application/json')
    .send(errorBody(401, 'Unauthorized', request.originalUrl));
}
