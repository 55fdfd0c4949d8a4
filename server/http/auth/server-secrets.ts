import { randomBytes } from 'node:crypto';
import type { ServerSettingRepository } from '../../db/server-setting-repository.ts';

/**
 * A server-wide HMAC key kept in server_setting under `key`, made on first use (remember-me
 * signatures, Basic-call session ids). Of two first requests racing, whichever wrote first wins.
 */
export function serverSecret(settings: ServerSettingRepository, key: string): Buffer {
  const existing = settings.get(key);
  if (existing) return Buffer.from(existing, 'hex');
  settings.setIfAbsent(key, randomBytes(32).toString('hex'));
  return serverSecret(settings, key);
}
