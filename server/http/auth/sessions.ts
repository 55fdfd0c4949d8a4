import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionRepository } from '../../db/session-repository.ts';
import { databaseUnavailable } from '../../db/database-unavailable.ts';
import { STORE_LIMITS } from '../../domain/store-limits.ts';
import { cookiePath } from '../base-path.ts';

export const SESSION_COOKIE = 'KOMGA-SESSION';
export const AUTH_TOKEN_HEADER = 'x-auth-token';
/** Sessions die after 7 days without use (Komga's server.servlet.session.timeout). */
export const SESSION_INACTIVITY_MS = 7 * 24 * 3600 * 1000;
// Avoid a database write on every request: refresh last access at most once a minute.
export const TOUCH_INTERVAL_MS = 60_000;

/** One-shot hashing (every request presents its session): half the time of a Hash object, the same digest. */
export const hashSessionId = (id: string) => hash('sha256', id, 'hex');

/** A new session id: 32 random bytes, base64url text. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Opens a session for the user (at most STORE_LIMITS.sessions.perUser stay open: the least recently
 * used end first) and returns its id, for deliverSession, and the hash it is stored under.
 */
export function openSession(sessions: SessionRepository, userId: string, source = 'Password', now = Date.now()): { id: string; idHash: string } {
  const id = newSessionId();
  const idHash = hashSessionId(id);
  sessions.insert(idHash, userId, now, source, STORE_LIMITS.sessions.perUser);
  return { id, idHash };
}

/**
 * Opens the session of a derived id unless it is open already (the same limit per user as
 * openSession); most calls find it open, and remembered, so they write nothing.
 */
export function openDerivedSession(sessions: SessionRepository, userId: string, id: string, now = Date.now()): { id: string; idHash: string } {
  const idHash = hashSessionId(id);
  if (resolveSession(sessions, idHash, now) !== userId) sessions.insert(idHash, userId, now, 'Password', STORE_LIMITS.sessions.perUser, true);
  return { id, idHash };
}

/** Header mode when the request carries X-Auth-Token, cookie mode otherwise (REFERENCE §1.4). */
export function usesHeaderMode(request: FastifyRequest): boolean {
  return request.headers[AUTH_TOKEN_HEADER] !== undefined;
}

/** Whether the request names its session in X-Auth-Token (not empty: an empty one only asks for header mode). */
export function presentedByHeader(request: FastifyRequest): boolean {
  const header = request.headers[AUTH_TOKEN_HEADER];
  return typeof header === 'string' && header !== '';
}

/** The session id the request presents, from X-Auth-Token or the base64 KOMGA-SESSION cookie. */
export function presentedSessionId(request: FastifyRequest): string | undefined {
  const header = request.headers[AUTH_TOKEN_HEADER];
  if (typeof header === 'string' && presentedByHeader(request)) return header;
  const cookie = request.cookies[SESSION_COOKIE];
  if (!cookie) return undefined;
  try {
    const decoded = Buffer.from(cookie, 'base64').toString('utf8');
    return decoded || undefined;
  } catch (error) {
    // A cookie that is not base64 text is no session of ours.
    if (!(error instanceof TypeError)) throw error;
    return undefined;
  }
}

/**
 * The user id of a live session (by the hash of its id), refreshing its inactivity clock; expired
 * sessions are removed.
 */
export function resolveSession(sessions: SessionRepository, idHash: string, now = Date.now()): string | undefined {
  const session = sessions.find(idHash);
  if (!session) return undefined;
  if (now - session.lastAccess > SESSION_INACTIVITY_MS) {
    sessions.delete(idHash);
    return undefined;
  }
  if (now - session.lastAccess > TOUCH_INTERVAL_MS) touchIfWritable(sessions, idHash, now);
  return session.userId;
}

/**
 * Refreshes a session's inactivity clock unless the database cannot be written now (another
 * process's lock, a full disk): the refresh is bookkeeping that a later request redoes, and must
 * not turn every signed-in request, reads included, into a 503 while the database is locked.
 */
function touchIfWritable(sessions: SessionRepository, idHash: string, now: number): void {
  try {
    sessions.touch(idHash, now);
  } catch (error) {
    if (!databaseUnavailable(error)) throw error;
  }
}

/**
 * How long after signing in (a password or a provider, not a remember-me cookie) a session may
 * change its own password without giving the current one. Komga asks for no current password and
 * its web client sends none; a session taken over later (a stolen cookie) still has to know it.
 */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

/** Whether the caller's session was opened by signing in within RECENT_SIGN_IN_MS. */
export function signedInRecently(sessions: SessionRepository, idHash: string | null | undefined, now = Date.now()): boolean {
  if (!idHash) return false;
  const session = sessions.find(idHash, now);
  return session !== undefined && session.source !== 'RememberMe' && now - session.created <= RECENT_SIGN_IN_MS;
}

/** Hands a new session id to the client the way it asked for (header or cookie). */
export function deliverSession(request: FastifyRequest, reply: FastifyReply, id: string): void {
  if (usesHeaderMode(request)) {
    reply.header('X-Auth-Token', id);
    return;
  }
  reply.setCookie(SESSION_COOKIE, Buffer.from(id).toString('base64'), {
    path: cookiePath(request),
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

export function clearSessionCookies(reply: FastifyReply): void {
  const path = cookiePath(reply.request);
  reply.clearCookie(SESSION_COOKIE, { path, httpOnly: true, sameSite: 'lax' });
  reply.clearCookie('komga-remember-me', { path, httpOnly: true });
}
