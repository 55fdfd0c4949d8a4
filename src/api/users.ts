import { ApiError, getJson, sendJson } from './http.ts';
import type {
  ApiKeyDto,
  AuthenticationActivityDto,
  Page,
  UserCreationDto,
  UserDto,
  UserUpdateDto,
} from './types.ts';

/** Users API (/api/v2/users): admin management, own password, activity, API keys. */

const userPath = (id: string) => `/api/v2/users/${encodeURIComponent(id)}`;

export function getUsers(): Promise<UserDto[]> {
  return getJson('/api/v2/users', 'retrieve_users');
}

export function createUser(user: UserCreationDto): Promise<UserDto> {
  return sendJson('POST', '/api/v2/users', 'add_user', { json: user });
}

export async function updateUser(id: string, update: UserUpdateDto): Promise<void> {
  await sendJson('PATCH', userPath(id), 'update_user', { json: update });
}

export async function deleteUser(id: string): Promise<void> {
  await sendJson('DELETE', userPath(id), 'delete_user');
}

export async function updateUserPassword(id: string, password: string): Promise<void> {
  await sendJson('PATCH', `${userPath(id)}/password`, 'update_password', { json: { password } });
}

/**
 * `currentPassword` is Folio's (Komga has none and ignores it): Folio refuses the change without it,
 * unless the session signed in in the last ten minutes.
 */
export async function updateMyPassword(password: string, currentPassword: string): Promise<void> {
  await sendJson('PATCH', '/api/v2/users/me/password', 'update_password', { json: { password, currentPassword } });
}

export interface ActivityQuery {
  page: number;
  size: number;
  sort?: string;
}

export function getMyAuthenticationActivity(query: ActivityQuery, signal?: AbortSignal): Promise<Page<AuthenticationActivityDto>> {
  return getJson('/api/v2/users/me/authentication-activity', 'retrieve_authentication_activity', {
    query: { page: query.page, size: query.size, sort: query.sort ?? 'dateTime,desc' },
    ...(signal ? { signal } : {}),
  });
}

export function getAuthenticationActivity(query: ActivityQuery, signal?: AbortSignal): Promise<Page<AuthenticationActivityDto>> {
  return getJson('/api/v2/users/authentication-activity', 'retrieve_authentication_activity', {
    query: { page: query.page, size: query.size, sort: query.sort ?? 'dateTime,desc' },
    ...(signal ? { signal } : {}),
  });
}

/** The user's latest login attempt, or null when there has been none (the server answers 404). */
async function getLatestActivity(id: string, signal?: AbortSignal): Promise<AuthenticationActivityDto | null> {
  try {
    return await getJson(`${userPath(id)}/authentication-activity/latest`, 'retrieve_authentication_activity', signal ? { signal } : {});
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** How many of everyone's newest login attempts the user list reads in one call. */
export const RECENT_ACTIVITY_PAGE = 200;

/**
 * Each user's latest login attempt, null for one who has none (admin). Asking
 * `/users/{id}/authentication-activity/latest` of a user who never logged in answers 404, as
 * Komga's does, and a browser shows every 404 as an error in its console: a new user's list
 * would show one per account made and not yet used. Everyone's newest attempts (one page) give
 * most users' latest, and all of them when the whole history fits in that page, so only a user
 * missing from a longer history is asked for one by one.
 */
export async function getLatestActivities(userIds: string[], signal?: AbortSignal): Promise<(AuthenticationActivityDto | null)[]> {
  const recent = await getAuthenticationActivity({ page: 0, size: RECENT_ACTIVITY_PAGE, sort: 'dateTime,desc' }, signal);
  const latest = new Map<string, AuthenticationActivityDto>();
  for (const attempt of recent.content) {
    if (attempt.userId !== null && !latest.has(attempt.userId)) latest.set(attempt.userId, attempt);
  }
  const wholeHistory = recent.totalElements <= recent.content.length;
  return Promise.all(userIds.map((id) => latest.get(id) ?? (wholeHistory ? null : getLatestActivity(id, signal))));
}

export function getApiKeys(): Promise<ApiKeyDto[]> {
  return getJson('/api/v2/users/me/api-keys', 'retrieve_api_keys');
}

/** The answer carries the full key: the only time it is shown. */
export function createApiKey(comment: string): Promise<ApiKeyDto> {
  return sendJson('POST', '/api/v2/users/me/api-keys', 'create_api_key', { json: { comment } });
}

export async function deleteApiKey(id: string): Promise<void> {
  await sendJson('DELETE', `/api/v2/users/me/api-keys/${encodeURIComponent(id)}`, 'delete_api_key');
}

export interface OAuth2Provider {
  name: string;
  registrationId: string;
}

/** OAuth2 providers configured on the server (anonymous call; empty when none). */
export function getOAuth2Providers(): Promise<OAuth2Provider[]> {
  return getJson('/api/v1/oauth2/providers', 'retrieve_oauth2_providers');
}
