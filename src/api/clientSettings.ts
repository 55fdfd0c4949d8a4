import { getJson, sendJson } from './http.ts';
import type { UserClientSettings } from './types.ts';

/*
 * Client settings kept by the server for the signed-in user (Komga's `client-settings/user`): values
 * are strings (structured ones JSON-encoded), one key per setting, saved by a PATCH of the keys that
 * change.
 */

export function getUserClientSettings(): Promise<UserClientSettings> {
  return getJson('/api/v1/client-settings/user/list', 'retrieve_user_settings');
}

export async function saveUserClientSettings(values: Record<string, string>): Promise<void> {
  const json = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]));
  await sendJson('PATCH', '/api/v1/client-settings/user', 'save_user_settings', { json });
}
