import { ApiError } from '../../api/http.ts';
import type { PageFailure } from '../../engine/PageLoader.ts';
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

/**
 * A page's refusal said by what it means to the reader, not by its status code (a worker that
 * fetched the page reports only the status, never the server's sentence): busy or out of time (503,
 * 429; the retry button may do), damaged in the file (422, Komga's ERR_1007), not found (404: the
 * file moved, or changed since the book was opened). Any other status is named as it is.
 */
function httpPageFailureText(status: number | undefined): string {
  if (status === 503 || status === 429) return t('server_messages.server_busy');
  if (status === 422) return t('reader.page_error_reasons.damaged');
  if (status === 404) return t('reader.page_error_reasons.gone');
  return t('reader.page_error_reasons.http', { status: status ?? '?' });
}

/**
 * Why a page could not be shown, in the reader's language (the technical message is for a tooltip).
 * Shared by the paged view and the webtoon strip, so a failed page reads the same in both.
 */
export function pageFailureText(failure: PageFailure): string {
  switch (failure.reason) {
    case 'http':
      // The book itself loaded, so its pages are refused to this user: say why, not just "403".
      if (isForbiddenStatus(failure.status)) return forbiddenText();
      return httpPageFailureText(failure.status);
    case 'network':
      return t('reader.page_error_reasons.network');
    case 'decode':
      return t('reader.page_error_reasons.decode');
    default:
      return t('reader.page_error_reasons.other');
  }
}

/**
 * Whether asking for the page again may bring it: not when the server refused it to this user (a
 * missing role or access), which only an administrator can change, so no "Try again" is offered.
 */
export function isPageRetryable(failure: PageFailure): boolean {
  return !(failure.reason === 'http' && isForbiddenStatus(failure.status));
}

/**
 * The book itself is not there for this user. Folio answers 404 both for a book that does not exist
 * and for one the user may not see (a library not shared, a content restriction), so as not to
 * reveal it. Only the book's own call counts: its page list also answers 404 for a book that exists
 * but is not analysed yet, and that message from the server says so.
 */
export function isBookNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.action === 'retrieve_book';
}

/** The message a reader shows when loading a book failed: a refusal or a missing book explained, else the error. */
export function describeReaderError(error: unknown): string {
  if (isForbidden(error)) return forbiddenText();
  if (isBookNotFound(error)) return t('reader.book_not_found');
  return describeError(error);
}
