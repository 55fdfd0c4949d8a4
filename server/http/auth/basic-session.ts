import { createHash, createHmac } from 'node:crypto';
import type { ServerSettingRepository } from '../../db/server-setting-repository.ts';
import type { User } from '../../db/user-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { logoutGeneration } from './remember-me.ts';
import { serverSecret } from './server-secrets.ts';
import { openDerivedSession } from './sessions.ts';

const KEY_SETTING = 'basic_session_key';


/**
 * The session a Basic-authenticated API call opens, as Komga opens one for every such call: Mihon's
 * Komga tracker has no credentials of its own and rides on the KOMGA-SESSION cookie the Komga
 * extension's calls left in the app's cookie jar. The id is derived (an HMAC, with a key kept in
 * server_setting, of the user, a digest of their password hash and their logout generation) rather
 * than random, so a script that sends Basic on every call and never keeps the cookie reuses one
 * session instead of opening a new one each time. A password change or a logout derives another
 * id, so a copied cookie does not come back to life with the next Basic call.
 */
export function basicSessionId(settings: ServerSettingRepository, user: User): string {
  const passwordDigest = createHash('sha256').update(user.passwordHash).digest('hex');
  const generation = logoutGeneration(settings, user.id);
  return createHmac('sha256', serverSecret(settings, KEY_SETTING)).update(`${user.id}:${passwordDigest}:${generation}`).digest('base64url');
}

/** Opens (or finds open) the user's Basic-call session: see basicSessionId. */
export function openBasicSession(ctx: FolioContext, user: User): { id: string; idHash: string } {
  return openDerivedSession(ctx.repos.sessions, user.id, basicSessionId(ctx.repos.serverSettings, user));
}
