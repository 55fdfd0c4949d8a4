import type { ApiKeyDto, AuthenticationActivityDto, Role, UserDto } from '../../../src/api/types.ts';
import type { ApiKey } from '../../db/api-key-repository.ts';
import type { AuthenticationActivity } from '../../db/authentication-activity-repository.ts';
import type { User } from '../../db/user-repository.ts';
import { formatDateTime } from '../format.ts';

export const isAdmin = (user: User) => user.roles.includes('ADMIN');

/**
 * UserDto: roles always include the pseudo-role USER. ageRestriction is null when unset, as
 * Jackson writes Komga's nullable property: komga-client (Komelia) declares it without a default,
 * so kotlinx.serialization refuses a user without the key and Komelia could not sign in.
 */
export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    email: user.email,
    roles: [...user.roles, 'USER'] as Role[],
    sharedAllLibraries: user.sharedAllLibraries,
    sharedLibrariesIds: user.sharedAllLibraries ? [] : user.sharedLibraryIds,
    labelsAllow: user.labelsAllow,
    labelsExclude: user.labelsExclude,
    ageRestriction: user.ageRestriction !== null && user.ageRestrictionType ? { age: user.ageRestriction, restriction: user.ageRestrictionType } : null,
  };
}

/** One login attempt (AuthenticationActivityDto). */
export function toActivityDto(a: AuthenticationActivity): AuthenticationActivityDto {
  return {
    userId: a.userId,
    email: a.email,
    apiKeyId: a.apiKeyId,
    apiKeyComment: a.apiKeyComment,
    ip: a.ip,
    userAgent: a.userAgent,
    success: a.success,
    error: a.error,
    dateTime: formatDateTime(a.dateTime),
    source: a.source,
  };
}

/** ApiKeyDto; `shown` is the key itself right after creation, the redacted form afterwards. */
export const toApiKeyDto = (key: ApiKey, shown: string): ApiKeyDto => ({
  id: key.id,
  userId: key.userId,
  key: shown,
  comment: key.comment,
  createdDate: new Date(key.created).toISOString(),
  lastModifiedDate: new Date(key.lastModified).toISOString(),
});
