import type { FastifyRequest } from 'fastify';
import type { AuthenticationActivity } from '../../db/authentication-activity-repository.ts';
import type { FolioContext } from '../../domain/context.ts';

/** Records one login attempt with the caller's address and user agent (REFERENCE §1.3). */
export function recordLoginAttempt(
  ctx: FolioContext,
  request: FastifyRequest,
  attempt: Partial<AuthenticationActivity> & Pick<AuthenticationActivity, 'success' | 'source'>,
): void {
  try {
    ctx.repos.authActivity.insert({
      userId: null,
      email: null,
      apiKeyId: null,
      apiKeyComment: null,
      error: null,
      ip: request.ip ?? null,
      userAgent: headerText(request.headers['user-agent']),
      dateTime: Date.now(),
      ...attempt,
    });
  } catch (error) {
    // Losing an audit row must not turn a login into a 500.
    ctx.log('could not record authentication activity', error);
  }
}

function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, 500) : null;
}
