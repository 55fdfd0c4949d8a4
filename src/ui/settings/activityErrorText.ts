import { formatDuration } from '../format.ts';
import { t } from '../i18n.ts';
import { activityErrorMessage } from './activityErrors.ts';

/** A failed login's recorded reason in the reader's language (activityErrors.ts); unknown ones as sent. */
export function activityErrorText(error: string | null | undefined): string {
  if (!error) return '';
  const message = activityErrorMessage(error);
  if (!message) return error;
  const text = t(message.key, message.params);
  return message.slowedMs === undefined
    ? text
    : t('users_admin.activity.errors.slowed', { error: text, duration: formatDuration(message.slowedMs / 1000) });
}
