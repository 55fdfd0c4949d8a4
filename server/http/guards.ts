import type { FastifyRequest } from 'fastify';
import type { User } from '../db/user-repository.ts';
import { HttpError, forbidden } from './errors.ts';
import { isAdmin } from './dto/user-dto.ts';

/** The authenticated caller of a protected route (the auth hook has already rejected anonymous ones). */
export function caller(request: FastifyRequest): User {
  if (!request.user) throw new HttpError(401, 'Unauthorized');
  return request.user;
}

type GuardedRole = 'ADMIN' | 'PAGE_STREAMING' | 'FILE_DOWNLOAD';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Role the route needs, checked before its request is validated (403 comes before 400). */
    role?: GuardedRole;
  }
}

/** preValidation hook: a route's `config.role`, so callers without it never learn what it accepts. */
export function checkRouteRole(request: FastifyRequest): void {
  const role = request.routeOptions.config.role;
  if (role) requireRole(request, role);
}

export function requireRole(request: FastifyRequest, role: GuardedRole): User {
  const user = caller(request);
  if (!user.roles.includes(role)) throw forbidden();
  return user;
}

/** Libraries the user may see (all unless restricted). */
export function canAccessLibrary(user: User, libraryId: string): boolean {
  return user.sharedAllLibraries || user.sharedLibraryIds.includes(libraryId);
}

export function callerIsAdmin(request: FastifyRequest): boolean {
  return isAdmin(caller(request));
}
