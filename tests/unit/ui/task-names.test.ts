import { describe, expect, it } from 'vitest';
import type { TaskType } from '../../../server/db/task-repository.ts';
import { KNOWN_TASK_TYPES } from '../../../src/ui/screens/metrics/taskNames.ts';

/**
 * The metrics screen names the task types it knows in the reader's language and shows any other as
 * sent. Every type the server runs must be among them: the record below stops compiling when
 * TaskType gains a member, and the test fails when the client's list differs from it.
 */
const SERVER_TASK_TYPES: Record<TaskType, true> = {
  ScanLibrary: true,
  AnalyzeBook: true,
  GenerateBookThumbnail: true,
  RefreshBookMetadata: true,
  EmptyTrash: true,
  HashBook: true,
  HashBookPages: true,
  RemoveHashedPages: true,
  ImportBook: true,
  ConvertBook: true,
};

describe('task names on the metrics screen', () => {
  it('cover every task type the server runs', () => {
    expect([...KNOWN_TASK_TYPES].sort()).toEqual(Object.keys(SERVER_TASK_TYPES).sort());
  });
});
