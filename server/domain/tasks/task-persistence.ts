import { TaskRepository } from '../../db/task-repository.ts';
import type { FolioContext } from '../context.ts';
import { submitBookAnalysis, submitBookHash, submitEmptyTrash, submitLibraryScan, submitMetadataRefresh } from './library-tasks.ts';
import { submitPageHashing, submitPageRemoval } from '../hashing/page-hashing.ts';
import type { TaskType } from './task-queue.ts';

type Payload = Record<string, unknown>;
const text = (p: Payload, k: string) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);

/**
 * How each persistent task type is queued again from its stored payload. The submit helpers
 * re-check their own conditions (the book may be gone, the library may no longer hash), so a
 * restored task that no longer makes sense is simply not queued.
 */
const RESUBMIT: Partial<Record<TaskType, (ctx: FolioContext, payload: Payload) => void>> = {
  ScanLibrary: (ctx, p) => {
    const id = text(p, 'libraryId');
    if (id) submitLibraryScan(ctx, id, p.deep === true);
  },
  AnalyzeBook: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id) submitBookAnalysis(ctx, id);
  },
  HashBook: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id) submitBookHash(ctx, id);
  },
  RefreshBookMetadata: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id) submitMetadataRefresh(ctx, id);
  },
  EmptyTrash: (ctx, p) => {
    const id = text(p, 'libraryId');
    if (id) submitEmptyTrash(ctx, id);
  },
  HashBookPages: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id) submitPageHashing(ctx, id);
  },
  RemoveHashedPages: (ctx, p) => {
    const id = text(p, 'bookId');
    const pages = Array.isArray(p.pages) ? (p.pages as { number: number; fileName: string; hash: string }[]) : [];
    if (id && pages.length > 0) submitPageRemoval(ctx, id, pages);
  },
};

/**
 * Makes the task queue persistent: tasks queued with a payload are kept in SQLite until they have
 * run, and the ones left by the previous run (stopped or crashed) are queued again now.
 * Returns how many stored tasks were found.
 */
export function enableTaskPersistence(ctx: FolioContext): number {
  const store = new TaskRepository(ctx.db);
  const stored = store.all();
  // The helpers write fresh rows for what they queue; rows they decline must not linger.
  store.clear();
  ctx.tasks.persistTo(store);
  for (const task of stored) {
    try {
      RESUBMIT[task.type]?.(ctx, (task.payload ?? {}) as Payload);
    } catch (error) {
      ctx.log(`cannot restore task ${task.key}`, error);
    }
  }
  return stored.length;
}
