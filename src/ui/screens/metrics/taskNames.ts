import { t } from '../../i18n.ts';

/**
 * The task types the server reports in its task metrics (server/db/task-repository.ts's TaskType,
 * Komga's names for them), each shown through metrics.task_types.<type>. A name this list does not
 * know (a newer server, Komga's own) is shown as sent.
 */
export const KNOWN_TASK_TYPES = [
  'ScanLibrary',
  'AnalyzeBook',
  'GenerateBookThumbnail',
  'RefreshBookMetadata',
  'EmptyTrash',
  'HashBook',
  'HashBookPages',
  'RemoveHashedPages',
  'ImportBook',
  'ConvertBook',
] as const;

const KNOWN: ReadonlySet<string> = new Set(KNOWN_TASK_TYPES);

export function taskName(type: string): string {
  return KNOWN.has(type) ? t(`metrics.task_types.${type}`) : type;
}
