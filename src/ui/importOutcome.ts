import { IMPORT_CANCELLED_PREFIX, IMPORT_GIVEN_UP_PREFIX } from '../api/bookImport.ts';
import { t } from './i18n.ts';
import { explainMediaComment } from './mediaComment.ts';

/**
 * What the import screen says of a failed import, in the user's language: a Komga error code
 * (ERR_1018…) as its meaning, and Folio's own messages for what Komga never does (an import given
 * up after being put off for an hour, one cancelled before it ran), recognised by their start.
 */
export function explainImportFailure(message: string | undefined): string {
  if (message === undefined) return t('import_books.failed');
  if (message.startsWith(IMPORT_GIVEN_UP_PREFIX)) return t('import_books.given_up');
  if (message.startsWith(IMPORT_CANCELLED_PREFIX)) return t('import_books.cancelled');
  return explainMediaComment(message);
}
