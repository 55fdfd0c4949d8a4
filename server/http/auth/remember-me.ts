import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerSettingRepository } from '../../db/server-setting-repository.ts';
import type { User } from '../../db/user-repository.ts';
import { serverSecret } from './server-secrets.ts';
import { cookiePath } from '../base-path.ts';

/**
 * Remember-me (REFERENCE §1.5): a long-lived cookie holding `userId:expiry:signature`, signed with
 * an HMAC key kept in server_setting. The signature also covers the user's password hash, so a
 * password change invalidates the user's cookies; rotating the key invalidates everyone's. It also
 * covers a per-user generation, renewed when the user logs out (revokeRememberMe): a cookie copied
 * before logging out no longer logs in. Logging out thus forgets every device's remember-me of that
 * account (their open sessions stay).
 * New cookies live for the rememberMeDurationDays server setting (365 days by default), which the
 * caller passes in.
 */
export const REMEMBER_ME_COOKIE = 'komga-remember-me';
const KEY_SETTING = 'remember_me_key';

/** `remember-me` query/form values that ask for the cookie, as Spring accepts them. */
export function wantsRememberMe(value: unknown): boolean {
  const text = String(Array.isArray(value) ? value[0] : (value ?? '')).toLowerCase();
  return text === 'true' || text === 'on' || text === 'yes' || text === '1';
}

const signingKey = (settings: ServerSettingRepository): Buffer => serverSecret(settings, KEY_SETTING);

/** Replaces the signing key: every remember-me cookie issued so far stops working. */
export function rotateRememberMeKey(settings: ServerSettingRepository): void {
  settings.set(KEY_SETTING, randomBytes(32).toString('hex'));
}

const generationKey = (userId: string) => `remember_me_generation:${userId}`;

/** Every remember-me cookie issued so far to this user stops working. */
export function revokeRememberMe(settings: ServerSettingRepository, userId: string): void {
  settings.set(generationKey(userId), randomBytes(16).toString('hex'));
}

/** The user's logout generation ('' until their first logout); basic-session.ts derives from it too. */
export function logoutGeneration(settings: ServerSettingRepository, userId: string): string {
  return settings.get(generationKey(userId)) ?? '';
}

function signature(settings: ServerSettingRepository, userId: string, expires: number, passwordHash: string): Buffer {
  const passwordDigest = createHash('sha256').update(passwordHash).digest('hex');
  const generation = logoutGeneration(settings, userId);
  return createHmac('sha256', signingKey(settings)).update(`${userId}:${expires}:${passwordDigest}${generation ? `:${generation}` : ''}`).digest();
}

export function issueRememberMeToken(settings: ServerSettingRepository, user: User, lifetimeDays: number, now = Date.now()): string {
  const expires = now + lifetimeDays * 24 * 3600 * 1000;
  const sig = signature(settings, user.id, expires, user.passwordHash).toString('base64url');
  return Buffer.from(`${user.id}:${expires}:${sig}`).toString('base64url');
}

export type RememberMeCheck = { user: User } | { error: string; userId?: string };

/** Checks a cookie value; `findUser` looks the user up by id. */
export function checkRememberMeToken(
  settings: ServerSettingRepository,
  token: string,
  findUser: (id: string) => User | undefined,
  now = Date.now(),
): RememberMeCheck {
  const parts = Buffer.from(token, 'base64url').toString('utf8').split(':');
  if (parts.length !== 3) return { error: 'Invalid remember-me token' };
  const [userId = '', expiresText = '', sigText = ''] = parts;
  const expires = Number(expiresText);
  if (!Number.isSafeInteger(expires)) return { error: 'Invalid remember-me token' };
  if (expires < now) return { error: 'Remember-me token has expired', userId };
  const user = findUser(userId);
  if (!user) return { error: 'Invalid remember-me token' };
  const expected = signature(settings, user.id, expires, user.passwordHash);
  const given = Buffer.from(sigText, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { error: 'Invalid remember-me token signature', userId };
  }
  return { user };
}

/** Sets the cookie to last exactly as long as the token it carries is valid. */
export function setRememberMeCookie(request: FastifyRequest, reply: FastifyReply, token: string, now = Date.now()): void {
  const expires = Number(Buffer.from(token, 'base64url').toString('utf8').split(':')[1]);
  reply.setCookie(REMEMBER_ME_COOKIE, token, {
    path: cookiePath(request),
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: Math.max(0, Math.ceil((expires - now) / 1000)),
  });
}

export function clearRememberMeCookie(reply: FastifyReply): void {
  reply.clearCookie(REMEMBER_ME_COOKIE, { path: cookiePath(reply.request), httpOnly: true });
}
