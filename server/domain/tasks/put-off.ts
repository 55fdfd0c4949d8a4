import { databaseUnavailable } from '../../db/database-unavailable.ts';
import { isResourceShortage } from '../../media/transient-errors.ts';

/**
 * The one rule for a background task that failed for a reason outside it, which passes by itself:
 * the database cannot be written now (another process's lock, a full disk), or the server is short
 * of file descriptors or archive handles. Such a task is put off and run again by the task queue
 * (task-queue.ts), whatever it is; tasks rethrow these failures rather than retry them on their
 * own timers or log and finish (a hash left empty until the next scan). Returns why, for the log
 * line, or undefined when the failure is the task's own.
 */
export function putOffReason(error: unknown): string | undefined {
  if (databaseUnavailable(error)) return 'the database cannot be written now';
  if (isResourceShortage(error)) return 'the server is short of file descriptors or archive handles';
  return undefined;
}
