import { ApiError } from '../../api/http.ts';
import { describeError, t } from '../i18n.ts';
import { session } from '../store/session.ts';

/** HTTP's answer to a signed-in caller the server will not serve (REFERENCE §1.9). */
const FORBIDDEN = 403;

/**
 * A call the server refused to this user (a missing role, or content not shared with them), as
 * opposed to a failure worth retrying or reporting as a fault.
 */
export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && isForbiddenStatus(error.status);
}

/** The same refusal seen on a page's bytes (fetched by a decode worker, which reports only the status). */
export function isForbiddenStatus(status: number | undefined): boolean {
  return status === FORBIDDEN;
}

/**
 * Why the server refuses this user the book, in their language. A 403 does not say which rule
 * refused it (REFERENCE §1.9: a missing role, or a library not shared / a restriction, as Komga
 * answers the latter): a user without PAGE_STREAMING is told about the role, named as the
 * administrator's roles dialog shows it; anyone else about the book's access.
 */
export function forbiddenText(): string {
  if (session.me && !session.me.roles.includes('PAGE_STREAMING')) {
    return t('reader.forbidden.no_page_streaming', { role: t('users_admin.role.PAGE_STREAMING') });
  }
  return t('reader.forbidden.book_not_shared');
}

/** The message a reader shows when loading a book failed: the refusal explained, else the error. */
export function describeReaderError(error: unknown): string {
  return isForbidden(error) ? forbiddenText() : describeError(error);
}
